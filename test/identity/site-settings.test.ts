import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkNewPassword } from '../../src/identity/index.js';
import { DUMMY_PASSWORD_HASH, hashPassword } from '../../src/identity/index.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const DEFAULTS = {
  session_expiry_minutes: 360,
  session_max_lifetime_minutes: 1440,
  user_lockout: true,
  user_lockout_tries: 5,
  user_lockout_within_minutes: 60,
  user_lockout_lock_period_minutes: 60,
  login_attempts_per_ip_per_hour: 100,
  users_can_create_api_keys: true,
  password_min_length: 12,
  history_retention_days: 365,
};

describe.each(testDatabaseTargets())('site settings [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  it('shows the settings with their defaults to a Site Administrator', async () => {
    const response = await t.api.get('/site', { key: BOOTSTRAP_KEY });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(DEFAULTS);
    const admin = await createUser(t.database.db, { siteAdmin: true });
    const adminKey = await createApiKey(t.database.db, { userId: admin.id });
    expect((await t.api.get('/site.json', { key: adminKey })).body).toEqual(DEFAULTS);
  });

  it('refuses everyone else: site-admin-required, files_only keys, no credential', async () => {
    const ws = await createWorkspace(t.database.db);
    for (const fields of [{}, { workspaceId: ws, workspaceAdmin: true }]) {
      const user = await createUser(t.database.db, fields);
      const key = await createApiKey(t.database.db, { userId: user.id, workspaceId: fields.workspaceId ?? 0 });
      for (const method of ['GET', 'PATCH', 'PUT']) {
        const response = await t.api.call(method, '/site', { key, ...(method === 'GET' ? {} : { body: { user_lockout: false } }) });
        expect(response.status, method).toBe(403);
        expect(response.body.type).toBe('not-authorized/site-admin-required');
      }
    }
    const admin = await createUser(t.database.db, { siteAdmin: true });
    const filesOnly = await createApiKey(t.database.db, { userId: admin.id, permissionSet: 'files_only' });
    expect((await t.api.get('/site', { key: filesOnly })).body.type).toBe('not-authorized/api-key-is-files-only');
    expect((await t.api.get('/site')).body.type).toBe('not-authenticated/authentication-required');
    expect((await t.api.get('/site', { key: BOOTSTRAP_KEY })).body).toEqual(DEFAULTS);
  });

  it('shows every signed-in user the rules that apply to themselves (GET /site/policies), and follows changes', async () => {
    const user = await createUser(t.database.db);
    const key = await createApiKey(t.database.db, { userId: user.id });
    const before = await t.api.get('/site/policies', { key });
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ users_can_create_api_keys: true, password_min_length: 12 });
    expect((await t.api.patch('/site', { users_can_create_api_keys: false }, { key: BOOTSTRAP_KEY })).status).toBe(200);
    expect((await t.api.get('/site/policies', { key })).body).toEqual({ users_can_create_api_keys: false, password_min_length: 12 });
    await t.api.patch('/site', { users_can_create_api_keys: true }, { key: BOOTSTRAP_KEY });
    expect((await t.api.get('/site/policies')).body.type).toBe('not-authenticated/authentication-required');
  });

  it('applies password_min_length to every new password set through the API', async () => {
    const fourteen = 'fourteen chars';
    expect((await t.api.patch('/site', { password_min_length: 16 }, { key: BOOTSTRAP_KEY })).status).toBe(200);
    try {
      const tooShort = await t.api.post('/users', { username: `min-${Date.now()}`, password: fourteen }, { key: BOOTSTRAP_KEY });
      expect(tooShort.status).toBe(422);
      expect(tooShort.body.type).toBe('processing-failure/model-save-error');
      expect(tooShort.body.model_errors.password[0]).toContain('16');
      const longEnough = await t.api.post('/users', { username: `min-${Date.now()}`, password: 'sixteen chars ok' }, { key: BOOTSTRAP_KEY });
      expect(longEnough.status).toBe(201);
      const change = await t.api.patch(`/users/${longEnough.body.id}`, { password: fourteen }, { key: BOOTSTRAP_KEY });
      expect(change.status).toBe(422);
    } finally {
      await t.api.patch('/site', { password_min_length: 12 }, { key: BOOTSTRAP_KEY });
    }
  });

  it('changes settings with PATCH or PUT (partial), stores them, and ignores unknown fields', async () => {
    const patched = await t.api.patch('/site', { session_expiry_minutes: 30, user_lockout: false, name: 'ignored', unknown_setting: 1 }, { key: BOOTSTRAP_KEY });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...DEFAULTS, session_expiry_minutes: 30, user_lockout: false });
    const put = await t.api.put('/site', { password_min_length: 16, users_can_create_api_keys: false }, { key: BOOTSTRAP_KEY });
    expect(put.body).toEqual({ ...DEFAULTS, session_expiry_minutes: 30, user_lockout: false, password_min_length: 16, users_can_create_api_keys: false });
    const rows = await t.database.db.selectFrom('site_settings').selectAll().orderBy('name').execute();
    expect(rows).toEqual([
      { name: 'password_min_length', value: '16' },
      { name: 'session_expiry_minutes', value: '30' },
      { name: 'user_lockout', value: 'false' },
      { name: 'users_can_create_api_keys', value: 'false' },
    ]);
    // The password policy reads the stored minimum.
    await expect(checkNewPassword(t.database.db, 'fifteen chars!!')).rejects.toMatchObject({ type: 'processing-failure/model-save-error' });
    await expect(checkNewPassword(t.database.db, 'sixteen chars!!!')).resolves.toBeUndefined();
    const reset = await t.api.patch('/site', DEFAULTS, { key: BOOTSTRAP_KEY });
    expect(reset.body).toEqual(DEFAULTS);
  });

  it('refuses values of the wrong type or out of range with request-params-invalid, changing nothing', async () => {
    const stored = await t.database.db.selectFrom('site_settings').selectAll().orderBy('name').execute();
    for (const body of [
      { session_expiry_minutes: 0 },
      { session_expiry_minutes: -5 },
      { session_expiry_minutes: 1.5 },
      { session_expiry_minutes: 'soon' },
      { session_max_lifetime_minutes: 600_000 },
      { user_lockout: 'maybe' },
      { user_lockout_tries: 0 },
      { user_lockout_within_minutes: 20_000 },
      { user_lockout_lock_period_minutes: 0 },
      { login_attempts_per_ip_per_hour: 0 },
      { users_can_create_api_keys: 'yes' },
      { users_can_create_api_keys: 'false' },
      { user_lockout_tries: '5' },
      { password_min_length: 7 },
      { password_min_length: 129 },
      { password_min_length: null },
    ]) {
      const response = await t.api.patch('/site', body, { key: BOOTSTRAP_KEY });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.type, JSON.stringify(body)).toBe('bad-request/request-params-invalid');
      expect(Object.keys(response.body.model_errors), JSON.stringify(body)).toEqual(Object.keys(body));
    }
    const notObject = await t.api.call('PATCH', '/site', { key: BOOTSTRAP_KEY, rawBody: '[1]', headers: { 'content-type': 'application/json' } });
    expect(notObject.body.type).toBe('bad-request/invalid-body');
    expect((await t.api.get('/site', { key: BOOTSTRAP_KEY })).body).toEqual(DEFAULTS);
    expect(await t.database.db.selectFrom('site_settings').selectAll().orderBy('name').execute()).toEqual(stored);
  });

  it('keeps the dummy password hash on the parameters new hashes use', async () => {
    const parameters = (hash: string) => hash.split('$').slice(1, 4).join('$');
    expect(parameters(DUMMY_PASSWORD_HASH)).toBe(parameters(await hashPassword('anything at all')));
  });
});
