import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_PARAMETERS_NOT_SUPPORTED } from '../../src/http/sdk-parameters-not-supported.js';
import { generateOpenSshKeyPairSync } from '../../src/lib/openssh-key-pair.js';
import { testDatabaseTargets } from '../support/databases.js';
import { unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { methodParameters } from './sdk-model-docs.js';

/**
 * Driven by the installed Files.com SDK's model documents: each parameter the SDK documents for a
 * write method Atrium serves is honoured (the route takes it, and sending it changes what is
 * stored and returned) or refused with 400 `request-params-invalid` naming it; never 2xx with no
 * effect. And the SDK's `save()`, which sends back every attribute of a found object (read-only
 * ones included), still works.
 */
const require = createRequire(import.meta.url);
const Files = require('files.com/lib/Files.js');
const { LogLevel } = require('files.com/lib/Logger.js');
const model = (name: string) => require(`files.com/lib/models/${name}.js`).default;

interface WriteMethod {
  model: string;
  /** The start of the method's section heading in the model's document. */
  heading: string;
  method: 'POST' | 'PATCH';
  /** As in the OpenAPI document, under the API root. */
  path: string;
}

const METHODS: WriteMethod[] = [
  { model: 'User', heading: 'Create User', method: 'POST', path: '/users' },
  { model: 'User', heading: 'Update User', method: 'PATCH', path: '/users/{id}' },
  { model: 'Group', heading: 'Create Group', method: 'POST', path: '/groups' },
  { model: 'Group', heading: 'Update Group', method: 'PATCH', path: '/groups/{id}' },
  { model: 'GroupUser', heading: 'Create Group User', method: 'POST', path: '/group_users' },
  { model: 'GroupUser', heading: 'Update Group User', method: 'PATCH', path: '/group_users/{id}' },
  { model: 'Permission', heading: 'Create Permission', method: 'POST', path: '/permissions' },
  { model: 'ApiKey', heading: 'Create API Key', method: 'POST', path: '/api_keys' },
  { model: 'ApiKey', heading: 'Update API Key', method: 'PATCH', path: '/api_keys/{id}' },
  { model: 'ApiKey', heading: 'Update current API key', method: 'PATCH', path: '/api_key' },
  { model: 'PublicKey', heading: 'Create Public Key', method: 'POST', path: '/public_keys' },
  { model: 'PublicKey', heading: 'Update Public Key', method: 'PATCH', path: '/public_keys/{id}' },
  { model: 'File', heading: 'Begin File Upload', method: 'POST', path: '/file_actions/begin_upload/{path}' },
  { model: 'File', heading: 'Update File/Folder Metadata', method: 'PATCH', path: '/files/{path}' },
  { model: 'Folder', heading: 'Create Folder', method: 'POST', path: '/folders/{path}' },
  { model: 'Site', heading: 'Update Site Settings', method: 'PATCH', path: '/site' },
  { model: 'Lock', heading: 'Create Lock', method: 'POST', path: '/locks/{path}' },
  { model: 'Session', heading: 'Create user session', method: 'POST', path: '/sessions' },
  { model: 'Automation', heading: 'Create Automation', method: 'POST', path: '/automations' },
  { model: 'Automation', heading: 'Update Automation', method: 'PATCH', path: '/automations/{id}' },
  { model: 'Bundle', heading: 'Create Bundle', method: 'POST', path: '/bundles' },
  { model: 'Bundle', heading: 'Update Bundle', method: 'PATCH', path: '/bundles/{id}' },
];

/** The table's key for a method: Fastify's route path (`:id`, `*`). */
const tableKey = (m: WriteMethod) => `${m.method} ${m.path.replace('{id}', ':id').replace('{path}', '*')}`;
/** In the path, not the body: the route's own parameters. */
const inPath = (m: WriteMethod, name: string) => m.path.includes(`{${name}}`);
const refusedOf = (m: WriteMethod) => SDK_PARAMETERS_NOT_SUPPORTED[tableKey(m)] ?? [];

/**
 * For each documented parameter a route honours, a value to send (from what the object had before,
 * so that it differs) and, where the parameter is not returned under its own name, how its effect
 * shows in the answer.
 */
type Sample = (before: Record<string, unknown>) => unknown;
interface Honoured { send: Sample; shows?: (after: Record<string, unknown>, before: Record<string, unknown>, sent: unknown) => void }
const text = (value: string): Honoured => ({ send: () => value });
const opposite = (name: string): Honoured => ({ send: (before) => !(before[name] as boolean) });

function userParameters(groupId: number): Record<string, Honoured> {
  return {
    username: { send: () => unique('renamed') },
    password: { send: () => 'another long enough password', shows: (after, before) => expect(after.password_set_at).not.toEqual(before.password_set_at) },
    name: text('Renamed'),
    email: text('renamed@example.com'),
    group_ids: { send: () => String(groupId) },
    allowed_ips: text('10.0.0.0/8'),
    authenticate_until: text('2099-01-01T00:00:00Z'),
    dav_permission: opposite('dav_permission'),
    disabled: opposite('disabled'),
    ftp_permission: opposite('ftp_permission'),
    language: text('de'),
    company: text('Acme'),
    notes: text('a note'),
    require_password_change: opposite('require_password_change'),
    restapi_permission: opposite('restapi_permission'),
    sftp_permission: opposite('sftp_permission'),
    site_admin: opposite('site_admin'),
    ssl_required: text('always_require'),
    require_2fa: text('never_require'),
    // Write-only: the user's second factors are reset (it had none; it has none after).
    clear_2fa: { send: () => true, shows: (after) => expect(after.active_2fa).toBe(false) },
    time_zone: text('Europe/Berlin'),
    user_root: text('home/renamed'),
  };
}

function groupParameters(userId: number): Record<string, Honoured> {
  return {
    name: { send: () => unique('renamed-group') },
    notes: text('a group note'),
    user_ids: { send: () => String(userId) },
    admin_ids: { send: () => String(userId) },
    allowed_ips: text('10.1.0.0/16'),
    dav_permission: opposite('dav_permission'),
    ftp_permission: opposite('ftp_permission'),
    restapi_permission: opposite('restapi_permission'),
    sftp_permission: opposite('sftp_permission'),
  };
}

/**
 * Honoured, and tested on their own (test/sso/sso-users.test.ts): moving a user to a sign-in
 * provider refuses a password sent with it, which this file's samples always send.
 */
const TESTED_ALONE = new Set(['authentication_method', 'sso_strategy_id']);

/** The honoured parameters of a method, as the SDK documents them (path parameters aside). */
function honouredOf(m: WriteMethod): string[] {
  const refused = new Set(refusedOf(m));
  return methodParameters(m.model, m.heading).filter((p) => !inPath(m, p) && !refused.has(p) && p !== 'id' && !TESTED_ALONE.has(p));
}

/**
 * Sends every honoured parameter at once over `before`, and checks each one changed the answer:
 * returned as sent (and differing from before), or its own check.
 */
function expectEachHonoured(all: Record<string, Honoured>, documented: string[], before: Record<string, unknown>, send: (body: Record<string, unknown>) => Promise<Record<string, unknown>>) {
  return async () => {
    // A sample for each documented parameter: one the SDK adds fails here until it has one.
    expect(documented.filter((name) => all[name] === undefined)).toEqual([]);
    const params = Object.fromEntries(documented.map((name) => [name, all[name] as Honoured]));
    const body = Object.fromEntries(Object.entries(params).map(([name, p]) => [name, p.send(before)]));
    const after = await send(body);
    for (const [name, p] of Object.entries(params)) {
      if (p.shows !== undefined) p.shows(after, before, body[name]);
      else {
        expect({ [name]: after[name] }).toEqual({ [name]: body[name] });
        expect({ [name]: before[name] }).not.toEqual({ [name]: body[name] });
      }
    }
  };
}

describe('the SDK\'s write parameters, against the routes\' schemas and the refused list', () => {
  let t: TestApp;
  let openapi: { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } }>> };
  beforeAll(async () => {
    t = await startTestApp(testDatabaseTargets()[0]!);
    openapi = (await t.api.get('/openapi', { key: BOOTSTRAP_KEY })).body;
  });
  afterAll(() => t.close());

  it.each(METHODS.map((m) => [`${m.model}: ${m.heading}`, m] as const))('%s: each documented parameter is taken by the route or refused, never both', (_name, m) => {
    const operation = openapi.paths[`/api/rest/v1${m.path}`]?.[m.method.toLowerCase()];
    expect(operation, `${m.method} ${m.path} is served`).toBeDefined();
    const taken = new Set(Object.keys(operation?.requestBody?.content['application/json']?.schema.properties ?? {}));
    const refused = new Set(refusedOf(m));
    const documented = methodParameters(m.model, m.heading);
    for (const name of documented) {
      if (inPath(m, name) || name === 'id') continue;
      expect({ [name]: taken.has(name) !== refused.has(name) }).toEqual({ [name]: true });
    }
    // The refused list names only documented parameters, so it never hides a typo.
    for (const name of refused) expect(documented).toContain(name);
  });

  it('every route in the refused list is one of the methods above', () => {
    expect(Object.keys(SDK_PARAMETERS_NOT_SUPPORTED).every((key) => METHODS.some((m) => tableKey(m) === key))).toBe(true);
  });
});

describe.each(testDatabaseTargets())('the SDK\'s write parameters, honoured or refused [$name]', (target) => {
  let t: TestApp;
  const admin = { key: BOOTSTRAP_KEY };
  let groupId: number;
  let userId: number;

  beforeAll(async () => {
    t = await startTestApp(target, { brands: ['Service', 'Files'] });
    Files.setBaseUrl(t.baseUrl);
    Files.setApiKey(BOOTSTRAP_KEY);
    Files.setLogLevel(LogLevel.NONE);
    groupId = (await t.api.post('/groups', { name: unique('params-group') }, admin)).body.id;
    userId = (await t.api.post('/users', { username: unique('params-user') }, admin)).body.id;
  });
  afterAll(() => t.close());

  const userCreate = METHODS[0]!;
  const userUpdate = METHODS[1]!;
  const groupCreate = METHODS[2]!;
  const groupUpdate = METHODS[3]!;

  it('User create: each honoured parameter is stored and returned', async () => {
    const before = (await t.api.post('/users', { username: unique('baseline') }, admin)).body;
    await expectEachHonoured(userParameters(groupId), honouredOf(userCreate), before, async (body) => {
      const created = await t.api.post('/users', body, admin);
      expect(created.status).toBe(201);
      return (await t.api.get(`/users/${created.body.id}`, admin)).body;
    })();
  });

  it('User update: each honoured parameter is stored and returned', async () => {
    const before = (await t.api.post('/users', { username: unique('to-update') }, admin)).body;
    t.clock.advance(60_000);
    await expectEachHonoured(userParameters(groupId), honouredOf(userUpdate), before, async (body) => {
      const updated = await t.api.patch(`/users/${before.id}`, body, admin);
      expect(updated.status).toBe(200);
      return (await t.api.get(`/users/${before.id}`, admin)).body;
    })();
  });

  it('Group create and update: each honoured parameter is stored and returned', async () => {
    const before = (await t.api.post('/groups', { name: unique('baseline-group') }, admin)).body;
    await expectEachHonoured(groupParameters(userId), honouredOf(groupCreate), before, async (body) => {
      const created = await t.api.post('/groups', body, admin);
      expect(created.status).toBe(201);
      return (await t.api.get(`/groups/${created.body.id}`, admin)).body;
    })();
    await expectEachHonoured(groupParameters(userId), honouredOf(groupUpdate), before, async (body) => {
      expect((await t.api.patch(`/groups/${before.id}`, body, admin)).status).toBe(200);
      return (await t.api.get(`/groups/${before.id}`, admin)).body;
    })();
  });

  it('User create and update: every parameter Atrium does not support is refused, each named, and nothing changes', async () => {
    const refusedBody = (m: WriteMethod) => Object.fromEntries(refusedOf(m).map((name) => [name, true]));
    const username = unique('refused');
    const created = await t.api.post('/users', { username, ...refusedBody(userCreate) }, admin);
    expect(created.status).toBe(400);
    expect(created.body.type).toBe('bad-request/request-params-invalid');
    expect(Object.keys(created.body.model_errors).sort()).toEqual([...refusedOf(userCreate)].sort());
    expect(created.body.model_errors.avatar_delete).toEqual(['is not supported by Atrium']);
    expect((await t.api.get(`/users?filter[username]=${username}`, admin)).body).toEqual([]);

    const updated = await t.api.patch(`/users/${userId}`, { name: 'Not stored', ...refusedBody(userUpdate) }, admin);
    expect(updated.status).toBe(400);
    expect(Object.keys(updated.body.model_errors).sort()).toEqual([...refusedOf(userUpdate)].sort());
    expect((await t.api.get(`/users/${userId}`, admin)).body.name).not.toBe('Not stored');
    // PUT is the same update.
    expect((await t.api.put(`/users/${userId}`, { user_home: 'home' }, admin)).body.model_errors).toEqual({ user_home: ['is not supported by Atrium'] });
  });

  it('the other write methods refuse each parameter Atrium does not support, each named', async () => {
    const refusedBody = (m: WriteMethod) => Object.fromEntries(refusedOf(m).map((name) => [name, 'x']));
    const answers = {
      'PATCH /site': await t.api.patch('/site', { session_expiry_minutes: 61, ...refusedBody(METHODS[15]!) }, admin),
      'POST /api_keys': await t.api.post('/api_keys', { name: 'not made', user_id: userId, ...refusedBody(METHODS[7]!) }, admin),
      'POST /sessions': await t.api.post('/sessions', { username: 'nobody', password: 'nothing', ...refusedBody(METHODS[17]!) }),
      'POST /automations': await t.api.post('/automations', { automation: 'copy_file', ...refusedBody(METHODS[18]!) }, admin),
      'PATCH /automations/:id': await t.api.patch(`/automations/${(await t.api.post('/automations', { automation: 'copy_file' }, admin)).body.id}`, { ...refusedBody(METHODS[19]!) }, admin),
      // Refused before the link is looked for: the parameters alone decide.
      'POST /bundles': await t.api.post('/bundles', { paths: ['anything'], ...refusedBody(METHODS[20]!) }, admin),
      'PATCH /bundles/:id': await t.api.patch('/bundles/1', { ...refusedBody(METHODS[21]!) }, admin),
    };
    for (const m of METHODS.filter((w) => refusedOf(w).length > 0 && !['User'].includes(w.model))) {
      const answer = answers[tableKey(m) as keyof typeof answers];
      expect(answer.status).toBe(400);
      expect(answer.body.type).toBe('bad-request/request-params-invalid');
      expect(Object.keys(answer.body.model_errors).sort()).toEqual([...refusedOf(m)].sort());
    }
    expect((await t.api.get('/site', admin)).body.session_expiry_minutes).not.toBe(61);
    // The one site's id is accepted on a grant; another site's (Files.com's child sites) refused.
    expect((await t.api.post('/permissions', { path: 'anywhere', user_id: userId, permission: 'full', site_id: 1 }, admin)).status).toBe(201);
    const childSite = await t.api.post('/permissions', { path: 'elsewhere', user_id: userId, permission: 'full', site_id: 2 }, admin);
    expect(childSite.status).toBe(400);
    expect(Object.keys(childSite.body.model_errors)).toEqual(['site_id']);
    // The Site's facts (what this server does, always) are read back as they are, and never changed.
    const site = (await t.api.get('/site', admin)).body;
    expect((await t.api.patch('/site', site, admin)).status).toBe(200);
    const fact = await t.api.patch('/site', { dav_enabled: false, calculate_file_checksums_md5: true }, admin);
    expect(fact.status).toBe(400);
    expect(fact.body.model_errors).toEqual({ dav_enabled: ['is fixed on Atrium and cannot be changed'] });
  });

  it('Group membership update: the membership\'s own group_id and user_id are accepted, others refused', async () => {
    const member = (await t.api.post('/group_users', { group_id: groupId, user_id: userId }, admin)).body;
    const same = await t.api.patch(`/group_users/${member.id}`, { group_id: groupId, user_id: userId, admin: true }, admin);
    expect(same.status).toBe(200);
    expect(same.body.admin).toBe(true);
    const moved = await t.api.patch(`/group_users/${member.id}`, { group_id: groupId + 1000, user_id: userId + 1000, admin: false }, admin);
    expect(moved.status).toBe(400);
    expect(moved.body.type).toBe('bad-request/request-params-invalid');
    expect(Object.keys(moved.body.model_errors).sort()).toEqual(['group_id', 'user_id']);
    expect((await t.api.get(`/group_users?group_id=${groupId}`, admin)).body.find((m: { id: number }) => m.id === member.id).admin).toBe(true);
  });

  it('API key update: the key\'s own permission_set is accepted, another refused', async () => {
    const key = (await t.api.post('/api_keys', { name: 'params key', user_id: userId, permission_set: 'files_only' }, admin)).body;
    expect((await t.api.patch(`/api_keys/${key.id}`, { permission_set: 'files_only', name: 'renamed key' }, admin)).body.name).toBe('renamed key');
    const widened = await t.api.patch(`/api_keys/${key.id}`, { permission_set: 'full' }, admin);
    expect(widened.status).toBe(400);
    expect(Object.keys(widened.body.model_errors)).toEqual(['permission_set']);
    expect((await t.api.get(`/api_keys/${key.id}`, admin)).body.permission_set).toBe('files_only');
  });

  /**
   * The other served methods: each request sends some of the method's honoured parameters, with
   * values other than the defaults, and checks what was stored; together they cover every
   * documented parameter the route takes (checked at the end), but the password of a generated SSH
   * key, which the public-key suite checks.
   */
  const covered = new Map<string, Set<string>>();
  const covers = (m: WriteMethod, body: Record<string, unknown>) => {
    const set = covered.get(tableKey(m)) ?? new Set<string>();
    for (const name of Object.keys(body)) set.add(name);
    covered.set(tableKey(m), set);
    return body;
  };
  const method = (model: string, heading: string) => METHODS.find((m) => m.model === model && m.heading.startsWith(heading))!;

  it('the other write methods: each honoured parameter changes what is stored', async () => {
    const otherGroup = (await t.api.post('/groups', { name: unique('params-other') }, admin)).body;
    const groupName = (await t.api.get(`/groups/${otherGroup.id}`, admin)).body.name;
    const username = (await t.api.get(`/users/${userId}`, admin)).body.username;

    const joined = await t.api.post('/group_users', covers(method('GroupUser', 'Create'), { group_id: otherGroup.id, user_id: userId, admin: true }), admin);
    expect(joined.body).toMatchObject({ group_id: otherGroup.id, user_id: userId, admin: true });

    const grant = method('Permission', 'Create');
    await t.api.post('/folders/granted', {}, admin);
    const byIds = await t.api.post('/permissions', covers(grant, { path: 'granted', user_id: userId, permission: 'readonly', recursive: false, site_id: 1 }), admin);
    expect(byIds.body).toMatchObject({ path: 'granted', user_id: userId, permission: 'readonly', recursive: false });
    expect((await t.api.post('/permissions', covers(grant, { path: 'granted', username, permission: 'list' }), admin)).body.user_id).toBe(userId);
    expect((await t.api.post('/permissions', covers(grant, { path: 'granted', group_id: otherGroup.id, permission: 'list' }), admin)).body.group_id).toBe(otherGroup.id);
    expect((await t.api.post('/permissions', covers(grant, { path: 'granted', group_name: groupName, permission: 'full' }), admin)).body).toMatchObject({ group_id: otherGroup.id, permission: 'full' });

    const keyBody = { name: 'every parameter', user_id: userId, description: 'all of them', expires_at: '2099-01-01T00:00:00Z', permission_set: 'files_only' };
    const key = await t.api.post('/api_keys', covers(method('ApiKey', 'Create'), keyBody), admin);
    expect(key.body).toMatchObject({ ...keyBody, key: expect.any(String) });
    const keyChange = { name: 'changed', description: 'changed too', expires_at: '2098-01-01T00:00:00Z', permission_set: 'files_only' };
    expect((await t.api.patch(`/api_keys/${key.body.id}`, covers(method('ApiKey', 'Update API'), keyChange), admin)).body).toMatchObject(keyChange);
    // A files_only key may not manage itself: a full one renames itself. Its user is one no
    // group's address list (set above) confines.
    const keyOwner = (await t.api.post('/users', { username: unique('key-owner') }, admin)).body.id;
    const fullKey = (await t.api.post('/api_keys', { name: 'full', user_id: keyOwner }, admin)).body.key;
    const ownChange = { name: 'its own', expires_at: '2097-01-01T00:00:00Z', permission_set: 'full' };
    expect((await t.api.patch('/api_key', covers(method('ApiKey', 'Update current'), ownChange), { key: fullKey })).body).toMatchObject(ownChange);

    const sshKey = await t.api.post('/public_keys', covers(method('PublicKey', 'Create'), { user_id: userId, title: 'first', generate_keypair: true, generate_algorithm: 'ecdsa', generate_length: 384 }), admin);
    expect(sshKey.status).toBe(201);
    expect(sshKey.body).toMatchObject({ user_id: userId, title: 'first', generated_public_key: expect.stringMatching(/^ecdsa-sha2-nistp384 /) });
    const given = generateOpenSshKeyPairSync('ed25519').public.trim();
    const uploaded = await t.api.post('/public_keys', covers(method('PublicKey', 'Create'), { user_id: userId, title: 'second', public_key: given }), admin);
    expect(uploaded.body).toMatchObject({ title: 'second', fingerprint_sha256: expect.any(String) });
    expect((await t.api.get(`/public_keys/${uploaded.body.id}`, admin)).body.title).toBe('second');
    expect((await t.api.patch(`/public_keys/${sshKey.body.id}`, covers(method('PublicKey', 'Update'), { title: 'renamed' }), admin)).body.title).toBe('renamed');

    const folder = await t.api.post('/folders/deep/new', covers(method('Folder', 'Create'), { mkdir_parents: true, provided_mtime: '2001-02-03T04:05:06Z' }), admin);
    expect(folder.body).toMatchObject({ path: 'deep/new', provided_mtime: '2001-02-03T04:05:06Z' });
    expect((await t.api.post('/folders/nowhere/new', { mkdir_parents: false }, admin)).status).toBe(422);
    const metadata = await t.api.patch('/files/deep/new', covers(method('File', 'Update'), { provided_mtime: '2002-02-03T04:05:06Z', custom_metadata: {}, priority_color: '' }), admin);
    expect(metadata.body.provided_mtime).toBe('2002-02-03T04:05:06Z');
    // Atrium keeps no colours or metadata: empty ones are what it has, any other is refused.
    expect(Object.keys((await t.api.patch('/files/deep/new', { priority_color: 'red', custom_metadata: { a: 'b' } }, admin)).body.model_errors ?? {})).toContain('priority_color');

    const lock = await t.api.post('/locks/deep/new', covers(method('Lock', 'Create'), { exclusive: false, recursive: true, timeout: 1234, allow_access_by_any_user: true }), admin);
    expect(lock.body).toMatchObject({ exclusive: false, recursive: true, timeout: 1234, allow_access_by_any_user: true });

    const site = (await t.api.get('/site', admin)).body;
    const siteChange = covers(method('Site', 'Update'), {
      name: 'Renamed site', session_expiry_minutes: 90, user_lockout: false, user_lockout_tries: 7, user_lockout_within_minutes: 120, user_lockout_lock_period_minutes: 180,
      password_min_length: 14, users_can_create_api_keys: false, allowed_ips: '10.0.0.0/8\n127.0.0.0/8\n::1/128', sharing_enabled: true, bundle_expiration: 36_500,
      bundle_password_required: true, bundle_require_registration: true, revoke_bundle_access_on_disable_or_delete: false, allow_bundle_names: true,
      bundle_not_found_message: 'This link has gone.', require_2fa: false, require_2fa_user_type: 'workspace_admins', allowed_2fa_method_totp: true,
      allowed_2fa_method_webauthn: false, allowed_2fa_method_bypass_for_ftp_sftp_dav: true, ...Object.fromEntries(['sftp_enabled', 'dav_enabled', 'always_mkdir_parents', 'use_provided_modified_at', 'users_can_create_ssh_keys', 'calculate_file_checksums_crc32', 'calculate_file_checksums_md5', 'calculate_file_checksums_sha1', 'calculate_file_checksums_sha256'].map((fact) => [fact, site[fact]])),
    });
    const changedSite = await t.api.patch('/site', siteChange, admin);
    expect(changedSite.status).toBe(200);
    expect(changedSite.body).toMatchObject(siteChange);
    // The hour spellings are the same settings in hours.
    const inHours = covers(method('Site', 'Update'), { session_expiry: 3, user_lockout_within: 4, user_lockout_lock_period: 5 });
    expect((await t.api.patch('/site', inHours, admin)).body).toMatchObject({ session_expiry_minutes: 180, user_lockout_within_minutes: 240, user_lockout_lock_period_minutes: 300 });
    await t.api.patch('/site', { allowed_ips: '', user_lockout: true, allowed_2fa_method_webauthn: true, allowed_2fa_method_bypass_for_ftp_sftp_dav: false }, admin);

    // Every share link field at once, on create and again (each changed) on update, under the
    // site settings just set (codes may be chosen; a password and registration are required).
    await t.api.post('/folders/to-share', {}, admin);
    await t.api.post('/folders/to-share-too', {}, admin);
    await t.api.post('/permissions', { path: 'to-share', user_id: userId, permission: 'admin' }, admin);
    await t.api.post('/permissions', { path: 'to-share-too', user_id: userId, permission: 'admin' }, admin);
    const code = unique('params').replace(/[^A-Za-z0-9_-]/g, '');
    const bundleBody = {
      user_id: userId, paths: ['to-share'], password: 'a link password', dont_separate_submissions_by_folder: true, expires_at: '2099-01-01T00:00:00Z', max_uses: 5,
      description: 'all of them', note: 'internal', code, path_template: '{{name}}', path_template_time_zone: 'UTC', permissions: 'read_write',
      require_registration: true, require_share_recipient: false, skip_email: true, skip_name: true, skip_company: true, start_access_on_date: '2030-01-01T00:00:00Z',
    };
    const withoutPassword = ({ password: _password, ...rest }: Record<string, unknown>) => rest;
    const bundle = await t.api.post('/bundles', covers(method('Bundle', 'Create'), bundleBody), admin);
    expect([bundle.status, bundle.body]).toEqual([201, expect.objectContaining({ ...withoutPassword(bundleBody), password_protected: true })]);
    const bundleChange = {
      paths: ['to-share-too'], password: 'another link password', code: `${code}-2`, description: 'changed', dont_separate_submissions_by_folder: false,
      expires_at: '2098-01-01T00:00:00Z', max_uses: 6, note: 'changed too', path_template: '{{email}}', path_template_time_zone: 'Eastern Time (US & Canada)',
      permissions: 'read', require_registration: true, require_share_recipient: false, skip_company: false, start_access_on_date: '2031-01-01T00:00:00Z',
      skip_email: false, skip_name: false,
    };
    const changedBundle = await t.api.patch(`/bundles/${bundle.body.id}`, covers(method('Bundle', 'Update'), bundleChange), admin);
    expect(changedBundle.body).toMatchObject(withoutPassword(bundleChange));
    const row = await t.database.db.selectFrom('bundles').select('password_hash').where('id', '=', bundle.body.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    await t.api.patch('/site', { bundle_expiration: null, bundle_password_required: false, bundle_require_registration: false, allow_bundle_names: false }, admin);

    const password = 'a password for the session test';
    const signer = (await t.api.post('/users', { username: unique('signer'), password }, admin)).body;
    // otp and partial_session_id answer a two-factor challenge (test/identity/two-factor.test.ts); empty, with a password, they are no answer.
    expect((await t.api.post('/sessions', covers(method('Session', 'Create'), { username: signer.username, password, otp: '', partial_session_id: '' }))).status).toBe(201);
    expect((await t.api.post('/sessions', { username: signer.username, password: 'not it at all' })).status).toBe(401);

    // begin_upload: parts and part shape the offer, mkdir_parents and size are obeyed, restart and
    // with_rename are taken at their only honest values (0, false) and refused otherwise.
    const upload = method('File', 'Begin');
    const begun = await t.api.post('/file_actions/begin_upload/deep/up.bin', covers(upload, { parts: 3, mkdir_parents: true, size: 10, restart: 0, with_rename: false }), admin);
    expect(begun.body.map((p: { part_number: number }) => p.part_number)).toEqual([1, 2, 3]);
    const later = await t.api.post('/file_actions/begin_upload/deep/up.bin', covers(upload, { ref: begun.body[0].ref, part: 2 }), admin);
    expect(later.body[0]).toMatchObject({ ref: begun.body[0].ref, part_number: 2 });
    expect((await t.api.post('/file_actions/begin_upload/absent/up.bin', { mkdir_parents: false }, admin)).status).toBeGreaterThanOrEqual(400);
    expect((await t.api.post('/file_actions/begin_upload/deep/huge.bin', { size: 10 ** 15 }, admin)).status).toBeGreaterThanOrEqual(400);
    const neither = await t.api.post('/file_actions/begin_upload/deep/up.bin', { restart: 5, with_rename: true }, admin);
    expect(neither.status).toBe(400);
    expect(Object.keys(neither.body.model_errors)).toEqual(expect.arrayContaining([expect.stringMatching(/^(restart|with_rename)$/)]));

    // Every automation field at once, on create and again (each changed) on update.
    const automationBody = {
      automation: 'copy_file', name: 'every field', description: 'all of them', source: '*.csv', destinations: ['out/'], destination_replace_from: 'a',
      destination_replace_to: 'b', interval: 'week', recurring_day: 3, path: 'in', user_ids: String(userId), group_ids: String(groupId),
      schedule_days_of_week: [1], schedule_times_of_day: ['06:30'], schedule_time_zone: 'UTC', always_overwrite_size_matching_files: true, disabled: true,
      exclude_pattern: '*.tmp', import_urls: [{ url: 'https://example.com/x', method: 'get', headers: {} }], flatten_destination_structure: true,
      ignore_locked_folders: true, overwrite_files: true, path_time_zone: 'UTC', retry_on_failure_interval_in_minutes: 10,
      retry_on_failure_number_of_attempts: 2, trigger: 'daily', trigger_actions: ['create'], value: { limit: '1' },
    };
    const asStored = (body: Record<string, unknown>) => ({ ...body, user_ids: [userId], group_ids: [groupId] });
    const automation = await t.api.post('/automations', covers(method('Automation', 'Create'), automationBody), admin);
    expect([automation.status, automation.body]).toEqual([201, expect.objectContaining(asStored(automationBody))]);
    const automationChange = {
      automation: 'move_file', name: 'changed', description: 'changed too', source: '*.txt', destinations: ['elsewhere/'], destination_replace_from: 'c',
      destination_replace_to: 'd', interval: 'month', recurring_day: 4, path: 'other', user_ids: '', group_ids: '', schedule_days_of_week: [2],
      schedule_times_of_day: ['07:45'], schedule_time_zone: 'Eastern Time (US & Canada)', always_overwrite_size_matching_files: false, disabled: false,
      exclude_pattern: '*.bak', import_urls: [], flatten_destination_structure: false, ignore_locked_folders: false, overwrite_files: false,
      path_time_zone: 'Pacific Time (US & Canada)', retry_on_failure_interval_in_minutes: 20, retry_on_failure_number_of_attempts: 3,
      trigger: 'custom_schedule', trigger_actions: ['update'], value: { limit: '2' },
    };
    const changedAutomation = await t.api.patch(`/automations/${automation.body.id}`, covers(method('Automation', 'Update'), automationChange), admin);
    expect(changedAutomation.body).toMatchObject({ ...automationChange, user_ids: [], group_ids: [] });

    const generation = ['generate_private_key_password'];
    for (const m of METHODS.filter((w) => !['User', 'Group'].includes(w.model) && w.heading !== 'Update Group User')) {
      const missing = honouredOf(m).filter((name) => !covered.get(tableKey(m))?.has(name) && !(m.model === 'PublicKey' && generation.includes(name)));
      expect({ [tableKey(m)]: missing }).toEqual({ [tableKey(m)]: [] });
    }
  });

  it('the SDK\'s save() after a find sends every attribute back, and works (User, Group, GroupUser, ApiKey)', async () => {
    const user = await model('User').find(userId);
    user.attributes.name = 'Saved by the SDK';
    await user.save();
    expect((await t.api.get(`/users/${userId}`, admin)).body.name).toBe('Saved by the SDK');

    const group = await model('Group').find(groupId);
    group.attributes.notes = 'saved notes';
    await group.save();
    expect((await t.api.get(`/groups/${groupId}`, admin)).body.notes).toBe('saved notes');

    const [membership] = await model('GroupUser').list({ group_id: groupId });
    membership.attributes.admin = false;
    await membership.save();
    expect((await t.api.get(`/group_users?group_id=${groupId}`, admin)).body[0].admin).toBe(false);

    const created = await model('ApiKey').create({ name: 'sdk saved', user_id: userId });
    const key = await model('ApiKey').find(created.attributes.id);
    key.attributes.description = 'saved description';
    await key.save();
    expect((await t.api.get(`/api_keys/${created.attributes.id}`, admin)).body.description).toBe('saved description');
  });
});
