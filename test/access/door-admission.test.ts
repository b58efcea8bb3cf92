import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createApiKey, createGroup, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { DavClient } from '../webdav/dav-client.js';
import { call, startSftpTestApp, type SftpTestApp } from '../sftp/sftp-fixture.js';

const PASSWORD = 'a perfectly good passphrase';

/**
 * A user's own access settings at every door (access/door-admission.ts): the protocol flags
 * (restapi_permission at the REST API, sftp_permission at SFTP, dav_permission at WebDAV, a
 * group's flag true allowing whatever the member's own says), authenticate_until, and
 * allowed_ips. Each refuses on its door and allows again once set back.
 */
describe.each(testDatabaseTargets())('door admission by the user\'s own settings [$name]', (target) => {
  let t: SftpTestApp;
  beforeAll(async () => { t = await startSftpTestApp(target); });
  afterAll(() => t.close());

  const someone = async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const key = await createApiKey(t.database.db, { userId: user.id });
    return { user, key };
  };
  const set = async (userId: number, fields: Record<string, unknown>) => {
    const response = await t.api.patch(`/users/${userId}`, fields, { key: BOOTSTRAP_KEY });
    expect(response.status).toBe(200);
  };
  const rest = async (userId: number, key: string) => {
    const response = await t.api.get(`/users/${userId}`, { key });
    return { status: response.status, type: response.body.type as string | undefined };
  };
  const logIn = async (username: string) => {
    const response = await t.api.post('/sessions', { username, password: PASSWORD });
    return { status: response.status, type: response.body.type as string | undefined };
  };
  const sftp = (username: string, password = PASSWORD) => t.connect({ username, password }).then(
    async (c) => { await call((done) => c.sftp.realpath('.', done)); c.close(); return 'signed-in'; },
    (error: Error) => (/authentication methods failed/.test(error.message) ? 'refused' : error.message),
  );
  const dav = async (username: string, password = PASSWORD) => (await new DavClient(t.baseUrl, [username, password]).propfind('', '0')).status;

  it('restapi_permission false refuses the REST API to the user\'s keys and sessions, and to its log-in; true allows again', async () => {
    const { user, key } = await someone();
    const session = (await t.api.post('/sessions', { username: user.username, password: PASSWORD })).body.id as string;
    await set(user.id, { restapi_permission: false });
    expect(await rest(user.id, key)).toEqual({ status: 403, type: 'not-authorized/insufficient-permission-for-site' });
    const bySession = await t.api.get(`/users/${user.id}`, { session });
    expect({ status: bySession.status, type: bySession.body.type }).toEqual({ status: 403, type: 'not-authorized/insufficient-permission-for-site' });
    expect(await logIn(user.username)).toEqual({ status: 403, type: 'not-authorized/insufficient-permission-for-site' });
    // The other doors are not the REST API.
    expect(await sftp(user.username)).toBe('signed-in');
    expect(await dav(user.username)).toBe(207);
    await set(user.id, { restapi_permission: true });
    expect(await rest(user.id, key)).toEqual({ status: 200, type: undefined });
    expect((await logIn(user.username)).status).toBe(201);
  });

  it('sftp_permission false refuses SFTP sign-in by password and by API key; true allows again', async () => {
    const { user, key } = await someone();
    await set(user.id, { sftp_permission: false });
    expect(await sftp(user.username)).toBe('refused');
    expect(await sftp(user.username, key)).toBe('refused');
    expect(await rest(user.id, key)).toEqual({ status: 200, type: undefined });
    await set(user.id, { sftp_permission: true });
    expect(await sftp(user.username)).toBe('signed-in');
    expect(await sftp(user.username, key)).toBe('signed-in');
  });

  it('dav_permission false refuses WebDAV by password and by API key; true allows again', async () => {
    const { user, key } = await someone();
    await set(user.id, { dav_permission: false });
    expect(await dav(user.username)).toBe(403);
    expect(await dav(key, 'x')).toBe(403);
    await set(user.id, { dav_permission: true });
    expect(await dav(user.username)).toBe(207);
    expect(await dav(key, 'x')).toBe(207);
  });

  it('lets a group\'s protocol flag true allow a member whose own flag is false, and only that protocol', async () => {
    const { user, key } = await someone();
    await set(user.id, { sftp_permission: false, restapi_permission: false });
    const group = await createGroup(t.database.db);
    await addMember(t.database.db, group, user.id);
    expect(await sftp(user.username)).toBe('refused');
    const flagged = await t.api.patch(`/groups/${group}`, { sftp_permission: true }, { key: BOOTSTRAP_KEY });
    expect(flagged.body.sftp_permission).toBe(true);
    expect(await sftp(user.username)).toBe('signed-in');
    expect((await rest(user.id, key)).status).toBe(403);
    await t.api.patch(`/groups/${group}`, { sftp_permission: false }, { key: BOOTSTRAP_KEY });
    expect(await sftp(user.username)).toBe('refused');
  });

  it('lets no group of another Workspace open a door for a Workspace 0 member: its administrators do not administer the user', async () => {
    const { user } = await someone();
    await set(user.id, { sftp_permission: false });
    const workspace = await createWorkspace(t.database.db);
    const admin = await createUser(t.database.db, { workspaceId: workspace, workspaceAdmin: true });
    const adminKey = await createApiKey(t.database.db, { userId: admin.id, workspaceId: workspace });
    const group = await createGroup(t.database.db, { workspaceId: workspace });
    await addMember(t.database.db, group, user.id);
    const flagged = await t.api.patch(`/groups/${group}`, { sftp_permission: true }, { key: adminKey, workspace });
    expect(flagged.status).toBe(200);
    expect(await sftp(user.username)).toBe('refused');
  });

  it('authenticate_until in the past ends the account at every door, as disabling does; a later time allows again', async () => {
    const { user, key } = await someone();
    // The server's own clock decides what is past.
    await set(user.id, { authenticate_until: new Date(t.clock.now() - 60_000).toISOString() });
    expect(await rest(user.id, key)).toEqual({ status: 401, type: 'not-authenticated/invalid-credentials' });
    expect(await logIn(user.username)).toEqual({ status: 401, type: 'not-authenticated/invalid-username-or-password' });
    expect(await sftp(user.username)).toBe('refused');
    expect(await dav(user.username)).toBe(401);
    expect(await dav(key, 'x')).toBe(401);
    await set(user.id, { authenticate_until: new Date(t.clock.now() + 3_600_000).toISOString() });
    expect(await rest(user.id, key)).toEqual({ status: 200, type: undefined });
    expect((await logIn(user.username)).status).toBe(201);
    expect(await sftp(user.username)).toBe('signed-in');
    expect(await dav(user.username)).toBe(207);
    // The time comes: the key that worked a moment ago is refused.
    t.clock.advance(3_600_000);
    expect(await rest(user.id, key)).toEqual({ status: 401, type: 'not-authenticated/invalid-credentials' });
  });

  it('allowed_ips refuses every door from an address outside the list, and allows from one in it', async () => {
    const { user, key } = await someone();
    await set(user.id, { allowed_ips: '10.0.0.0/8\n192.0.2.1' });
    expect(await rest(user.id, key)).toEqual({ status: 403, type: 'not-authorized/ip-address-not-allowed' });
    expect(await logIn(user.username)).toEqual({ status: 403, type: 'not-authorized/ip-address-not-allowed' });
    expect(await sftp(user.username)).toBe('refused');
    expect(await dav(user.username)).toBe(403);
    // The tests connect over loopback, as IPv4 or IPv6.
    await set(user.id, { allowed_ips: '10.0.0.0/8\n127.0.0.0/8\n::1' });
    expect(await rest(user.id, key)).toEqual({ status: 200, type: undefined });
    expect((await logIn(user.username)).status).toBe(201);
    expect(await sftp(user.username)).toBe('signed-in');
    expect(await dav(user.username)).toBe(207);
  });

  it('a group\'s allowed_ips adds to the member\'s own: no list anywhere admits any address, else an address in any list of its own Workspace', async () => {
    const { user, key } = await someone();
    const group = await createGroup(t.database.db);
    await addMember(t.database.db, group, user.id);
    const listed = await t.api.patch(`/groups/${group}`, { allowed_ips: '10.0.0.0/8, 192.0.2.1' }, { key: BOOTSTRAP_KEY });
    expect({ status: listed.status, allowed: listed.body.allowed_ips }).toEqual({ status: 200, allowed: '10.0.0.0/8\n192.0.2.1' });
    expect(await rest(user.id, key)).toEqual({ status: 403, type: 'not-authorized/ip-address-not-allowed' });
    expect(await sftp(user.username)).toBe('refused');
    expect(await dav(user.username)).toBe(403);
    // The user's own list admits loopback: the lists add up.
    await set(user.id, { allowed_ips: '127.0.0.0/8\n::1' });
    expect(await rest(user.id, key)).toEqual({ status: 200, type: undefined });
    expect(await sftp(user.username)).toBe('signed-in');
    await set(user.id, { allowed_ips: '' });
    await t.api.patch(`/groups/${group}`, { allowed_ips: '127.0.0.0/8\n::1' }, { key: BOOTSTRAP_KEY });
    expect(await rest(user.id, key)).toEqual({ status: 200, type: undefined });
    const bad = await t.api.patch(`/groups/${group}`, { allowed_ips: 'not an address' }, { key: BOOTSTRAP_KEY });
    expect({ status: bad.status, type: bad.body.type }).toEqual({ status: 422, type: 'processing-failure/model-save-error' });
    // A group of another Workspace does not govern a Workspace 0 member.
    const workspace = await createWorkspace(t.database.db);
    const elsewhere = await createGroup(t.database.db, { workspaceId: workspace });
    await addMember(t.database.db, elsewhere, user.id);
    await t.api.patch(`/groups/${group}`, { allowed_ips: null }, { key: BOOTSTRAP_KEY });
    expect((await t.api.patch(`/groups/${elsewhere}`, { allowed_ips: '10.0.0.0/8' }, { key: BOOTSTRAP_KEY, workspace })).status).toBe(200);
    expect(await rest(user.id, key)).toEqual({ status: 200, type: undefined });
  });

  it('ssl_required always_require refuses plain HTTP at the REST API and WebDAV, not SFTP (always encrypted); the other values refuse nothing', async () => {
    const { user, key } = await someone();
    await set(user.id, { ssl_required: 'always_require' });
    expect(await rest(user.id, key)).toEqual({ status: 403, type: 'not-authorized/insufficient-permission-for-site' });
    expect(await logIn(user.username)).toEqual({ status: 403, type: 'not-authorized/insufficient-permission-for-site' });
    expect(await dav(user.username)).toBe(403);
    expect(await sftp(user.username)).toBe('signed-in');
    await set(user.id, { ssl_required: 'never_require' });
    expect(await rest(user.id, key)).toEqual({ status: 200, type: undefined });
    expect(await dav(user.username)).toBe(207);
  });

  it('user_root is the SFTP landing folder: `.` and relative paths start there, absolute paths are unchanged; a folder out of sight lands at /', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD, siteAdmin: true });
    const made = await t.api.post('/folders/landing/inner/sub', { mkdir_parents: true }, { key: BOOTSTRAP_KEY });
    expect(made.status).toBe(201);
    await set(user.id, { user_root: '/landing/inner/' });
    const c = await t.connect({ username: user.username, password: PASSWORD });
    try {
      expect(await call((done) => c.sftp.realpath('.', done))).toBe('/landing/inner');
      expect(await call((done) => c.sftp.realpath('..', done))).toBe('/landing');
      expect(await call((done) => c.sftp.realpath('/', done))).toBe('/');
      const relative = await call<{ filename: string }[]>((done) => c.sftp.readdir('.', done));
      const absolute = await call<{ filename: string }[]>((done) => c.sftp.readdir('/landing/inner', done));
      expect(relative.map((e) => e.filename)).toEqual(['sub']);
      expect(absolute.map((e) => e.filename)).toEqual(['sub']);
    } finally {
      c.close();
    }
    await set(user.id, { user_root: 'nowhere/at/all' });
    const lost = await t.connect({ username: user.username, password: PASSWORD });
    try {
      expect(await call((done) => lost.sftp.realpath('.', done))).toBe('/');
    } finally {
      lost.close();
    }
  });

  it('require_password_change holds neither SFTP nor WebDAV sign-ins: only console sessions wait for the change', async () => {
    const { user } = await someone();
    await set(user.id, { require_password_change: true });
    expect(await sftp(user.username)).toBe('signed-in');
    expect(await dav(user.username)).toBe(207);
  });
});

describe.each(testDatabaseTargets())('allowed_ips behind a load balancer [$name]', (target) => {
  let direct: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    direct = await startTestApp(target);
    proxied = await startTestApp(target, { trustProxy: ['127.0.0.1'] });
  });
  afterAll(async () => {
    await direct.close();
    await proxied.close();
  });

  const from = async (t: TestApp, forwardedFor: string) => {
    const user = await createUser(t.database.db);
    const key = await createApiKey(t.database.db, { userId: user.id });
    await t.api.patch(`/users/${user.id}`, { allowed_ips: '203.0.113.0/24' }, { key: BOOTSTRAP_KEY });
    return (await t.api.get(`/users/${user.id}`, { key, headers: { 'X-Forwarded-For': forwardedFor } })).status;
  };

  it('takes ssl_required from a trusted proxy\'s X-Forwarded-Proto: https admits, http refuses; an untrusted one is not believed', async () => {
    const over = async (t: TestApp, proto: string) => {
      const user = await createUser(t.database.db);
      const key = await createApiKey(t.database.db, { userId: user.id });
      await t.api.patch(`/users/${user.id}`, { ssl_required: 'always_require' }, { key: BOOTSTRAP_KEY });
      return (await t.api.get(`/users/${user.id}`, { key, headers: { 'X-Forwarded-Proto': proto } })).status;
    };
    expect(await over(proxied, 'https')).toBe(200);
    expect(await over(proxied, 'http')).toBe(403);
    expect(await over(direct, 'https')).toBe(403);
  });

  it('takes the forwarded address only from a trusted proxy, so a client cannot pick its own', async () => {
    expect(await from(proxied, '203.0.113.9')).toBe(200);
    expect(await from(proxied, '198.51.100.7')).toBe(403);
    // Not trusted: the socket's own address (loopback) counts, whatever the header says.
    expect(await from(direct, '203.0.113.9')).toBe(403);
  });
});
