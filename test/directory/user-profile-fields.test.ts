import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, unique } from '../support/factories.js';
import { buildSite, type SiteFixture } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The Files.com user and group fields beyond Atrium's own (time zone, company, notes, the access
 * settings and protocol flags): stored, returned with the SDKs' types, checked, and set only by
 * whom may. What the access settings enforce at each door: test/access/door-admission.test.ts.
 */
describe.each(testDatabaseTargets())('user and group profile fields [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  beforeAll(async () => {
    t = await startTestApp(target);
    s = await buildSite(t);
  });
  afterAll(() => t.close());

  const everyField = {
    time_zone: 'Europe/Berlin',
    language: 'de',
    company: 'ACME Corp.',
    notes: 'Internal notes\non two lines.',
    allowed_ips: '10.0.0.0/8\n127.0.0.1\n2001:db8::/32',
    authenticate_until: '2031-02-03T04:05:06.789+01:00',
    require_password_change: true,
    ssl_required: 'always_require',
    user_root: '/projects/acme/',
    sftp_permission: false,
    dav_permission: false,
    ftp_permission: false,
    restapi_permission: true,
  };
  const everyFieldAsReturned = {
    ...everyField,
    authenticate_until: '2031-02-03T03:05:06Z',
    user_root: 'projects/acme',
  };

  it('gives a new user the defaults: every protocol allowed, nothing else set', async () => {
    const created = await t.api.post('/users', { username: unique('plain') }, { key: s.admin1.key });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      time_zone: null, language: null, company: '', notes: '', allowed_ips: '', authenticate_until: null, require_password_change: false,
      ssl_required: 'use_system_setting', user_root: '', sftp_permission: true, dav_permission: true, ftp_permission: true, restapi_permission: true,
    });
  });

  it('stores every field on create and returns it on create, show and list, and in the database', async () => {
    const username = unique('profiled');
    const created = await t.api.post('/users', { username, ...everyField }, { key: s.admin1.key });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject(everyFieldAsReturned);
    const shown = await t.api.get(`/users/${created.body.id}`, { key: s.admin1.key });
    expect(shown.body).toMatchObject(everyFieldAsReturned);
    const listed = await t.api.get(`/users?filter[username]=${username}`, { key: s.admin1.key });
    expect(listed.body).toEqual([expect.objectContaining(everyFieldAsReturned)]);
    const row = await t.database.db.selectFrom('users').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ time_zone: 'Europe/Berlin', company: 'ACME Corp.', allowed_ips: '10.0.0.0/8\n127.0.0.1\n2001:db8::/32', user_root: 'projects/acme' });
    expect(Number(row.authenticate_until)).toBe(Date.parse('2031-02-03T03:05:06Z'));
    expect(Boolean(row.sftp_permission)).toBe(false);
  });

  it('changes each field on update, leaves the others, and clears text fields with null or empty', async () => {
    const user = await createUser(t.database.db, { workspaceId: s.ws1 });
    const first = await t.api.patch(`/users/${user.id}`, everyField, { key: s.admin1.key });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject(everyFieldAsReturned);
    const second = await t.api.patch(`/users/${user.id}`, { company: 'Other', sftp_permission: true, authenticate_until: null, allowed_ips: '', time_zone: null }, { key: s.admin1.key });
    expect(second.body).toMatchObject({ ...everyFieldAsReturned, company: 'Other', sftp_permission: true, authenticate_until: null, allowed_ips: '', time_zone: null });
    // Sent back as it is (the SDK's save() sends every attribute): nothing changes and nothing is refused.
    const again = await t.api.patch(`/users/${user.id}`, second.body, { key: s.admin1.key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(second.body);
  });

  it('names the field that is not acceptable', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ time_zone: 'Mars/Olympus_Mons' }, 'time_zone'],
      [{ language: 'not a language' }, 'language'],
      [{ allowed_ips: '10.0.0.1\n300.1.1.1' }, 'allowed_ips'],
      [{ allowed_ips: '10.0.0.0/33' }, 'allowed_ips'],
      [{ user_root: 'a/../b' }, 'user_root'],
      [{ authenticate_until: 'next tuesday' }, 'authenticate_until'],
      [{ authenticate_until: '2031-02-03T04:05:06' }, 'authenticate_until'],
      [{ ssl_required: 'sometimes' }, 'ssl_required'],
      [{ company: 'x'.repeat(256) }, 'company'],
      [{ notes: 'y'.repeat(4097) }, 'notes'],
    ];
    const user = await createUser(t.database.db, { workspaceId: s.ws1 });
    for (const [body, field] of cases) {
      const response = await t.api.patch(`/users/${user.id}`, body, { key: s.admin1.key });
      expect({ body, status: response.status, type: response.body.type, fields: Object.keys(response.body.model_errors ?? {}) })
        .toEqual({ body, status: 422, type: 'processing-failure/model-save-error', fields: [field] });
    }
    // A wrong type is refused by the schema, naming the parameter.
    const wrongType = await t.api.patch(`/users/${user.id}`, { sftp_permission: 'perhaps' }, { key: s.admin1.key });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.type).toBe('bad-request/request-params-invalid');
    expect(JSON.stringify(wrongType.body)).toContain('sftp_permission');
    const unchanged = await t.api.get(`/users/${user.id}`, { key: s.admin1.key });
    expect(unchanged.body).toMatchObject({ time_zone: null, language: null, allowed_ips: '', sftp_permission: true });
  });

  it('lets a user set its own time zone, language and company, but not the fields that govern its access or the notes', async () => {
    const user = await createUser(t.database.db, { workspaceId: s.ws1 });
    const key = await createApiKey(t.database.db, { userId: user.id, workspaceId: s.ws1 });
    const own = await t.api.patch(`/users/${user.id}`, { time_zone: 'UTC', language: 'en', company: 'Self Inc.' }, { key });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ time_zone: 'UTC', language: 'en', company: 'Self Inc.' });
    for (const field of ['restapi_permission', 'sftp_permission', 'dav_permission', 'ftp_permission', 'require_password_change']) {
      const response = await t.api.patch(`/users/${user.id}`, { [field]: field === 'require_password_change' }, { key });
      expect({ field, status: response.status, type: response.body.type }).toEqual({ field, status: 403, type: 'not-authorized/insufficient-permission-for-params' });
      expect(response.body.error).toContain(field);
    }
    for (const [field, value] of [['allowed_ips', '127.0.0.1'], ['authenticate_until', '2040-01-01T00:00:00Z'], ['user_root', 'x'], ['ssl_required', 'never_require'], ['notes', 'mine']] as const) {
      const response = await t.api.patch(`/users/${user.id}`, { [field]: value }, { key });
      expect({ field, status: response.status, type: response.body.type }).toEqual({ field, status: 403, type: 'not-authorized/insufficient-permission-for-params' });
    }
    const row = await t.database.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ allowed_ips: '', notes: '', user_root: '', authenticate_until: null });
    expect(Boolean(row.restapi_permission)).toBe(true);
  });

  it('shows the notes only to administrators of the user\'s Workspace', async () => {
    await t.api.patch(`/users/${s.member1.user.id}`, { notes: 'seen by administrators' }, { key: s.admin1.key });
    const byAdmin = await t.api.get(`/users/${s.member1.user.id}`, { key: s.admin1.key });
    expect(byAdmin.body.notes).toBe('seen by administrators');
    const bySiteAdmin = await t.api.get(`/users?filter[username]=${s.member1.user.username}`, { key: BOOTSTRAP_KEY });
    expect(bySiteAdmin.body[0].notes).toBe('seen by administrators');
    const bySelf = await t.api.get(`/users/${s.member1.user.id}`, { key: s.member1.key });
    expect(bySelf.status).toBe(200);
    expect(bySelf.body).not.toHaveProperty('notes');
    const listedBySelf = await t.api.get('/users', { key: s.member1.key });
    expect(listedBySelf.body[0]).not.toHaveProperty('notes');
  });

  it('stores and returns a group\'s notes and protocol flags on create, update, show and list', async () => {
    const name = unique('flags');
    const created = await t.api.post('/groups', { name, notes: 'Group notes', sftp_permission: true, dav_permission: false }, { key: s.admin1.key });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ notes: 'Group notes', sftp_permission: true, dav_permission: false, ftp_permission: false, restapi_permission: false });
    const updated = await t.api.patch(`/groups/${created.body.id}`, { notes: null, restapi_permission: true, ftp_permission: true }, { key: s.admin1.key });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ notes: '', sftp_permission: true, restapi_permission: true, ftp_permission: true, dav_permission: false });
    const shown = await t.api.get(`/groups/${created.body.id}`, { key: s.admin1.key });
    expect(shown.body).toEqual(updated.body);
    const listed = await t.api.get(`/groups?filter[name]=${name}`, { key: s.admin1.key });
    expect(listed.body).toEqual([updated.body]);
    const tooLong = await t.api.patch(`/groups/${created.body.id}`, { notes: 'z'.repeat(4097) }, { key: s.admin1.key });
    expect(tooLong.status).toBe(422);
    expect(Object.keys(tooLong.body.model_errors)).toEqual(['notes']);
    // A regular user cannot change a group at all.
    const byMember = await t.api.patch(`/groups/${created.body.id}`, { sftp_permission: false }, { key: s.member1.key });
    expect(byMember.status).toBeGreaterThanOrEqual(403);
    expect((await t.api.get(`/groups/${created.body.id}`, { key: s.admin1.key })).body.sftp_permission).toBe(true);
  });
});
