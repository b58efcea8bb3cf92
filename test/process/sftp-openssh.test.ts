import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminQuery, POSTGRES_TEST_URL } from '../support/postgres-server.js';
import { startServer, type ServerProcess } from '../support/server-process.js';

/**
 * OpenSSH's own `sftp` client in batch mode (`sftp -b`, Debian's openssh-client) against a running
 * Atrium with ATRIUM_SFTP_PORT: put, get, reput, ls, mkdir, rename, rm and rmdir, signed in with a
 * key made by `ssh-keygen -t ed25519` and registered through /public_keys, the host key checked
 * against a known_hosts made from the key Atrium generated (its fingerprint is the one GET /site
 * shows), and the REST API sees the result. Password sign-in cannot be scripted with OpenSSH's
 * batch mode (it never reads a password from anything but a terminal, and sshpass is not used
 * here): test/sftp/sign-in.test.ts covers passwords with the ssh2 client.
 * Where sftp is missing this is a loud skip, unless ATRIUM_TEST_REQUIRE_OPENSSH=1 (CI).
 */
const KEY = 'openssh-test-bootstrap-key-0123456789abcdef012';
const USERNAME = 'openssh-user';

const sftpFound = fs.existsSync('/usr/bin/sftp') && fs.existsSync('/usr/bin/ssh-keygen');
const sftpRequired = process.env.ATRIUM_TEST_REQUIRE_OPENSSH === '1';
if (!sftpFound && !sftpRequired) process.stderr.write('\nSKIPPED: the OpenSSH sftp tests need OpenSSH\'s client (apt-get install openssh-client).\n\n');
const serverMode = inject('postgresMode') === 'server';

function run(command: string, args: string[], options: { cwd?: string } = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: options.cwd, env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir() }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') return reject(error);
      resolve({ code: error === null ? 0 : (error.code as number), output: `${stdout}${stderr}` });
    });
  });
}

interface Target {
  name: string;
  skip: boolean;
  setUp(work: string): Promise<Record<string, string>>;
  tearDown(): Promise<void>;
}

const sqliteTarget: Target = {
  name: 'SQLite [sqlite]',
  skip: false,
  setUp: async (work) => ({ ATRIUM_DATA_DIR: path.join(work, 'data') }),
  tearDown: async () => undefined,
};

const postgresTarget = (): Target => {
  const schema = `atrium_openssh_${randomBytes(4).toString('hex')}`;
  return {
    name: 'PostgreSQL [postgres]',
    skip: !serverMode,
    async setUp(work) {
      await adminQuery(`create schema ${schema}`);
      const url = `${POSTGRES_TEST_URL}${POSTGRES_TEST_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
      return { ATRIUM_DATABASE_URL: url, ATRIUM_DATA_DIR: path.join(work, 'data') };
    },
    tearDown: () => adminQuery(`drop schema if exists ${schema} cascade`),
  };
};

describe.skipIf(!sftpFound && !sftpRequired).each([sqliteTarget, postgresTarget()])('OpenSSH sftp against a running Atrium on $name', (target) => {
  let server: ServerProcess;
  let work: string;
  let sftpPort: number;
  let dataDir: string;
  let userId: number;

  const admin = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}/api/rest/v1${url}`, {
      method,
      headers: { 'X-ServiceAPI-Key': KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  const downloaded = async (file: string) => {
    const meta = await admin('GET', `/files/${file}`);
    expect(meta.status, file).toBe(200);
    return Buffer.from(await (await fetch(meta.body.download_uri as string)).arrayBuffer());
  };
  /** Runs `sftp -b` with these commands, signed in with `identity`, the host key checked strictly. */
  const batch = async (commands: string[], identity = path.join(work, 'id_ed25519')) => {
    const file = path.join(work, `batch-${randomBytes(3).toString('hex')}.txt`);
    fs.writeFileSync(file, `${commands.join('\n')}\n`);
    return run('sftp', [
      '-b', file, '-P', String(sftpPort), '-i', identity,
      '-o', 'IdentitiesOnly=yes', '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=yes',
      '-o', `UserKnownHostsFile=${path.join(work, 'known_hosts')}`, '-o', 'GlobalKnownHostsFile=/dev/null',
      `${USERNAME}@127.0.0.1`,
    ], { cwd: work });
  };

  beforeAll(async () => {
    if (target.skip) return;
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-openssh-'));
    const env = await target.setUp(work);
    dataDir = env.ATRIUM_DATA_DIR as string;
    server = await startServer({ ...env, ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_HEADER_BRANDS: 'Service', ATRIUM_ACCESS_LOG: 'false', ATRIUM_SFTP_PORT: '0' });
    const listening = /SFTP listening at sftp:\/\/127\.0\.0\.1:(\d+), host keys: ([^"]+)/.exec(server.output());
    expect(listening, server.output()).not.toBeNull();
    sftpPort = Number(listening?.[1]);

    // A user of the Default Workspace with a grant on one folder, and an Ed25519 key of its own.
    const user = await admin('POST', '/users', { username: USERNAME });
    expect(user.status).toBe(201);
    userId = user.body.id as number;
    expect((await admin('POST', '/folders/incoming')).status).toBe(201);
    expect((await admin('POST', '/permissions', { path: 'incoming', user_id: user.body.id, permission: 'full' })).status).toBe(201);
    const keygen = await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'openssh test', '-f', path.join(work, 'id_ed25519')]);
    expect(keygen.code, keygen.output).toBe(0);
    const registered = await admin('POST', '/public_keys', { user_id: user.body.id, title: 'openssh test', public_key: fs.readFileSync(path.join(work, 'id_ed25519.pub'), 'utf8').trim() });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);

    // known_hosts from the host key Atrium generated into its data dir.
    const hostKey = fs.readFileSync(path.join(dataDir, 'sftp-host-keys', 'ssh_host_ed25519_key.pub'), 'utf8').trim().split(' ').slice(0, 2).join(' ');
    fs.writeFileSync(path.join(work, 'known_hosts'), `[127.0.0.1]:${sftpPort} ${hostKey}\n`);
  }, 120_000);

  afterAll(async () => {
    if (target.skip) return;
    await server?.stop();
    await target.tearDown();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it.skipIf(target.skip)('shows the host key fingerprints in the start-up log and GET /site, as ssh-keygen computes them', async () => {
    const computed = await run('ssh-keygen', ['-lf', path.join(dataDir, 'sftp-host-keys', 'ssh_host_ed25519_key.pub')]);
    const fingerprint = /SHA256:[A-Za-z0-9+/]+/.exec(computed.output)?.[0];
    expect(fingerprint).toBeDefined();
    expect(server.output()).toContain(`ssh-ed25519 ${fingerprint}`);
    const site = await admin('GET', '/site');
    expect(site.body.sftp_host_key_fingerprints).toEqual([`ssh-ed25519 ${fingerprint}`, expect.stringMatching(/^ssh-rsa SHA256:/)]);
    // Owner-only, as the rest of the data dir.
    expect(fs.statSync(path.join(dataDir, 'sftp-host-keys')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dataDir, 'sftp-host-keys', 'ssh_host_ed25519_key')).mode & 0o777).toBe(0o600);
  });

  it.skipIf(target.skip)('put, ls, mkdir, rename, get, reput, rm and rmdir in batch mode; the REST API sees the result', async () => {
    const local = path.join(work, 'local');
    fs.mkdirSync(local);
    const payload = randomBytes(3 * 1024 * 1024 + 17);
    fs.writeFileSync(path.join(local, 'payload.bin'), payload);
    // A broken upload's first part, then the whole file for reput to finish.
    const whole = randomBytes(2 * 1024 * 1024 + 5);
    fs.writeFileSync(path.join(local, 'part.bin'), whole.subarray(0, 700_001));
    fs.writeFileSync(path.join(local, 'whole.bin'), whole);

    const result = await batch([
      'cd incoming',
      'mkdir reports',
      'put local/payload.bin reports/payload.bin',
      'ls -l reports',
      'rename reports/payload.bin reports/renamed.bin',
      'get reports/renamed.bin local/back.bin',
      'put local/part.bin resumed.bin',
      'reput local/whole.bin resumed.bin',
      'mkdir empty',
      'rmdir empty',
      'put local/part.bin doomed.bin',
      'rm doomed.bin',
      'ls -l',
    ]);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/-rw-------\s+1 atrium\s+atrium\s+3145745 .* reports\/payload\.bin|payload\.bin/);

    expect(fs.readFileSync(path.join(local, 'back.bin')).equals(payload)).toBe(true);
    const listed = await admin('GET', '/folders/incoming');
    expect(listed.body.map((entry: { path: string }) => entry.path).sort()).toEqual(['incoming/reports', 'incoming/resumed.bin']);
    const reports = await admin('GET', '/folders/incoming/reports');
    expect(reports.body).toEqual([expect.objectContaining({ path: 'incoming/reports/renamed.bin', size: payload.length })]);
    expect((await downloaded('incoming/reports/renamed.bin')).equals(payload)).toBe(true);
    const resumed = await downloaded('incoming/resumed.bin');
    expect(resumed.length).toBe(whole.length);
    expect(createHash('sha256').update(resumed).digest('hex')).toBe(createHash('sha256').update(whole).digest('hex'));

    // History has each action, with interface sftp.
    const history = await admin('GET', `/history/users/${userId}?per_page=100`);
    const actions = (history.body as { action: string; interface: string }[]).filter((row) => row.interface === 'sftp').map((row) => row.action);
    for (const action of ['login', 'create', 'move', 'read', 'update', 'destroy']) expect(actions, action).toContain(action);
  }, 120_000);

  it.skipIf(target.skip)('refuses a key that is not registered, and writes nowhere without a grant', async () => {
    const keygen = await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(work, 'stranger')]);
    expect(keygen.code).toBe(0);
    const refused = await batch(['ls'], path.join(work, 'stranger'));
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/Permission denied/);

    fs.writeFileSync(path.join(work, 'small.txt'), 'x');
    const outside = await batch(['put small.txt /elsewhere.txt']);
    expect(outside.code).not.toBe(0);
    expect((await admin('GET', '/files/elsewhere.txt')).status).toBe(404);
  }, 60_000);
});
