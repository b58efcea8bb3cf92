import { generate } from 'otplib';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'ssh2';
import { extract } from 'tar';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { generateOpenSshKeyPairSync } from '../../src/lib/openssh-key-pair.js';
import { sha256Fingerprint } from '../../src/sftp/host-keys.js';
import { adminQuery, POSTGRES_TEST_URL } from '../support/postgres-server.js';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { atrium, atriumOk } from './cli-in-process.js';
import { runCliProcess } from './cli-process.js';

const KEY = 'cli-backup-bootstrap-key-0123456789abcdef012';
const serverMode = inject('postgresMode') === 'server';

/** The SFTP port a server started with ATRIUM_SFTP_PORT=0 listens on. */
const sftpPortOf = (server: ServerProcess) => Number(/SFTP listening at sftp:\/\/127\.0\.0\.1:(\d+)/.exec(server.output())?.[1]);

/**
 * The host key an SSH server presents for `algorithm`, as a client sees it before trusting it:
 * its SHA256 fingerprint. The client then declines the key and goes, never signing in.
 */
function presentedHostKey(port: number, algorithm: 'ssh-ed25519' | 'rsa-sha2-512'): Promise<string> {
  return new Promise((resolve, reject) => {
    let presented: string | undefined;
    const client = new Client();
    const done = () => (presented === undefined ? reject(new Error(`no ${algorithm} host key presented`)) : resolve(presented));
    client.on('error', done);
    client.on('close', done);
    client.connect({
      host: '127.0.0.1',
      port,
      username: 'nobody',
      algorithms: { serverHostKey: [algorithm] },
      hostVerifier: (key: Buffer) => {
        presented = sha256Fingerprint(key);
        return false;
      },
    });
  });
}

/** Every file of a data dir's generated SFTP host keys: its bytes and mode. */
function hostKeyFiles(dataDir: string): Record<string, { content: string; mode: number }> {
  const dir = path.join(dataDir, 'sftp-host-keys');
  return Object.fromEntries(fs.readdirSync(dir).sort().map((name) => [name, { content: fs.readFileSync(path.join(dir, name), 'utf8'), mode: fs.statSync(path.join(dir, name)).mode & 0o777 }]));
}

describe('atrium backup and restore (SQLite), while the server works', () => {
  const running: ServerProcess[] = [];
  let dir = '';
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop('SIGKILL')));
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  const api = async (server: ServerProcess, method: string, url: string, body?: unknown) => {
    const headers: Record<string, string> = { 'X-ServiceAPI-Key': KEY };
    if (body !== undefined && !(body instanceof Uint8Array)) headers['content-type'] = 'application/json';
    const payload = body === undefined ? {} : { body: body instanceof Uint8Array ? body : JSON.stringify(body) };
    const response = await fetch(`${server.baseUrl}/api/rest/v1${url}`, { method, headers, ...payload });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  const download = async (server: ServerProcess, file: string): Promise<Buffer> => {
    const meta = await api(server, 'GET', `/files/${file}`);
    expect(meta.status).toBe(200);
    return Buffer.from(await (await fetch(meta.body.download_uri as string)).arrayBuffer());
  };

  it('restores a consistent copy taken during uploads and grant changes into a new data dir', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-backup-'));
    const live = { ATRIUM_DATA_DIR: path.join(dir, 'live') };
    const server = await startServer({ ...live, ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_ACCESS_LOG: 'false' });
    running.push(server);
    const user = await api(server, 'POST', '/users', { username: 'reader' });
    expect(user.status).toBe(201);
    // A user with an authenticator app: its secret is sealed under the data dir's key, which the backup must carry.
    const guarded = { username: 'guarded', password: 'a guarded user\'s passphrase' };
    expect((await api(server, 'POST', '/users', guarded)).status).toBe(201);
    const session = (await (await fetch(`${server.baseUrl}/api/rest/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(guarded) })).json() as { id: string }).id;
    const asGuarded = { 'X-ServiceAPI-Auth': session, 'content-type': 'application/json', 'X-Service-Reauthentication': `password:${guarded.password}` };
    const started = await (await fetch(`${server.baseUrl}/api/rest/v1/2fa/totp`, { method: 'POST', headers: asGuarded, body: '{}' })).json() as { secret: string };
    const totpSecret = started.secret;
    const confirmed = await fetch(`${server.baseUrl}/api/rest/v1/2fa/totp/confirm`, { method: 'POST', headers: asGuarded, body: JSON.stringify({ otp: await generate({ secret: totpSecret }) }) });
    expect(confirmed.status).toBe(200);
    // A deletion in the trash and an earlier version of a file: the backup keeps them too.
    const trashedBytes = randomBytes(700);
    expect((await api(server, 'PUT', '/files/kept/trashed.bin', trashedBytes)).status).toBe(201);
    expect((await api(server, 'DELETE', '/files/kept/trashed.bin')).status).toBe(204);
    const earlierBytes = randomBytes(600);
    expect((await api(server, 'PUT', '/files/kept/versioned.bin', earlierBytes)).status).toBe(201);
    expect((await api(server, 'PUT', '/files/kept/versioned.bin', randomBytes(500))).status).toBe(201);

    // Writers that upload a file and grant on a folder, one after the other, until told to stop.
    const uploaded = new Map<string, Buffer>();
    const granted = new Map<number, string>();
    let done = 0;
    let stop = false;
    /** Who waits for the writers to have done so many rounds. */
    const waiting: { count: number; resolve: () => void }[] = [];
    const writer = (async () => {
      for (let i = 0; !stop; i += 1) {
        const bytes = randomBytes(1024 + i);
        const put = await api(server, 'PUT', `/files/load/f-${i}.bin`, bytes);
        expect(put.status).toBe(201);
        uploaded.set(`f-${i}.bin`, bytes);
        const grant = await api(server, 'POST', '/permissions', { path: `load/g-${i}`, user_id: user.body.id, permission: 'readonly', recursive: true });
        expect(grant.status).toBe(201);
        granted.set(grant.body.id as number, `load/g-${i}`);
        done += 1;
        for (const waiter of waiting.filter((w) => w.count <= done)) waiter.resolve();
      }
    })();
    /** Until the writers have done `count` rounds; a writer that failed fails the wait. */
    const untilDone = (count: number) => Promise.race([
      new Promise<void>((resolve) => (done >= count ? resolve() : waiting.push({ count, resolve }))),
      writer.then(() => { throw new Error(`the writers stopped after ${done} rounds`); }),
    ]);

    await untilDone(5);
    const filesBefore = new Set(uploaded.keys());
    const grantsBefore = new Set(granted.keys());
    const archive = path.join(dir, 'site.tar');
    // The backup as its own process beside the server, as an operator runs it: the writers in this
    // process go on while it works.
    const backup = await runCliProcess(live, ['backup', archive]);
    const afterBackup = done;
    // The writers went on through the backup and after it.
    await untilDone(afterBackup + 3);
    stop = true;
    await writer;
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^backup written to .*site\.tar \(sqlite database and \d+ stored files?\)\n$/);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);

    // A backup never overwrites, and a restore never goes into a data dir in use.
    expect(await atrium(live, ['backup', archive])).toMatchObject({ code: 1, stderr: expect.stringContaining('already exists') });
    const intoLive = await atrium(live, ['restore', archive]);
    expect(intoLive).toMatchObject({ code: 1, stderr: expect.stringContaining('is not empty') });

    const restored = { ATRIUM_DATA_DIR: path.join(dir, 'restored') };
    expect(await atriumOk(restored, ['restore', archive])).toMatch(/^restored the backup of \S+ into .*restored\n$/);
    const copy = await startServer({ ...restored, ATRIUM_ACCESS_LOG: 'false' });
    running.push(copy);
    expect(fs.statSync(path.join(restored.ATRIUM_DATA_DIR, 'secret-box.key')).mode & 0o777).toBe(0o600);
    // The restored site opens the sealed secret: the app's next code signs the user in.
    const signedIn = await fetch(`${copy.baseUrl}/api/rest/v1/sessions`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...guarded, otp: await generate({ secret: totpSecret, epoch: Math.floor(Date.now() / 1000) + 30 }) }),
    });
    expect(signedIn.status).toBe(201);

    // Files: everything uploaded before the backup began, and every file there has its exact bytes.
    const listing = await api(copy, 'GET', '/folders/load?per_page=10000');
    expect(listing.status).toBe(200);
    const files = (listing.body as { path: string; type: string }[]).filter((e) => e.type === 'file').map((e) => path.basename(e.path));
    for (const name of filesBefore) expect(files).toContain(name);
    for (const name of files) expect((await download(copy, `load/${name}`)).equals(uploaded.get(name) as Buffer), name).toBe(true);

    // Grants: every grant made before the backup began, each on its folder; none that was never made.
    const grants = await api(copy, 'GET', `/permissions?per_page=10000&user_id=${user.body.id}`);
    expect(grants.status).toBe(200);
    const restoredGrants = grants.body as { id: number; path: string; permission: string }[];
    for (const id of grantsBefore) expect(restoredGrants.map((g) => g.id)).toContain(id);
    for (const grant of restoredGrants) expect({ id: grant.id, path: grant.path, permission: grant.permission }).toEqual({ id: grant.id, path: granted.get(grant.id), permission: 'readonly' });

    // The trash and the versions came along, and restore the bytes they kept.
    const trash = await api(copy, 'GET', '/trash?path=kept');
    const trashed = (trash.body as { id: number; path: string }[]).find((entry) => entry.path === 'kept/trashed.bin');
    expect(trashed).toBeDefined();
    expect((await api(copy, 'POST', `/trash/${trashed?.id}/restore`)).status).toBe(200);
    expect((await download(copy, 'kept/trashed.bin')).equals(trashedBytes)).toBe(true);
    const versions = await api(copy, 'GET', '/file_versions?path=kept/versioned.bin');
    expect(versions.body).toHaveLength(1);
    expect((await api(copy, 'POST', `/file_versions/${versions.body[0].id}/restore`)).status).toBe(200);
    expect((await download(copy, 'kept/versioned.bin')).equals(earlierBytes)).toBe(true);

    // The copy is a working site of its own: a change there leaves the original alone.
    expect((await api(copy, 'PUT', '/files/load/only-in-copy.txt', new TextEncoder().encode('copy'))).status).toBe(201);
    expect((await api(server, 'GET', '/files/load/only-in-copy.txt')).status).toBe(404);
  });

  it('carries the SFTP host keys: the restored server presents the same ones, kept owner-only', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-backup-'));
    const live = { ATRIUM_DATA_DIR: path.join(dir, 'live'), ATRIUM_SFTP_PORT: '0' };
    const server = await startServer({ ...live, ATRIUM_ACCESS_LOG: 'false' });
    running.push(server);
    const presented = async (port: number) => ({ ed25519: await presentedHostKey(port, 'ssh-ed25519'), rsa: await presentedHostKey(port, 'rsa-sha2-512') });
    const before = await presented(sftpPortOf(server));
    expect(before.ed25519).toMatch(/^SHA256:/);
    expect(before.rsa).toMatch(/^SHA256:/);

    const archive = path.join(dir, 'site.tar');
    await atriumOk(live, ['backup', archive]);
    const restored = { ATRIUM_DATA_DIR: path.join(dir, 'restored'), ATRIUM_SFTP_PORT: '0' };
    await atriumOk(restored, ['restore', archive]);
    // The same keys, byte for byte, and owner-only as the server made them.
    expect(fs.statSync(path.join(restored.ATRIUM_DATA_DIR, 'sftp-host-keys')).mode & 0o777).toBe(0o700);
    const keys = hostKeyFiles(restored.ATRIUM_DATA_DIR);
    expect(Object.keys(keys)).toEqual(['ssh_host_ed25519_key', 'ssh_host_ed25519_key.pub', 'ssh_host_rsa_key', 'ssh_host_rsa_key.pub']);
    expect(Object.values(keys).map((key) => key.mode)).toEqual([0o600, 0o600, 0o600, 0o600]);
    expect(keys).toEqual(hostKeyFiles(live.ATRIUM_DATA_DIR));

    await server.stop();
    const copy = await startServer({ ...restored, ATRIUM_ACCESS_LOG: 'false' });
    running.push(copy);
    expect(await presented(sftpPortOf(copy))).toEqual(before);
  });

  it('names the host keys of ATRIUM_SFTP_HOST_KEY_FILES in the backup, never their content, and says so on restore', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-backup-'));
    const ownKey = path.join(dir, 'own_host_key');
    const pair = generateOpenSshKeyPairSync('ed25519');
    fs.writeFileSync(ownKey, pair.private, { mode: 0o600 });
    const live = { ATRIUM_DATA_DIR: path.join(dir, 'live'), ATRIUM_SFTP_HOST_KEY_FILES: ownKey };
    await atriumOk(live, ['migrate']);

    const archive = path.join(dir, 'site.tar');
    const backup = await atrium(live, ['backup', archive]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stderr).toBe(`atrium: note: the SFTP host keys of ATRIUM_SFTP_HOST_KEY_FILES (${ownKey}) are not in this backup: keep copies of them with it\n`);
    expect(fs.readFileSync(archive).includes(pair.private.trim().split('\n')[1] as string)).toBe(false);
    const unpacked = path.join(dir, 'unpacked');
    fs.mkdirSync(unpacked);
    await extract({ file: archive, cwd: unpacked });
    expect(JSON.parse(fs.readFileSync(path.join(unpacked, 'atrium-backup.json'), 'utf8'))).toMatchObject({ format: 3, dialect: 'sqlite', sftpHostKeyFiles: [ownKey] });
    expect(fs.readdirSync(unpacked).sort()).toEqual(['atrium-backup.json', 'atrium.sqlite', 'files']);

    const restore = await atrium({ ATRIUM_DATA_DIR: path.join(dir, 'restored') }, ['restore', archive]);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stderr).toContain(`the SFTP host keys of ATRIUM_SFTP_HOST_KEY_FILES (${ownKey}) were not in the backup: set ATRIUM_SFTP_HOST_KEY_FILES to them`);
  });

  it('clears the staging folder a killed backup left in the data dir, and keeps a running one\'s', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-backup-'));
    const live = { ATRIUM_DATA_DIR: path.join(dir, 'live') };
    const server = await startServer({ ...live, ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_ACCESS_LOG: 'false' });
    running.push(server);
    // A process that has exited stands for the backup that was killed; this test's own for one still running.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    const abandoned = path.join(live.ATRIUM_DATA_DIR, '.backup-killed');
    const inUse = path.join(live.ATRIUM_DATA_DIR, '.backup-running');
    for (const [folder, pid] of [[abandoned, gone], [inUse, String(process.pid)]] as const) {
      fs.mkdirSync(path.join(folder, 'objects'), { recursive: true });
      fs.writeFileSync(path.join(folder, 'owner.pid'), pid);
    }
    // The backup as a process of its own: this one, the test's, stands for another backup running.
    const staged = await runCliProcess(live, ['backup', path.join(dir, 'site.tar')]);
    expect(staged.code, staged.stderr).toBe(0);
    const left = fs.readdirSync(live.ATRIUM_DATA_DIR).filter((name) => name.startsWith('.backup-'));
    expect(left).toEqual(['.backup-running']);
  });

  it('refuses an archive that is not an Atrium backup and leaves the data dir empty', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-backup-'));
    const notBackup = path.join(dir, 'other.tar');
    fs.writeFileSync(notBackup, 'not a tar archive at all');
    const target = { ATRIUM_DATA_DIR: path.join(dir, 'restored') };
    const result = await atrium(target, ['restore', notBackup]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`atrium: ${notBackup} is not an Atrium backup: TAR_BAD_ARCHIVE: Unrecognized archive format\n`);
    expect(fs.readdirSync(target.ATRIUM_DATA_DIR)).toEqual([]);
    expect((await atrium(target, ['restore', path.join(dir, 'missing.tar')])).stderr).toContain('does not exist');
  });
});

describe.skipIf(!serverMode)('atrium backup and restore with PostgreSQL [postgres]', () => {
  const schema = `atrium_backup_${randomBytes(4).toString('hex')}`;
  const url = `${POSTGRES_TEST_URL}${POSTGRES_TEST_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
  let server: ServerProcess | undefined;
  let dir = '';
  afterEach(async () => {
    await server?.stop('SIGKILL');
    await adminQuery(`drop schema if exists ${schema} cascade`);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('archives the file contents, says the database is for pg_dump, and restores them only for a PostgreSQL configuration', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-backup-pg-'));
    await adminQuery(`create schema ${schema}`);
    const live = { ATRIUM_DATABASE_URL: url, ATRIUM_DATA_DIR: path.join(dir, 'live') };
    server = await startServer({ ...live, ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_ACCESS_LOG: 'false', ATRIUM_SFTP_PORT: '0' });
    const bytes = randomBytes(4096);
    const put = await fetch(`${server.baseUrl}/api/rest/v1/files/report.bin`, { method: 'PUT', headers: { 'X-ServiceAPI-Key': KEY }, body: bytes });
    expect(put.status).toBe(201);

    const archive = path.join(dir, 'files.tar');
    const backup = await atrium(live, ['backup', archive]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/\(postgres database not included; 1 stored file\)\n$/);
    expect(backup.stderr).toContain('dump the database with pg_dump');

    const asSqlite = { ATRIUM_DATA_DIR: path.join(dir, 'as-sqlite') };
    const refused = await atrium(asSqlite, ['restore', archive]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is a backup of a postgres site, but the configuration selects sqlite');
    expect(fs.readdirSync(asSqlite.ATRIUM_DATA_DIR)).toEqual([]);

    const restored = { ATRIUM_DATABASE_URL: url, ATRIUM_DATA_DIR: path.join(dir, 'restored') };
    const result = await atrium(restored, ['restore', archive]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('restore the database from its pg_dump with pg_restore');
    const objects = path.join(restored.ATRIUM_DATA_DIR, 'files', 'objects');
    const stored = fs.readdirSync(objects).flatMap((prefix) => fs.readdirSync(path.join(objects, prefix)).map((key) => path.join(objects, prefix, key)));
    expect(stored.map((file) => fs.readFileSync(file).equals(bytes))).toEqual([true]);
    expect(fs.existsSync(path.join(restored.ATRIUM_DATA_DIR, 'atrium.sqlite'))).toBe(false);
    // The SFTP host keys live in the data dir whatever the database: they come back as they were, owner-only.
    const keys = hostKeyFiles(restored.ATRIUM_DATA_DIR);
    expect(Object.keys(keys)).toHaveLength(4);
    expect(Object.values(keys).every((key) => key.mode === 0o600)).toBe(true);
    expect(keys).toEqual(hostKeyFiles(live.ATRIUM_DATA_DIR));
  });
});
