import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../support/server-process.js';
import { runTool as run, siteDatabases, useSftpClientSite, type SftpClientSite } from './sftp-client-site.js';

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
const USERNAME = 'openssh-user';

const sftpFound = fs.existsSync('/usr/bin/sftp') && fs.existsSync('/usr/bin/ssh-keygen');
const sftpRequired = process.env.ATRIUM_TEST_REQUIRE_OPENSSH === '1';
if (!sftpFound && !sftpRequired) process.stderr.write('\nSKIPPED: the OpenSSH sftp tests need OpenSSH\'s client (apt-get install openssh-client).\n\n');

describe.skipIf(!sftpFound && !sftpRequired).each(siteDatabases())('OpenSSH sftp against a running Atrium on $name', (target) => {
  const site = useSftpClientSite(target, { username: USERNAME, folder: 'incoming' });
  let server: ServerProcess;
  let work: string;
  let sftpPort: number;
  let dataDir: string;
  let userId: number;
  let admin: SftpClientSite['admin'];
  let downloaded: SftpClientSite['download'];
  beforeAll(() => {
    if (target.skip) return;
    ({ server, work, sftpPort, dataDir, userId, admin, download: downloaded } = site());
  });

  /** Runs `sftp -b` with these commands, signed in with `identity`, the host key checked strictly. */
  const batch = async (commands: string[], identity = site().identity) => {
    const file = path.join(work, `batch-${randomBytes(3).toString('hex')}.txt`);
    fs.writeFileSync(file, `${commands.join('\n')}\n`);
    return run('sftp', ['-b', file, '-P', String(sftpPort), ...site().sshOptions(identity), `${USERNAME}@127.0.0.1`], { cwd: work });
  };

  it.skipIf(target.skip)('shows the host key fingerprints in the start-up log and GET /site, as ssh-keygen computes them', async () => {
    const computed = await run('ssh-keygen', ['-lf', path.join(dataDir, 'sftp-host-keys', 'ssh_host_ed25519_key.pub')]);
    const fingerprint = /SHA256:[A-Za-z0-9+/]+/.exec(computed.output)?.[0];
    expect(fingerprint).toBeDefined();
    expect(server.output()).toContain(`ssh-ed25519 ${fingerprint}`);
    const settings = await admin('GET', '/site');
    expect(settings.body.sftp_host_key_fingerprints).toEqual([`ssh-ed25519 ${fingerprint}`, expect.stringMatching(/^ssh-rsa SHA256:/)]);
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

  it.skipIf(target.skip)('signs in with an SSH key where the site requires two-factor authentication: a key is no password', async () => {
    expect((await admin('PATCH', '/site', { require_2fa: true, require_2fa_user_type: 'all' })).status).toBe(200);
    try {
      const listed = await batch(['cd incoming', 'ls']);
      expect(listed.code, listed.output).toBe(0);
    } finally {
      await admin('PATCH', '/site', { require_2fa: false });
    }
  }, 60_000);
});
