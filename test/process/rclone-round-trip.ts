import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminQuery, POSTGRES_TEST_URL } from '../support/postgres-server.js';
import { httpsRequest, startHttpsServer } from '../support/https-server-process.js';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { makeTestCertificateAuthority, type TestCertificateAuthority } from '../support/tls-certificates.js';
import { generateTree, type TreeFile } from './webdav-tree.js';

const KEY = 'rclone-test-bootstrap-key-0123456789abcdef0123';
const USERNAME = 'rclone-user';
const PASSWORD = 'a long rclone password 🔑';
/**
 * Files in the copied tree: enough to reach every folder, name and size of webdav-tree.ts (ten
 * folders, nine stems, seven sizes) with three files in each folder, so transfers into one new
 * folder race to create it. No more: Atrium's listings page far beyond three files a folder
 * (READDIR at 256 entries, PROPFIND at 10,000; their paging is tested in-process), and rclone's
 * WebDAV backend spaces its calls 10 ms apart, so each further file costs time and adds nothing.
 */
const FILES = 30;
/** rclone's transfers and checkers at once: more than its default 4 and 8, so every file of the tree is in flight together. */
const PARALLEL = ['--transfers', '16', '--checkers', '16'];

const rcloneFound = fs.existsSync('/usr/bin/rclone') || (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && fs.existsSync(path.join(dir, 'rclone')));
const rcloneRequired = process.env.ATRIUM_TEST_REQUIRE_RCLONE === '1';
const serverMode = inject('postgresMode') === 'server';

/** Runs rclone with its own config file; answers its exit code and output, never throws on a non-zero exit. */
function rclone(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    execFile('rclone', args, { env: { PATH: process.env.PATH ?? '', HOME: env.HOME ?? os.tmpdir(), ...env }, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 }, (error, stdout, stderr) => {
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
  const schema = `atrium_rclone_${randomBytes(4).toString('hex')}`;
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

/** A front door rclone reaches Atrium through: the server settings it needs, and the rclone remote's settings. */
export interface RcloneDoor {
  /** As the suite's names say it: `WebDAV`, `SFTP` (CI looks for "rclone over <name>"). */
  name: string;
  serverEnv: Record<string, string>;
  /** The lines of the `[atrium]` remote before `user` and `pass`. */
  remote(server: ServerProcess): string[];
  /**
   * Atrium serves HTTPS itself (ATRIUM_TLS_*), with a certificate of a throwaway authority that
   * rclone is told to trust (`--ca-cert`): rclone then speaks HTTP/2, which Atrium offers by ALPN.
   */
  https?: boolean;
  /**
   * rclone sends each file's modification time through this door and reads it back (SFTP's
   * SETSTAT, WebDAV's `X-OC-Mtime` with `vendor = owncloud`); with WebDAV's `vendor = other` it
   * does neither and compares sizes alone.
   */
  keepsTimes: boolean;
}

/** The time every source file is given before it is copied: long before the copy, so a kept time cannot be the copy's own. */
const SOURCE_TIME = new Date('2020-01-02T03:04:05Z');

/**
 * A real client against a running Atrium: rclone (Debian's package) copies a tree of files of
 * mixed names and sizes (webdav-tree.ts) into a folder a user was granted, through `door`, signed
 * in with a password; `rclone check` finds no difference (sizes, then the bytes themselves), the
 * REST API lists the same tree with the same sizes, a second copy transfers nothing where the door
 * keeps rclone's times, and rclone copies it all back out byte for byte. On SQLite and PostgreSQL. Where rclone is missing this is a loud skip, unless
 * ATRIUM_TEST_REQUIRE_RCLONE=1 (CI).
 */
export function rcloneRoundTrip(door: RcloneDoor): void {
  if (!rcloneFound && !rcloneRequired) process.stderr.write(`\nSKIPPED: the ${door.name} rclone round trip needs rclone (apt-get install rclone).\n\n`);
  if (!serverMode) process.stderr.write(`\nSKIPPED: the ${door.name} rclone round trip on PostgreSQL needs a PostgreSQL server (none reachable).\n\n`);
  describe.skipIf(!rcloneFound && !rcloneRequired).each([sqliteTarget, postgresTarget()])(`rclone over ${door.name} against a running Atrium on $name`, (target) => roundTrip(door, target));
}

function roundTrip(door: RcloneDoor, target: Target): void {
  let server: ServerProcess;
  let work: string;
  let tree: TreeFile[];
  let rcloneEnv: Record<string, string>;
  let authority: TestCertificateAuthority | undefined;
  /** Flags every rclone command against the remote takes: trust the test authority under HTTPS. */
  const remoteFlags = () => (authority === undefined ? [] : ['--ca-cert', authority.caFile]);

  const admin = async (method: string, url: string, body?: unknown) => {
    const headers: Record<string, string> = { 'X-ServiceAPI-Key': KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    const text = body === undefined ? undefined : JSON.stringify(body);
    if (authority !== undefined) {
      const response = await httpsRequest(`${server.baseUrl}/api/rest/v1${url}`, { ca: authority.ca, method, headers, ...(text === undefined ? {} : { body: text }) });
      const header = (name: string) => (response.headers[name] as string | undefined) ?? null;
      return { status: response.status, headers: { get: header }, body: response.body === '' ? undefined : JSON.parse(response.body) };
    }
    const response = await fetch(`${server.baseUrl}/api/rest/v1${url}`, { method, headers, ...(text === undefined ? {} : { body: text }) });
    const answer = await response.text();
    return { status: response.status, headers: response.headers as { get(name: string): string | null }, body: answer === '' ? undefined : JSON.parse(answer) };
  };

  /**
   * Every file under `folder` as the REST API lists it, walking folders and following each
   * listing's cursor: pages of two, fewer entries than most of the tree's folders hold, so the
   * cursors are followed too.
   */
  const listed = async (folder: string): Promise<Map<string, number>> => {
    const files = new Map<string, number>();
    const pending = [folder];
    while (pending.length > 0) {
      const current = pending.pop() as string;
      let cursor: string | null = null;
      do {
        const query = `?per_page=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
        const page = await admin('GET', `/folders/${current.split('/').map(encodeURIComponent).join('/')}${query}`);
        expect(page.status, current).toBe(200);
        for (const entry of page.body as { path: string; type: string; size: number | null }[]) {
          if (entry.type === 'directory') pending.push(entry.path);
          else files.set(entry.path.slice(folder.length + 1), entry.size as number);
        }
        cursor = page.headers.get('x-service-cursor');
      } while (cursor !== null);
    }
    return files;
  };

  beforeAll(async () => {
    if (target.skip) return;
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-rclone-'));
    const env = await target.setUp(work);
    const serverEnv = { ...env, ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_HEADER_BRANDS: 'Service', ATRIUM_ACCESS_LOG: 'false', ...door.serverEnv };
    if (door.https === true) {
      authority = makeTestCertificateAuthority(path.join(work, 'pki'));
      const certificate = authority.issue('atrium');
      server = await startHttpsServer({ ...serverEnv, ATRIUM_TLS_CERT_FILE: certificate.chainFile, ATRIUM_TLS_KEY_FILE: certificate.keyFile }, authority.ca);
    } else {
      server = await startServer(serverEnv);
    }
    // A user of the Default Workspace with a password and a grant on one folder: the door's root is the site root.
    const user = await admin('POST', '/users', { username: USERNAME, password: PASSWORD });
    expect(user.status).toBe(201);
    expect((await admin('POST', '/folders/shared')).status).toBe(201);
    expect((await admin('POST', '/permissions', { path: 'shared', user_id: user.body.id, permission: 'full' })).status).toBe(201);

    tree = generateTree(path.join(work, 'source'), FILES, 7);
    for (const file of tree) fs.utimesSync(path.join(work, 'source', file.path), SOURCE_TIME, SOURCE_TIME);
    const obscured = await rclone(['obscure', PASSWORD], {});
    expect(obscured.code).toBe(0);
    const config = path.join(work, 'rclone.conf');
    fs.writeFileSync(config, [
      '[atrium]',
      ...door.remote(server),
      `user = ${USERNAME}`,
      `pass = ${obscured.output.trim()}`,
      '',
    ].join('\n'));
    rcloneEnv = { RCLONE_CONFIG: config, HOME: work };
  }, 120_000);

  afterAll(async () => {
    if (target.skip) return;
    // Whatever happened, the password never reached the log.
    expect(server?.output() ?? '').not.toContain(PASSWORD);
    await server?.stop();
    await target.tearDown();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it.skipIf(target.skip)(`copies ${FILES} files in with rclone copy; rclone check and the REST API see the same tree`, async () => {
    const totalBytes = tree.reduce((sum, file) => sum + file.size, 0);
    const started = Date.now();
    const copy = await rclone(['copy', path.join(work, 'source'), 'atrium:shared/tree', ...PARALLEL, '--retries', '1', '--low-level-retries', '1', ...remoteFlags()], rcloneEnv);
    expect(copy.code, copy.output).toBe(0);
    process.stderr.write(`rclone over ${door.name} [${target.name}]: ${FILES} files, ${(totalBytes / 2 ** 20).toFixed(1)} MiB copied into Atrium in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

    // Sizes and names, then every byte: neither door offers rclone a remote hash, so --download reads both sides.
    const check = await rclone(['check', path.join(work, 'source'), 'atrium:shared/tree', ...PARALLEL, ...remoteFlags()], rcloneEnv);
    expect(check.code, check.output).toBe(0);
    expect(check.output).toContain('0 differences found');
    const byBytes = await rclone(['check', '--download', path.join(work, 'source'), 'atrium:shared/tree', ...PARALLEL, ...remoteFlags()], rcloneEnv);
    expect(byBytes.code, byBytes.output).toBe(0);
    expect(byBytes.output).toContain('0 differences found');

    const rest = await listed('shared/tree');
    expect(rest.size).toBe(FILES);
    expect(new Map([...rest].sort())).toEqual(new Map(tree.map((file) => [file.path, file.size] as const).sort()));
  }, 300_000);

  // Without times (WebDAV's vendor other) a second copy compares sizes alone: nothing to show.
  if (door.keepsTimes) it.skipIf(target.skip)('a second rclone copy transfers nothing: every file kept the time rclone gave it', async () => {
    const again = await rclone(['copy', path.join(work, 'source'), 'atrium:shared/tree', ...PARALLEL, '-v', '--retries', '1', ...remoteFlags()], rcloneEnv);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain('There was nothing to transfer');
    expect(again.output).not.toContain('Copied');
    // rclone lists times in the local zone: UTC here.
    const listing = await rclone(['lsf', '-R', '--files-only', '--format', 'tp', 'atrium:shared/tree', ...remoteFlags()], { ...rcloneEnv, TZ: 'UTC' });
    expect(listing.code, listing.output).toBe(0);
    expect(new Set(listing.output.trim().split('\n').map((line) => line.split(';')[0]))).toEqual(new Set(['2020-01-02 03:04:05']));
    const first = await admin('GET', `/file_actions/metadata/shared/tree/${tree[0]?.path.split('/').map(encodeURIComponent).join('/')}`);
    expect(first.body).toMatchObject({ provided_mtime: '2020-01-02T03:04:05Z' });
  }, 120_000);

  it.skipIf(target.skip)('copies the tree back out with rclone, byte for byte', async () => {
    const back = path.join(work, 'back');
    const copy = await rclone(['copy', 'atrium:shared/tree', back, ...PARALLEL, '--retries', '1', ...remoteFlags()], rcloneEnv);
    expect(copy.code, copy.output).toBe(0);
    for (const file of tree) {
      const local = path.join(back, file.path);
      expect(fs.statSync(local).size, file.path).toBe(file.size);
      expect(fs.readFileSync(local).equals(fs.readFileSync(path.join(work, 'source', file.path))), file.path).toBe(true);
    }
    // rclone's own listing of the remote agrees with what it copied.
    const listing = await rclone(['lsf', '-R', '--files-only', 'atrium:shared/tree', ...remoteFlags()], rcloneEnv);
    expect(listing.code, listing.output).toBe(0);
    expect(listing.output.trim().split('\n').sort()).toEqual(tree.map((file) => file.path).sort());
  }, 300_000);

  if (door.https === true) it.skipIf(target.skip)('speaks HTTP/2 with Atrium over HTTPS, offered by ALPN', async () => {
    const listing = await rclone(['lsf', 'atrium:shared', '--dump', 'headers', ...remoteFlags()], rcloneEnv);
    expect(listing.code, listing.output).toBe(0);
    expect(listing.output).toMatch(/HTTP\/2\.0 207/);
    expect(listing.output).not.toMatch(/HTTP\/1\.1 207/);
  }, 60_000);

  it.skipIf(target.skip)('refuses a wrong password, and writes nowhere the user has no grant', async () => {
    const wrong = path.join(work, 'wrong.conf');
    const obscured = await rclone(['obscure', 'not the password'], {});
    fs.writeFileSync(wrong, fs.readFileSync(rcloneEnv.RCLONE_CONFIG as string, 'utf8').replace(/^pass = .*$/m, `pass = ${obscured.output.trim()}`));
    const denied = await rclone(['lsf', 'atrium:shared', '--retries', '1', '--low-level-retries', '1', ...remoteFlags()], { ...rcloneEnv, RCLONE_CONFIG: wrong });
    expect(denied.code).not.toBe(0);

    const outside = await rclone(['copyto', path.join(work, 'source', tree[0]?.path as string), 'atrium:elsewhere.bin', '--retries', '1', '--low-level-retries', '1', ...remoteFlags()], rcloneEnv);
    expect(outside.code).not.toBe(0);
    expect((await admin('GET', '/file_actions/metadata/elsewhere.bin')).status).toBe(404);
  }, 120_000);
}
