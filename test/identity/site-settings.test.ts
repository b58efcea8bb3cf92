import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { automationImportMayReachPrivateAddresses, checkNewPassword } from '../../src/identity/index.js';
import { DUMMY_PASSWORD_HASH, hashPassword } from '../../src/identity/index.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const DEFAULTS = {
  name: 'Atrium',
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
  trash_retention_days: 30,
  max_file_versions: 10,
  allowed_ips: '',
  automation_import_private_addresses: false,
  sharing_enabled: true,
  bundle_expiration: null,
  bundle_password_required: false,
  bundle_require_registration: false,
  revoke_bundle_access_on_disable_or_delete: true,
  allow_bundle_names: false,
  bundle_not_found_message: '',
  require_2fa: false,
  require_2fa_user_type: 'all',
  require_2fa_exempt_all_sso_users: true,
  allowed_2fa_method_totp: true,
  allowed_2fa_method_webauthn: true,
  allowed_2fa_method_bypass_for_ftp_sftp_dav: false,
};
/** What the site answers about the server itself, whatever the settings (this app runs no SFTP). */
const FACTS = {
  sftp_enabled: false, dav_enabled: true, always_mkdir_parents: true, use_provided_modified_at: true, users_can_create_ssh_keys: true,
  calculate_file_checksums_sha256: true, calculate_file_checksums_md5: true, calculate_file_checksums_crc32: true, calculate_file_checksums_sha1: true,
};
/** The site as shown: its identity, the settings, Files.com's hour spellings of three of them and the facts. */
const shown = (settings: Record<string, unknown>) => ({
  id: 1, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), ...settings, ...FACTS,
  user_lockout_within: (settings.user_lockout_within_minutes as number) / 60, user_lockout_lock_period: (settings.user_lockout_lock_period_minutes as number) / 60,
  session_expiry: (settings.session_expiry_minutes as number) / 60,
});
const SHOWN = shown(DEFAULTS);

describe.each(testDatabaseTargets())('site settings [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  it('shows the settings with their defaults to a Site Administrator', async () => {
    const response = await t.api.get('/site', { key: BOOTSTRAP_KEY });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(SHOWN);
    const admin = await createUser(t.database.db, { siteAdmin: true });
    const adminKey = await createApiKey(t.database.db, { userId: admin.id });
    expect((await t.api.get('/site.json', { key: adminKey })).body).toEqual(SHOWN);
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
    expect((await t.api.get('/site', { key: BOOTSTRAP_KEY })).body).toEqual(SHOWN);
  });

  it('shows every signed-in user the rules that apply to themselves (GET /site/policies), and follows changes', async () => {
    const user = await createUser(t.database.db);
    const key = await createApiKey(t.database.db, { userId: user.id });
    const before = await t.api.get('/site/policies', { key });
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ users_can_create_api_keys: true, password_min_length: 12, trash_retention_days: 30 });
    expect((await t.api.patch('/site', { users_can_create_api_keys: false }, { key: BOOTSTRAP_KEY })).status).toBe(200);
    expect((await t.api.get('/site/policies', { key })).body).toEqual({ users_can_create_api_keys: false, password_min_length: 12, trash_retention_days: 30 });
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
    const patched = await t.api.patch('/site', { session_expiry_minutes: 30, user_lockout: false, unknown_setting: 1, id: 7 }, { key: BOOTSTRAP_KEY });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual(shown({ ...DEFAULTS, session_expiry_minutes: 30, user_lockout: false }));
    const put = await t.api.put('/site', { password_min_length: 16, users_can_create_api_keys: false }, { key: BOOTSTRAP_KEY });
    expect(put.body).toEqual(shown({ ...DEFAULTS, session_expiry_minutes: 30, user_lockout: false, password_min_length: 16, users_can_create_api_keys: false }));
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
    expect(reset.body).toEqual(SHOWN);
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
      { name: '' },
      { name: '   ' },
      { name: 'tab\there' },
      { name: 'x'.repeat(256) },
      { user_lockout_within: 0 },
      { user_lockout_within: 1.5 },
      { user_lockout_lock_period: 169 },
      { user_lockout_within: 2, user_lockout_within_minutes: 90 },
      { user_lockout_lock_period: 1, user_lockout_lock_period_minutes: 30 },
      { allowed_ips: 'not an address' },
      { allowed_ips: '127.0.0.1\n10.0.0.0/33' },
      { allowed_ips: 7 },
      { automation_import_private_addresses: 'true' },
      { automation_import_private_addresses: 1 },
      { automation_import_private_addresses: null },
      { sharing_enabled: null },
      { bundle_expiration: 0 },
      { bundle_expiration: 36_501 },
      { trash_retention_days: 0 },
      { trash_retention_days: 36_501 },
      { max_file_versions: -1 },
      { max_file_versions: 1001 },
      { bundle_expiration: '7' },
      { allow_bundle_names: 'yes' },
      { bundle_not_found_message: null },
      { session_expiry: 0 },
      { session_expiry: 0.01 },
      { session_expiry: 'one' },
      { session_expiry: 2, session_expiry_minutes: 90 },
    ]) {
      const response = await t.api.patch('/site', body, { key: BOOTSTRAP_KEY });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.type, JSON.stringify(body)).toBe('bad-request/request-params-invalid');
      expect(Object.keys(response.body.model_errors), JSON.stringify(body)).toEqual(Object.keys(body));
    }
    const notObject = await t.api.call('PATCH', '/site', { key: BOOTSTRAP_KEY, rawBody: '[1]', headers: { 'content-type': 'application/json' } });
    expect(notObject.body.type).toBe('bad-request/invalid-body');
    expect((await t.api.get('/site', { key: BOOTSTRAP_KEY })).body).toEqual(SHOWN);
    expect(await t.database.db.selectFrom('site_settings').selectAll().orderBy('name').execute()).toEqual(stored);
  });

  it('shows the site id, name and creation time, and renames the site, recorded in History', async () => {
    const site = await t.api.get('/site', { key: BOOTSTRAP_KEY });
    expect(site.body).toMatchObject({ id: 1, name: 'Atrium' });
    const workspaceZero = await t.database.db.selectFrom('workspaces').select('created_at').where('id', '=', 0).executeTakeFirstOrThrow();
    expect(Date.parse(site.body.created_at)).toBe(Math.floor(Number(workspaceZero.created_at) / 1000) * 1000);
    try {
      const renamed = await t.api.patch('/site', { name: 'Acme files' }, { key: BOOTSTRAP_KEY });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ id: 1, name: 'Acme files', created_at: site.body.created_at });
      expect((await t.api.get('/site', { key: BOOTSTRAP_KEY })).body.name).toBe('Acme files');
      const row = await t.database.db.selectFrom('site_settings').selectAll().where('name', '=', 'name').executeTakeFirstOrThrow();
      expect(row.value).toBe('"Acme files"');
      const records = (await t.api.get('/history?filter[action]=site_update', { key: BOOTSTRAP_KEY })).body;
      expect(records[0].targets).toEqual({ before: { name: 'Atrium' }, after: { name: 'Acme files' } });
      // Only a Site Administrator renames the site.
      const user = await createUser(t.database.db, { siteAdmin: false });
      const key = await createApiKey(t.database.db, { userId: user.id });
      const refused = await t.api.patch('/site', { name: 'Mine' }, { key });
      expect([refused.status, refused.body.type]).toEqual([403, 'not-authorized/site-admin-required']);
      expect((await t.api.get('/site', { key: BOOTSTRAP_KEY })).body.name).toBe('Acme files');
    } finally {
      await t.api.patch('/site', { name: 'Atrium' }, { key: BOOTSTRAP_KEY });
    }
  });

  it('reads and writes the lockout window and period and the session expiry in hours too, one value stored in minutes', async () => {
    try {
      const inHours = await t.api.patch('/site', { user_lockout_within: 3, user_lockout_lock_period: 2 }, { key: BOOTSTRAP_KEY });
      expect(inHours.status).toBe(200);
      expect(inHours.body).toMatchObject({ user_lockout_within: 3, user_lockout_within_minutes: 180, user_lockout_lock_period: 2, user_lockout_lock_period_minutes: 120 });
      const rows = await t.database.db.selectFrom('site_settings').selectAll().where('name', 'in', ['user_lockout_within_minutes', 'user_lockout_lock_period_minutes', 'user_lockout_within', 'user_lockout_lock_period']).orderBy('name').execute();
      expect(rows).toEqual([{ name: 'user_lockout_lock_period_minutes', value: '120' }, { name: 'user_lockout_within_minutes', value: '180' }]);
      // Minutes that are no whole number of hours: the hour spelling is null.
      const inMinutes = await t.api.patch('/site', { user_lockout_within_minutes: 90 }, { key: BOOTSTRAP_KEY });
      expect(inMinutes.body).toMatchObject({ user_lockout_within: null, user_lockout_within_minutes: 90 });
      // Both spellings agreeing, and everything read written back (nulls included), are accepted.
      const agreeing = await t.api.patch('/site', { user_lockout_within: 2, user_lockout_within_minutes: 120 }, { key: BOOTSTRAP_KEY });
      expect(agreeing.body).toMatchObject({ user_lockout_within: 2, user_lockout_within_minutes: 120 });
      await t.api.patch('/site', { user_lockout_within_minutes: 90 }, { key: BOOTSTRAP_KEY });
      const current = (await t.api.get('/site', { key: BOOTSTRAP_KEY })).body;
      const writtenBack = await t.api.patch('/site', current, { key: BOOTSTRAP_KEY });
      expect(writtenBack.status).toBe(200);
      expect(writtenBack.body).toEqual(current);
      // session_expiry is decimal hours: any whole number of minutes, both ways.
      const halfHour = await t.api.patch('/site', { session_expiry: 0.5 }, { key: BOOTSTRAP_KEY });
      expect(halfHour.body).toMatchObject({ session_expiry: 0.5, session_expiry_minutes: 30 });
      const fifty = await t.api.patch('/site', { session_expiry_minutes: 50 }, { key: BOOTSTRAP_KEY });
      expect(fifty.body).toMatchObject({ session_expiry: 50 / 60, session_expiry_minutes: 50 });
      const fiftyBack = await t.api.patch('/site', { session_expiry: fifty.body.session_expiry }, { key: BOOTSTRAP_KEY });
      expect(fiftyBack.body).toMatchObject({ session_expiry_minutes: 50 });
      // Different values in the two spellings: refused, naming both, nothing stored.
      const conflict = await t.api.patch('/site', { user_lockout_lock_period: 3, user_lockout_lock_period_minutes: 120 }, { key: BOOTSTRAP_KEY });
      expect([conflict.status, conflict.body.type]).toEqual([400, 'bad-request/request-params-invalid']);
      expect(Object.keys(conflict.body.model_errors).sort()).toEqual(['user_lockout_lock_period', 'user_lockout_lock_period_minutes']);
      expect((await t.api.get('/site', { key: BOOTSTRAP_KEY })).body.user_lockout_lock_period_minutes).toBe(120);
    } finally {
      await t.api.patch('/site', DEFAULTS, { key: BOOTSTRAP_KEY });
    }
  });

  it('keeps automation_import_private_addresses off until a Site Administrator turns it on, recorded in History', async () => {
    expect((await t.api.get('/site', { key: BOOTSTRAP_KEY })).body.automation_import_private_addresses).toBe(false);
    expect(await automationImportMayReachPrivateAddresses(t.database.db)).toBe(false);
    const ws = await createWorkspace(t.database.db);
    const workspaceAdmin = await createUser(t.database.db, { workspaceId: ws, workspaceAdmin: true });
    const workspaceAdminKey = await createApiKey(t.database.db, { userId: workspaceAdmin.id, workspaceId: ws });
    const refused = await t.api.patch('/site', { automation_import_private_addresses: true }, { key: workspaceAdminKey });
    expect([refused.status, refused.body.type]).toEqual([403, 'not-authorized/site-admin-required']);
    expect(await automationImportMayReachPrivateAddresses(t.database.db)).toBe(false);
    try {
      const on = await t.api.patch('/site', { automation_import_private_addresses: true }, { key: BOOTSTRAP_KEY });
      expect(on.status).toBe(200);
      expect(on.body).toEqual(shown({ ...DEFAULTS, automation_import_private_addresses: true }));
      expect((await t.api.get('/site', { key: BOOTSTRAP_KEY })).body.automation_import_private_addresses).toBe(true);
      const row = await t.database.db.selectFrom('site_settings').selectAll().where('name', '=', 'automation_import_private_addresses').executeTakeFirstOrThrow();
      expect(row.value).toBe('true');
      expect(await automationImportMayReachPrivateAddresses(t.database.db)).toBe(true);
      const records = (await t.api.get('/history?filter[action]=site_update', { key: BOOTSTRAP_KEY })).body;
      expect(records[0].targets).toEqual({ before: { automation_import_private_addresses: false }, after: { automation_import_private_addresses: true } });
      const off = await t.api.put('/site', { automation_import_private_addresses: false }, { key: BOOTSTRAP_KEY });
      expect(off.body.automation_import_private_addresses).toBe(false);
      expect(await automationImportMayReachPrivateAddresses(t.database.db)).toBe(false);
    } finally {
      await t.api.patch('/site', { automation_import_private_addresses: false }, { key: BOOTSTRAP_KEY });
    }
  });

  it('keeps the dummy password hash on the parameters new hashes use', async () => {
    const parameters = (hash: string) => hash.split('$').slice(1, 4).join('$');
    expect(parameters(DUMMY_PASSWORD_HASH)).toBe(parameters(await hashPassword('anything at all')));
  });
});
