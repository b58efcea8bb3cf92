import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createApiKey, createGroup, createUser } from '../support/factories.js';
import { BOOTSTRAP_KEY } from '../support/test-app.js';
import { DavClient } from '../webdav/dav-client.js';
import { ScimClient } from '../scim/scim-client.js';
import { call, startSftpTestApp, type SftpTestApp } from '../sftp/sftp-fixture.js';

const PASSWORD = 'a perfectly good passphrase';
/** Where the administrator works from: a trusted proxy (the test's loopback) forwards it. */
const OFFICE = '203.0.113.5';
const FROM_OFFICE = { 'X-Forwarded-For': OFFICE };
const REFUSED = { status: 403, type: 'not-authorized/ip-address-not-allowed' };

/**
 * The site's allowed_ips (access/door-admission.ts): it applies to everyone, at every door and for
 * every credential, and adds up with the users' and groups' own lists (an address in any list
 * that applies is admitted). A refusal is `ip-address-not-allowed` and a History record, at most
 * one a minute per account and address. The server trusts its loopback as a proxy, so a request
 * is from the office with X-Forwarded-For and from loopback without it; SFTP is always loopback.
 */
describe.each(testDatabaseTargets())('the site\'s address list [$name]', (target) => {
  let t: SftpTestApp;
  beforeAll(async () => { t = await startSftpTestApp(target, { trustProxy: ['127.0.0.1'] }); });
  afterAll(() => t.close());

  const admin = { key: BOOTSTRAP_KEY, headers: FROM_OFFICE };
  const setSite = (allowed_ips: string) => t.api.patch('/site', { allowed_ips }, admin);
  const someone = async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const key = await createApiKey(t.database.db, { userId: user.id });
    return { user, key };
  };
  const rest = async (userId: number, key: string, headers: Record<string, string> = {}) => {
    const response = await t.api.get(`/users/${userId}`, { key, headers });
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
  const refusals = async (userId: number | null) => {
    const rows = await t.database.db.selectFrom('history').select(['action', 'failure_type', 'interface', 'ip', 'user_id', 'api_key_id'])
      .where('failure_type', '=', 'ip_mismatch').orderBy('id').execute();
    return rows.filter((row) => row.user_id === userId);
  };

  it('is shown and kept one address or range a line, and applies to every door and credential; any list that applies admits', async () => {
    const { user, key } = await someone();
    const session = (await t.api.post('/sessions', { username: user.username, password: PASSWORD })).body.id as string;
    const set = await setSite(`${OFFICE}, 198.51.100.0/24\n\n2001:db8::/32`);
    expect({ status: set.status, allowed_ips: set.body.allowed_ips }).toEqual({ status: 200, allowed_ips: `${OFFICE}\n198.51.100.0/24\n2001:db8::/32` });
    try {
      expect((await t.api.get('/site', admin)).body.allowed_ips).toBe(`${OFFICE}\n198.51.100.0/24\n2001:db8::/32`);
      // From loopback: refused at every door, to every kind of credential, the site-wide key too.
      expect(await rest(user.id, key)).toEqual(REFUSED);
      const bySession = await t.api.get(`/users/${user.id}`, { session });
      expect({ status: bySession.status, type: bySession.body.type }).toEqual(REFUSED);
      expect(await logIn(user.username)).toEqual(REFUSED);
      expect(await dav(user.username)).toBe(403);
      expect(await dav(key, 'x')).toBe(403);
      expect(await sftp(user.username)).toBe('refused');
      expect(await sftp(user.username, key)).toBe('refused');
      const siteKey = await t.api.get('/site', { key: BOOTSTRAP_KEY });
      expect({ status: siteKey.status, type: siteKey.body.type }).toEqual(REFUSED);
      expect((await new ScimClient(t.baseUrl, BOOTSTRAP_KEY).get('/Users')).status).toBe(403);
      // From an address in the list: admitted.
      expect(await rest(user.id, key, { 'X-Forwarded-For': '198.51.100.77' })).toEqual({ status: 200, type: undefined });
      expect((await new ScimClient(t.baseUrl, BOOTSTRAP_KEY).get('/Users', FROM_OFFICE)).status).toBe(200);
      // The user's own list adds loopback for this user only: any list that applies admits.
      expect((await t.api.patch(`/users/${user.id}`, { allowed_ips: '127.0.0.0/8\n::1' }, admin)).status).toBe(200);
      expect(await rest(user.id, key)).toEqual({ status: 200, type: undefined });
      expect((await logIn(user.username)).status).toBe(201);
      expect(await dav(user.username)).toBe(207);
      expect(await sftp(user.username)).toBe('signed-in');
      // ... and the site's list still admits the user from the office, outside its own list.
      expect(await rest(user.id, key, FROM_OFFICE)).toEqual({ status: 200, type: undefined });
      const other = await someone();
      expect(await rest(other.user.id, other.key)).toEqual(REFUSED);
      // A group's list admits its members the same way.
      const group = await createGroup(t.database.db);
      await addMember(t.database.db, group, other.user.id);
      expect((await t.api.patch(`/groups/${group}`, { allowed_ips: '127.0.0.1\n::1' }, admin)).status).toBe(200);
      expect(await rest(other.user.id, other.key)).toEqual({ status: 200, type: undefined });
      expect(await sftp(other.user.username)).toBe('signed-in');
    } finally {
      expect((await setSite('')).status).toBe(200);
    }
    // No list on the site again: a user without a list of its own is admitted from anywhere, one with a list only from it.
    const free = await someone();
    expect(await rest(free.user.id, free.key, { 'X-Forwarded-For': '192.0.2.200' })).toEqual({ status: 200, type: undefined });
    expect(await rest(user.id, key, { 'X-Forwarded-For': '192.0.2.200' })).toEqual(REFUSED);
    expect((await t.api.get('/site', { key: BOOTSTRAP_KEY })).status).toBe(200);
  });

  it('records a refusal in History as failedlogin ip_mismatch, at most once a minute per account and address', async () => {
    const { user, key } = await someone();
    expect((await setSite(OFFICE)).status).toBe(200);
    try {
      expect(await rest(user.id, key)).toEqual(REFUSED);
      expect(await rest(user.id, key)).toEqual(REFUSED);
      expect(await dav(user.username)).toBe(403);
      expect(await rest(user.id, key, { 'X-Forwarded-For': '192.0.2.9' })).toEqual(REFUSED);
      // One record for loopback (the three refusals within the minute, whatever the door), one for the other address.
      expect(await refusals(user.id)).toEqual([
        { action: 'failedlogin', failure_type: 'ip_mismatch', interface: 'restapi', ip: '127.0.0.1', user_id: user.id, api_key_id: expect.any(Number) },
        { action: 'failedlogin', failure_type: 'ip_mismatch', interface: 'restapi', ip: '192.0.2.9', user_id: user.id, api_key_id: expect.any(Number) },
      ]);
      t.clock.advance(60_000);
      expect(await sftp(user.username)).toBe('refused');
      const after = await refusals(user.id);
      expect(after).toHaveLength(3);
      expect(after[2]).toMatchObject({ action: 'failedlogin', failure_type: 'ip_mismatch', interface: 'sftp', ip: '127.0.0.1', api_key_id: null });
      // Administrators find them with History's filter.
      const listed = await t.api.get(`/history?filter[failure_type]=ip_mismatch&filter[user_id]=${user.id}`, admin);
      expect(listed.status).toBe(200);
      expect(listed.body).toHaveLength(3);
    } finally {
      await setSite('');
    }
  });

  it('refuses a list that leaves out the address of the request setting it, for the site and for an administrator\'s own account', async () => {
    const before = await t.database.db.selectFrom('site_settings').selectAll().orderBy('name').execute();
    for (const [list, headers] of [['10.0.0.0/8', {}], ['10.0.0.0/8', FROM_OFFICE], ['198.51.100.0/24', { 'X-Forwarded-For': '192.0.2.1' }]] as const) {
      const refused = await t.api.patch('/site', { allowed_ips: list }, { key: BOOTSTRAP_KEY, headers });
      expect({ status: refused.status, type: refused.body.type }).toEqual({ status: 422, type: 'processing-failure/model-save-error' });
      expect(Object.keys(refused.body.model_errors)).toEqual(['allowed_ips']);
    }
    expect(await t.database.db.selectFrom('site_settings').selectAll().orderBy('name').execute()).toEqual(before);
    // An administrator's own account: the same; someone else's list may leave the administrator out.
    const siteAdmin = await createUser(t.database.db, { siteAdmin: true });
    const adminKey = await createApiKey(t.database.db, { userId: siteAdmin.id });
    const own = await t.api.patch(`/users/${siteAdmin.id}`, { allowed_ips: '10.0.0.0/8' }, { key: adminKey });
    expect({ status: own.status, type: own.body.type, fields: Object.keys(own.body.model_errors ?? {}) })
      .toEqual({ status: 422, type: 'processing-failure/model-save-error', fields: ['allowed_ips'] });
    expect((await t.api.get(`/users/${siteAdmin.id}`, { key: adminKey })).body.allowed_ips).toBe('');
    expect((await t.api.patch(`/users/${siteAdmin.id}`, { allowed_ips: '10.0.0.0/8\n127.0.0.1' }, { key: adminKey })).status).toBe(200);
    const { user } = await someone();
    expect((await t.api.patch(`/users/${user.id}`, { allowed_ips: '10.0.0.0/8' }, { key: adminKey })).status).toBe(200);
    // Sending the site's list back unchanged sets nothing: an administrator its own list admits,
    // outside the site's, still saves the other settings (the console writes back all it read).
    expect((await setSite(OFFICE)).status).toBe(200);
    try {
      const read = await t.api.get('/site', { key: adminKey });
      expect({ status: read.status, allowed_ips: read.body.allowed_ips }).toEqual({ status: 200, allowed_ips: OFFICE });
      const writtenBack = await t.api.patch('/site', { ...read.body, name: 'Renamed from home' }, { key: adminKey });
      expect({ status: writtenBack.status, name: writtenBack.body.name }).toEqual({ status: 200, name: 'Renamed from home' });
      const changed = await t.api.patch('/site', { allowed_ips: `${OFFICE}\n198.51.100.0/24` }, { key: adminKey });
      expect({ status: changed.status, type: changed.body.type }).toEqual({ status: 422, type: 'processing-failure/model-save-error' });
    } finally {
      await t.api.patch('/site', { allowed_ips: '', name: 'Atrium' }, admin);
    }
  });
});
