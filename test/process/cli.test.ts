import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminQuery, POSTGRES_TEST_URL } from '../support/postgres-server.js';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { atrium, atriumOk } from './cli-in-process.js';
import { runCliInTerminal, runCliProcess } from './cli-process.js';
import { temporaryFolders } from '../support/temp-dirs.js';

/** Removed after the file's last test. */
const temporaryFolder = temporaryFolders();

const KEY = 'cli-test-bootstrap-key-0123456789abcdef0123';
const PASSWORD = 'a long enough password';
const serverMode = inject('postgresMode') === 'server';
if (!serverMode) process.stderr.write('\nSKIPPED: the CLI tests on PostgreSQL need a PostgreSQL server (none reachable).\n\n');

interface Target {
  name: string;
  skip: boolean;
  /** The settings both the server and the CLI are given. */
  setUp(): Promise<Record<string, string>>;
  tearDown(): Promise<void>;
  /** Runs a statement on the site's database behind Atrium's back (`{history}` names the table), as an intruder would. */
  tamper(statement: string): Promise<void>;
}

const sqliteTarget = (): Target => {
  let dir = '';
  return {
    name: 'SQLite',
    skip: false,
    async setUp() {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-cli-'));
      return { ATRIUM_DATA_DIR: path.join(dir, 'data') };
    },
    async tearDown() { fs.rmSync(dir, { recursive: true, force: true }); },
    async tamper(statement) {
      const db = new Sqlite(path.join(dir, 'data', 'atrium.sqlite'));
      try { db.exec(statement.replaceAll('{history}', 'history')); } finally { db.close(); }
    },
  };
};

const postgresTarget = (): Target => {
  const schema = `atrium_cli_${randomBytes(4).toString('hex')}`;
  return {
    name: 'PostgreSQL [postgres]',
    skip: !serverMode,
    async setUp() {
      await adminQuery(`create schema ${schema}`);
      const url = `${POSTGRES_TEST_URL}${POSTGRES_TEST_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
      return { ATRIUM_DATABASE_URL: url, ATRIUM_DATA_DIR: temporaryFolder('atrium-cli-pg-') };
    },
    async tearDown() { await adminQuery(`drop schema if exists ${schema} cascade`); },
    tamper: (statement) => adminQuery(statement.replaceAll('{history}', `${schema}.history`)),
  };
};

/**
 * The administration CLI against a running server's database: its commands through the CLI's entry
 * function in this process (cli-in-process.ts), and the binary itself as a process where only it
 * can show the behaviour (its exit statuses, a password on its standard input, the terminal prompt).
 */
describe.each([sqliteTarget(), postgresTarget()])('the administration CLI on $name', (target) => {
  let env: Record<string, string> = {};
  let server: ServerProcess | undefined;

  const api = async (method: string, url: string, options: { key?: string; session?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = {};
    if (options.key !== undefined) headers['X-ServiceAPI-Key'] = options.key;
    if (options.session !== undefined) headers['X-ServiceAPI-Auth'] = options.session;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${server?.baseUrl}/api/rest/v1${url}`, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  const logIn = (username: string, password: string) => api('POST', '/sessions', { body: { username, password } });
  const userNamed = async (username: string) => {
    const listed = await api('GET', `/users?filter[username]=${encodeURIComponent(username)}`, { key: KEY });
    expect(listed.status).toBe(200);
    return (listed.body as { id: number; username: string; disabled: boolean; site_admin: boolean }[]).find((u) => u.username === username);
  };

  beforeAll(async () => {
    if (target.skip) return;
    env = await target.setUp();
    // The CLI prepares an empty database itself; the server then starts on it and, finding no
    // user and no key, creates the configured bootstrap key.
    const migrated = await atrium(env, ['migrate']);
    expect(migrated).toMatchObject({ code: 0, stdout: 'the database schema is up to date\n' });
    server = await startServer({ ...env, ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_ACCESS_LOG: 'false' });
  });
  afterAll(async () => {
    if (target.skip) return;
    await server?.stop('SIGKILL');
    await target.tearDown();
  });

  it.skipIf(target.skip)('migrate is idempotent on a migrated database, with the server running', async () => {
    expect(await atrium(env, ['migrate'])).toMatchObject({ code: 0, stdout: 'the database schema is up to date\n' });
  });

  it.skipIf(target.skip)('creates a user whose password, read from stdin, signs in over HTTP', async () => {
    // The binary, reading its own standard input, and exiting 0.
    const created = await runCliProcess(env, ['user', 'create', 'alice', '--password-stdin', '--name', 'Alice A'], `${PASSWORD}\n`);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const out = created.stdout;
    expect(out).toMatch(/^created user alice \(id \d+, Workspace 0\)\n$/);
    const session = await logIn('alice', PASSWORD);
    expect(session.status).toBe(201);
    expect((await api('GET', '/users', { session: session.body.id as string })).status).toBe(200);
    expect(await userNamed('alice')).toMatchObject({ username: 'alice', disabled: false, site_admin: false });
  });

  it.skipIf(target.skip)('applies the password policy and the username rules of the directory', async () => {
    // The binary: a refusal exits 1, saying why.
    const short = await runCliProcess(env, ['user', 'create', 'shorty', '--password-stdin'], 'short\n');
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('atrium: processing-failure/model-save-error');
    expect(short.stderr).toMatch(/password: is too short/);
    expect(await userNamed('shorty')).toBeUndefined();

    await atriumOk(env, ['user', 'create', 'taken'], '');
    const again = await atrium(env, ['user', 'create', 'TAKEN'], '');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('username: has already been taken');
  });

  it.skipIf(target.skip)('sets a password from the environment: the old one stops working, the new one signs in', async () => {
    await atriumOk(env, ['user', 'create', 'carol', '--password-stdin'], `${PASSWORD}\n`);
    const newPassword = 'another long enough password';
    const out = await atriumOk({ ...env, ATRIUM_USER_PASSWORD: newPassword }, ['user', 'set-password', 'carol']);
    expect(out).toBe('password of carol changed\n');
    expect((await logIn('carol', PASSWORD)).status).toBe(401);
    expect((await logIn('carol', newPassword)).status).toBe(201);

    const none = await atrium(env, ['user', 'set-password', 'carol']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no password given');
    const unknown = await atrium(env, ['user', 'set-password', 'nobody', '--password-stdin'], `${PASSWORD}\n`);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('atrium: not-found/user-not-found');
  });

  it.skipIf(target.skip)('asks for a new password twice in a terminal, without echoing it, and refuses two that differ', async () => {
    await atriumOk(env, ['user', 'create', 'fiona', '--password-stdin'], `${PASSWORD}\n`);
    const typed = 'typed at the terminal prompt';
    const prompts = /New password: |Repeat it: /g;
    const changed = await runCliInTerminal(env, ['user', 'set-password', 'fiona'], prompts, [typed, typed]);
    expect(changed.code).toBe(0);
    expect(changed.screen).toContain('password of fiona changed');
    expect(changed.screen).not.toContain(typed);
    expect((await logIn('fiona', typed)).status).toBe(201);

    const difffionag = await runCliInTerminal(env, ['user', 'set-password', 'fiona'], prompts, ['one long enough password', 'another long password']);
    expect(difffionag.code).toBe(1);
    expect(difffionag.screen).toContain('the two passwords differ');
    expect((await logIn('fiona', typed)).status).toBe(201);
  });

  it.skipIf(target.skip)('disables a user: its session and sign-in are refused; lists users with their state', async () => {
    await atriumOk(env, ['user', 'create', 'dave', '--password-stdin'], `${PASSWORD}\n`);
    const session = (await logIn('dave', PASSWORD)).body.id as string;
    expect(await atriumOk(env, ['user', 'disable', 'dave'])).toBe('user dave disabled\n');
    expect((await api('GET', '/users', { session })).status).toBe(401);
    expect((await logIn('dave', PASSWORD)).status).toBe(401);
    expect(await userNamed('dave')).toMatchObject({ disabled: true });

    const lines = (await atriumOk(env, ['user', 'list'])).trim().split('\n');
    expect(lines[0]).toBe('ID\tUSERNAME\tWORKSPACE\tROLE\tSTATE\tLAST LOGIN');
    expect(lines.find((line) => line.split('\t')[1] === 'dave')).toMatch(/\tdave\t0\tuser\tdisabled\t/);
    expect(lines.find((line) => line.split('\t')[1] === 'alice')).toMatch(/\talice\t0\tuser\tactive\t\d{4}-/);

    expect(await atriumOk(env, ['user', 'enable', 'dave'])).toBe('user dave enabled\n');
    expect((await logIn('dave', PASSWORD)).status).toBe(201);
  });

  it.skipIf(target.skip)('sets, shows and clears the site\'s address list: the way back in when it no longer holds the administrator', async () => {
    // The command line is on the host, where no list applies: it may set one that leaves out everyone here.
    expect(await atriumOk(env, ['site', 'allowed-ips', '192.0.2.0/24, 2001:db8::/32'])).toBe('192.0.2.0/24\n2001:db8::/32\n');
    const refused = await api('GET', '/site', { key: KEY });
    expect({ status: refused.status, type: refused.body.type }).toEqual({ status: 403, type: 'not-authorized/ip-address-not-allowed' });
    expect(await atriumOk(env, ['site', 'allowed-ips'])).toBe('192.0.2.0/24\n2001:db8::/32\n');
    const bad = await atrium(env, ['site', 'allowed-ips', 'somewhere']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('allowed_ips "somewhere" is not an IP address or CIDR range');
    expect(await atriumOk(env, ['site', 'allowed-ips', '--clear'])).toBe('no site address list: any address may connect\n');
    expect((await api('GET', '/site', { key: KEY })).body.allowed_ips).toBe('');
  });

  it.skipIf(target.skip)('keeps the last active Site Administrator, as the REST API does', async () => {
    await atriumOk(env, ['user', 'create', 'root', '--site-admin', '--password-stdin'], `${PASSWORD}\n`);
    expect(await userNamed('root')).toMatchObject({ site_admin: true });
    const refused = await atrium(env, ['user', 'disable', 'root']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the last active Site Administrator cannot be removed, disabled or demoted');
    expect(await userNamed('root')).toMatchObject({ disabled: false });
  });

  it.skipIf(target.skip)('creates a key for a user and prints its secret once; the key works over HTTP', async () => {
    await atriumOk(env, ['user', 'create', 'erin'], '');
    const result = await atrium(env, ['key', 'create', '--user', 'erin', '--name', 'backup job']);
    expect(result.code).toBe(0);
    const secret = result.stdout.trim();
    expect(result.stdout).toBe(`${secret}\n`);
    expect(result.stderr).toMatch(/^created key \d+ for erin; its secret is shown only now:\n$/);
    const own = await api('GET', '/api_key', { key: secret });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ name: 'backup job', user_id: (await userNamed('erin'))?.id, permission_set: 'full' });
    expect(JSON.stringify(own.body)).not.toContain(secret);

    const filesOnly = await atrium(env, ['key', 'create', '--user', 'erin', '--permission-set', 'files_only']);
    expect(filesOnly.code).toBe(0);
    expect((await api('GET', '/api_key', { key: filesOnly.stdout.trim() })).body).toMatchObject({ permission_set: 'files_only' });
    const past = await atrium(env, ['key', 'create', '--user', 'erin', '--expires-at', '2001-01-01T00:00:00Z']);
    expect(past.code).toBe(1);
    expect(past.stderr).toContain('expires_at: must be in the future');
  });

  it.skipIf(target.skip)('explains a user\'s access from current grants, and refuses an unknown user', async () => {
    await atriumOk(env, ['user', 'create', 'frank'], '');
    const frank = await userNamed('frank');
    const grant = await api('POST', '/permissions', { key: KEY, body: { path: 'Reports', user_id: frank?.id, permission: 'readonly', recursive: true } });
    expect(grant.status).toBe(201);

    const text = await atriumOk(env, ['explain', '--user', 'frank', '--path', 'Reports/q1.txt']);
    expect(text).toContain('frank on Reports/q1.txt (file, Workspace 0)');
    expect(text).toMatch(/capabilities: .*read/);
    expect(text).toContain(`read from grant ${grant.body.id} (readonly on Reports)`);
    expect(text).toContain('nothing stands at this path (yet)');
    const json = JSON.parse(await atriumOk(env, ['explain', '--user', 'frank', '--path', 'Reports/q1.txt', '--json']));
    expect(json).toMatchObject({ user_id: frank?.id, workspace_id: 0, site_admin: false, path_exists: false });
    expect(json.capabilities).toContain('read');
    expect(json.capabilities).not.toContain('write');

    expect((await api('DELETE', `/permissions/${grant.body.id}`, { key: KEY })).status).toBe(204);
    const after = JSON.parse(await atriumOk(env, ['explain', '--user', 'frank', '--path', 'Reports/q1.txt', '--json']));
    expect(after.capabilities).toEqual([]);

    const unknown = await atrium(env, ['explain', '--user', 'nobody', '--path', 'Reports']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('atrium: not-found/user-not-found');
  });

  it.skipIf(target.skip)('lists every automation and queues a manual run, refusing what cannot run by hand', async () => {
    const made = await api('POST', '/automations', { key: KEY, body: { name: 'Nightly tidy', automation: 'delete_file', trigger: 'daily', path: 'exports' } });
    expect(made, JSON.stringify(made.body)).toMatchObject({ status: 201 });
    const watching = await api('POST', '/automations', { key: KEY, body: { name: 'On upload', automation: 'copy_file', trigger: 'action', trigger_actions: ['create'], destinations: ['archive/'] } });
    expect(watching.status).toBe(201);
    const lines = (await atriumOk(env, ['automation', 'list'])).trim().split('\n');
    expect(lines).toContain(`${made.body.id}\t0\tdelete_file\tdaily\tenabled\tNightly tidy`);
    expect(lines).toContain(`${watching.body.id}\t0\tcopy_file\taction\tenabled\tOn upload`);
    const runId = Number((await atriumOk(env, ['automation', 'run', String(made.body.id)])).trim());
    const runs = await api('GET', `/automation_runs?automation_id=${made.body.id}`, { key: KEY });
    expect(runs.body).toEqual([expect.objectContaining({ id: runId, automation_id: made.body.id, status: 'queued' })]);
    const byHand = await atrium(env, ['automation', 'run', String(watching.body.id)]);
    expect(byHand.code).toBe(1);
    expect(byHand.stderr).toContain('processing-failure/automation-cannot-be-run-manually');
    const unknown = await atrium(env, ['automation', 'run', '999999']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not-found');
  });

  it.skipIf(target.skip)('history verify passes on an untouched chain and names the first edited, removed or reordered record', async () => {
    for (const name of ['h1', 'h2', 'h3', 'h4']) expect((await api('POST', '/users', { key: KEY, body: { username: name } })).status).toBe(201);
    const intact = await atriumOk(env, ['history', 'verify', '--json']);
    const verdict = JSON.parse(intact) as { intact: boolean; checked: number; lastId: number };
    expect(verdict).toMatchObject({ intact: true });
    expect(verdict.checked).toBeGreaterThanOrEqual(4);
    const last = verdict.lastId;

    // Reordered: two records swap places (their ids), and swapped back the chain holds again.
    const swap = async (a: number, b: number) => {
      await target.tamper(`update {history} set id = -1 where id = ${a}`);
      await target.tamper(`update {history} set id = ${a} where id = ${b}`);
      await target.tamper(`update {history} set id = ${b} where id = -1`);
    };
    await swap(last - 1, last);
    const reordered = await atrium(env, ['history', 'verify']);
    expect(reordered.code).toBe(1);
    expect(reordered.stderr).toContain(`History is broken at record ${last - 1}`);
    await swap(last - 1, last);
    expect(JSON.parse(await atriumOk(env, ['history', 'verify', '--json']))).toMatchObject({ intact: true });

    // The last record removed: the chain's end no longer matches.
    await target.tamper(`delete from {history} where id = ${last}`);
    const truncated = await atrium(env, ['history', 'verify']);
    expect(truncated.code).toBe(1);
    expect(truncated.stderr).toContain(`records ${last} to ${last} are missing`);

    await target.tamper(`update {history} set display = 'nothing to see' where id = ${last - 2}`);
    const edited = await atrium(env, ['history', 'verify']);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain(`History is broken at record ${last - 2}: record ${last - 2} does not match its hash`);

    await target.tamper(`delete from {history} where id = ${last - 3}`);
    const removed = await atrium(env, ['history', 'verify']);
    expect(removed.code).toBe(1);
    expect(removed.stderr).toContain(`record ${last - 3} is missing`);
  });

  it.skipIf(target.skip)('prints usage and exits 2 on arguments it cannot use', async () => {
    const cases: [string[], RegExp][] = [
      [['user', 'create'], /missing required argument 'username'[\s\S]*Usage: atrium user create/],
      [['user', 'frobnicate'], /unknown command 'frobnicate'[\s\S]*Usage: atrium user/],
      [['explain', '--user', 'frank'], /required option '--path <path>' not specified[\s\S]*Usage: atrium explain/],
      [['key', 'create', '--user', 'erin', '--workspace', 'three'], /option '--workspace <id>' argument 'three' is invalid. expected an id: a whole number from 0 to 2147483647/],
      [['user', 'list', '--workspace', '2147483648'], /option '--workspace <id>' argument '2147483648' is invalid. expected an id/],
      [['key', 'create', '--user', 'erin', '--permission-set', 'root'], /Allowed choices are full, files_only/],
      [['user', 'create', 'x', '--password', 'secret-on-the-command-line'], /unknown option '--password'/],
      [['nonsense'], /unknown command 'nonsense'[\s\S]*Usage: atrium/],
    ];
    for (const [args, message] of cases) {
      const result = await atrium(env, args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    }
    expect(await userNamed('x')).toBeUndefined();
    expect(await atrium(env, ['--help'])).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: atrium') });
    // The binary ends with the same statuses: 2 for a usage error, 0 for help.
    const [args, message] = cases[0] as [string[], RegExp];
    const usage = await runCliProcess(env, args);
    expect(usage).toMatchObject({ code: 2, stdout: '' });
    expect(usage.stderr).toMatch(message);
    expect(await runCliProcess(env, ['--help'])).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: atrium') });
  });
});

describe('atrium config check', () => {
  it('prints every setting the server would use, secrets masked, and exits 0', async () => {
    const result = await atrium({
      ATRIUM_PORT: '9090',
      ATRIUM_DATA_DIR: '/srv/atrium',
      ATRIUM_DATABASE_URL: 'postgres://atrium:db-password-123@127.0.0.1:5432/atrium',
      ATRIUM_ADMIN_USERNAME: 'admin',
      ATRIUM_ADMIN_PASSWORD: 'admin-password-456',
      ATRIUM_BOOTSTRAP_API_KEY: 'bootstrap-secret-0123456789abcdef0123456789',
    }, ['config', 'check', '--max-upload-bytes', '1G']);
    expect(result.code).toBe(0);
    const shown = new Map(result.stdout.trim().split('\n').slice(0, -1).map((line) => {
      const [name, ...value] = line.split(/\s+/);
      return [name, value.join(' ')];
    }));
    expect(shown.get('ATRIUM_PORT')).toBe('9090');
    expect(shown.get('ATRIUM_HOST')).toBe('127.0.0.1');
    expect(shown.get('ATRIUM_DATA_DIR')).toBe('/srv/atrium');
    expect(shown.get('ATRIUM_MAX_UPLOAD_BYTES')).toBe(String(1024 ** 3));
    expect(shown.get('ATRIUM_DATABASE_URL')).toBe('postgres://atrium:********@127.0.0.1:5432/atrium');
    expect(shown.get('ATRIUM_ADMIN_PASSWORD')).toBe('******** (set)');
    expect(shown.get('ATRIUM_BOOTSTRAP_API_KEY')).toBe('******** (set)');
    expect(shown.get('ATRIUM_TLS_CERT_FILE')).toBe('(not set)');
    expect(result.stdout.trim().split('\n').at(-1)).toBe('configuration is valid');
    for (const secret of ['db-password-123', 'admin-password-456', 'bootstrap-secret']) expect(result.stdout + result.stderr).not.toContain(secret);
  });

  it.each([
    [{ ATRIUM_PORT: 'eighty' }, [], 'atrium: configuration error: ATRIUM_PORT: "eighty" is not a port number (0 to 65535)'],
    [{}, ['--log-level', 'loud'], 'atrium: configuration error: ATRIUM_LOG_LEVEL: "loud" is not one of fatal, error, warn, info, debug, trace, silent'],
    [{ ATRIUM_ADMIN_USERNAME: 'admin' }, [], 'atrium: configuration error: ATRIUM_ADMIN_PASSWORD: must be set together with its pair (ATRIUM_ADMIN_USERNAME and ATRIUM_ADMIN_PASSWORD)'],
    [{ ATRIUM_DATABASE_URL: 'mysql://db/atrium' }, [], 'atrium: configuration error: ATRIUM_DATABASE_URL: unsupported scheme "mysql:" (only postgres:// is supported; leave it unset for the embedded database)'],
  ])('refuses a bad setting with the server\'s own line and exits 1 (%j %j)', async (settings, flags, line) => {
    const result = await atrium(settings as Record<string, string>, ['config', 'check', ...flags]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `${line}\n` });
  });
});
