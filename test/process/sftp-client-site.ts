import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { adminQuery, POSTGRES_TEST_URL } from '../support/postgres-server.js';
import { startServer, type ServerProcess } from '../support/server-process.js';

/** A database a real-client suite runs Atrium on: SQLite, and the PostgreSQL server when one answers. */
export interface SiteDatabase {
  /** As test names show it (CI counts `[sqlite]` and `[postgres]`). */
  name: string;
  skip: boolean;
  setUp(work: string): Promise<Record<string, string>>;
  tearDown(): Promise<void>;
}

/** SQLite, and PostgreSQL in a schema of its own (skipped where no server answers). */
export function siteDatabases(): SiteDatabase[] {
  const schema = `atrium_sftp_client_${randomBytes(4).toString('hex')}`;
  return [
    { name: 'SQLite [sqlite]', skip: false, setUp: async (work) => ({ ATRIUM_DATA_DIR: path.join(work, 'data') }), tearDown: async () => undefined },
    {
      name: 'PostgreSQL [postgres]',
      skip: inject('postgresMode') !== 'server',
      async setUp(work) {
        await adminQuery(`create schema ${schema}`);
        const url = `${POSTGRES_TEST_URL}${POSTGRES_TEST_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
        return { ATRIUM_DATABASE_URL: url, ATRIUM_DATA_DIR: path.join(work, 'data') };
      },
      tearDown: () => adminQuery(`drop schema if exists ${schema} cascade`),
    },
  ];
}

/** Whether a program is on the PATH. */
export function toolFound(name: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && fs.existsSync(path.join(dir, name)));
}

/** Runs a program (HOME in the temporary folder, so no user's own ssh settings apply); answers its exit code and output, never throws on a non-zero exit. */
export function runTool(command: string, args: string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: options.cwd, env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir() }, timeout: options.timeoutMs ?? 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') return reject(error);
      resolve({ code: error === null ? 0 : (error.code as number), output: `${stdout}${stderr}` });
    });
  });
}

/** A running Atrium with SFTP on, and a user set up for a real client. */
export interface SftpClientSite {
  server: ServerProcess;
  /** A temporary folder of the suite's own, removed afterwards. */
  work: string;
  dataDir: string;
  sftpPort: number;
  username: string;
  userId: number;
  /** The folder the user was granted `full` on (the user lands in the site root and sees it there). */
  folder: string;
  /** The user's private key (ssh-keygen's Ed25519), registered through /public_keys. */
  identity: string;
  /** A known_hosts file with the host key Atrium generated. */
  knownHosts: string;
  /**
   * The OpenSSH client options every tool built on ssh takes: `identity` (the user's key unless
   * said) and no other, no prompts, the host key checked strictly against knownHosts.
   */
  sshOptions(identity?: string): string[];
  /** A REST API call with the site-wide bootstrap key. */
  admin(method: string, url: string, body?: unknown): Promise<{ status: number; body: ReturnType<typeof JSON.parse> }>;
  /** A file's bytes, through the REST API's download link. */
  download(file: string): Promise<Buffer>;
}

/**
 * Registers beforeAll and afterAll that start Atrium with SFTP on `database` and make a user of the
 * Default Workspace with a grant of `full` on one folder and an Ed25519 key made by ssh-keygen, and
 * a known_hosts file from the host key Atrium generated (its fingerprint is the one GET /site
 * shows). Answers the site once beforeAll has run.
 */
export function useSftpClientSite(database: SiteDatabase, options: { username: string; folder: string }): () => SftpClientSite {
  const key = `sftp-client-bootstrap-key-${randomBytes(12).toString('hex')}`;
  let site: SftpClientSite | undefined;

  beforeAll(async () => {
    if (database.skip) return;
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-sftp-client-'));
    const env = await database.setUp(work);
    const server = await startServer({ ...env, ATRIUM_BOOTSTRAP_API_KEY: key, ATRIUM_HEADER_BRANDS: 'Service', ATRIUM_ACCESS_LOG: 'false', ATRIUM_SFTP_PORT: '0' });
    const listening = /SFTP listening at sftp:\/\/127\.0\.0\.1:(\d+), host keys: ([^"]+)/.exec(server.output());
    expect(listening, server.output()).not.toBeNull();
    const sftpPort = Number(listening?.[1]);
    const admin = async (method: string, url: string, body?: unknown) => {
      const response = await fetch(`${server.baseUrl}/api/rest/v1${url}`, {
        method,
        headers: { 'X-ServiceAPI-Key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
    };

    const user = await admin('POST', '/users', { username: options.username });
    expect(user.status).toBe(201);
    expect((await admin('POST', `/folders/${options.folder}`)).status).toBe(201);
    expect((await admin('POST', '/permissions', { path: options.folder, user_id: user.body.id, permission: 'full' })).status).toBe(201);
    const identity = path.join(work, 'id_ed25519');
    const keygen = await runTool('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'real client test', '-f', identity]);
    expect(keygen.code, keygen.output).toBe(0);
    const registered = await admin('POST', '/public_keys', { user_id: user.body.id, title: 'real client test', public_key: fs.readFileSync(`${identity}.pub`, 'utf8').trim() });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);

    const dataDir = env.ATRIUM_DATA_DIR as string;
    const hostKey = fs.readFileSync(path.join(dataDir, 'sftp-host-keys', 'ssh_host_ed25519_key.pub'), 'utf8').trim().split(' ').slice(0, 2).join(' ');
    const knownHosts = path.join(work, 'known_hosts');
    fs.writeFileSync(knownHosts, `[127.0.0.1]:${sftpPort} ${hostKey}\n`);
    site = {
      server, work, dataDir, sftpPort, identity, knownHosts, admin,
      username: options.username,
      userId: user.body.id as number,
      folder: options.folder,
      sshOptions: (key = identity) => [
        '-o', `IdentityFile=${key}`, '-o', 'IdentitiesOnly=yes', '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=yes',
        '-o', `UserKnownHostsFile=${knownHosts}`, '-o', 'GlobalKnownHostsFile=/dev/null',
      ],
      async download(file) {
        const meta = await admin('GET', `/files/${file.split('/').map(encodeURIComponent).join('/')}`);
        expect(meta.status, file).toBe(200);
        return Buffer.from(await (await fetch(meta.body.download_uri as string)).arrayBuffer());
      },
    };
  }, 120_000);

  afterAll(async () => {
    if (database.skip) return;
    await site?.server.stop();
    await database.tearDown();
    if (site !== undefined) fs.rmSync(site.work, { recursive: true, force: true });
  });

  return () => {
    if (site === undefined) throw new Error('the SFTP client site is not set up (beforeAll failed or was skipped)');
    return site;
  };
}
