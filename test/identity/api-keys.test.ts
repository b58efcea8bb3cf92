import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../src/identity/index.js';
import { createKey } from '../../src/identity/index.js';
import { AtriumError } from '../../src/errors/atrium-error.js';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createApiKey, createGroup, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const PASSWORD = 'a perfectly good passphrase';
const KEY_FIELDS = ['created_at', 'description', 'descriptive_label', 'expires_at', 'id', 'last_use_at', 'name', 'permission_set', 'user_id', 'workspace_id'];

describe.each(testDatabaseTargets())('API keys [$name]', (target) => {
  let t: TestApp;
  let ws1: number;
  let ws2: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    ws1 = await createWorkspace(t.database.db);
    ws2 = await createWorkspace(t.database.db);
  });
  afterAll(() => t.close());

  const keyOf = async (fields: Parameters<typeof createUser>[1] = {}) => {
    const user = await createUser(t.database.db, fields);
    return { user, key: await createApiKey(t.database.db, { userId: user.id, workspaceId: fields.workspaceId ?? 0 }) };
  };
  const create = (key: string, body: Record<string, unknown>, workspace?: number) =>
    t.api.post('/api_keys', body, { key, ...(workspace === undefined ? {} : { workspace }) });

  it('creates a key for the caller: 201, the atr_ secret once, only its hash stored, and it works', async () => {
    const { user, key } = await keyOf();
    const response = await create(key, { name: 'deploy' });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual([...KEY_FIELDS, 'key'].sort());
    expect(response.body).toMatchObject({
      name: 'deploy', user_id: user.id, permission_set: 'full', workspace_id: 0,
      created_at: '2026-01-01T00:00:00Z', expires_at: null, last_use_at: null,
    });
    expect(response.body.key).toMatch(/^atr_[A-Za-z0-9_-]{43}$/);

    const row = await t.database.db.selectFrom('api_keys').selectAll().where('id', '=', response.body.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(response.body.key);
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);

    const used = await t.api.get('/api_key', { key: response.body.key });
    expect(used.status).toBe(200);
    expect(used.body.id).toBe(response.body.id);
    expect(used.body.key).toBeUndefined();
    expect(used.body.last_use_at).toBe('2026-01-01T00:00:00Z');
    const shown = await t.api.get(`/api_keys/${response.body.id}`, { key });
    expect(Object.keys(shown.body).sort()).toEqual(KEY_FIELDS);
  });

  it('takes user_id 0 and the caller own id as the caller, and ignores unknown fields', async () => {
    const { user, key } = await keyOf();
    for (const userId of [0, user.id]) {
      const response = await create(key, { name: 'k', user_id: userId, id: 99, key: 'atr_mine' });
      expect(response.status).toBe(201);
      expect(response.body.user_id).toBe(user.id);
      expect(response.body.key).not.toBe('atr_mine');
    }
  });

  it('validates the body: name required, permission_set and expires_at checked', async () => {
    const { key } = await keyOf();
    const noName = await create(key, {});
    expect(noName.status).toBe(400);
    expect(noName.body.type).toBe('bad-request/request-params-required');
    for (const body of [
      { name: 'k', permission_set: 'desktop_app' },
      { name: 'k', expires_at: 'tomorrow' },
      { name: 'k', expires_at: '2026-02-30T00:00:00Z' },
      { name: 'k', expires_at: '2026-01-02T03:04:05' },
      { name: 'k', expires_at: '2025-12-31T23:59:59Z' },
      { name: 'k', expires_at: 12 },
      { name: 'k', user_id: -1 },
      { name: 'k', user_id: 'abc' },
      { name: '' },
    ]) {
      const response = await create(key, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.type, JSON.stringify(body)).toBe('bad-request/request-params-invalid');
    }
    const past = await create(key, { name: 'k', expires_at: '2025-12-31T23:59:59Z' });
    expect(past.body.model_errors).toEqual({ expires_at: ['must be in the future'] });
  });

  it('creates an expiring key that stops at expires_at (invalid-credentials)', async () => {
    const { key } = await keyOf();
    const response = await create(key, { name: 'short', expires_at: '2026-01-01T01:00:00+01:00' });
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    const ok = await create(key, { name: 'short', expires_at: '2026-01-01T02:00:00+01:00' });
    expect(ok.status).toBe(201);
    expect(ok.body.expires_at).toBe('2026-01-01T01:00:00Z');
    const secret = ok.body.key;
    const before = t.clock.now();
    try {
      t.clock.advanceMinutes(59);
      expect((await t.api.get('/api_key', { key: secret })).status).toBe(200);
      t.clock.advanceMinutes(1);
      const expired = await t.api.get('/api_key', { key: secret });
      expect(expired.status).toBe(401);
      expect(expired.body.type).toBe('not-authenticated/invalid-credentials');
      // Still listed, so its owner can see and delete it.
      const listed = await t.api.get('/api_keys', { key });
      expect(listed.body.map((k: any) => k.id)).toContain(ok.body.id);
    } finally {
      t.clock.advance(before - t.clock.now());
    }
  });

  it('revokes a key with DELETE /api_keys/<id>: 204 with no body or JSON type, the key stops at once', async () => {
    const { key } = await keyOf();
    const made = await create(key, { name: 'to revoke' });
    // The JS SDK repeats the id in a JSON body on DELETE.
    const response = await t.api.delete(`/api_keys/${made.body.id}`, { key, body: { id: made.body.id } });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(response.headers.get('content-type')).toBeNull();
    const after = await t.api.get('/workspaces', { key: made.body.key });
    expect(after.status).toBe(401);
    expect(after.body.type).toBe('not-authenticated/invalid-credentials');
    expect(await t.database.db.selectFrom('api_keys').select('id').where('id', '=', made.body.id).executeTakeFirst()).toBeUndefined();
    expect((await t.api.delete(`/api_keys/${made.body.id}.json`, { key })).body.type).toBe('not-found/api-key-not-found');
  });

  it('shows, renames and revokes the calling key through /api_key', async () => {
    const { key } = await keyOf();
    const made = await create(key, { name: 'self' });
    const secret = made.body.key;
    const shown = await t.api.get('/api_key', { key: secret });
    expect(shown.body).toMatchObject({ id: made.body.id, name: 'self' });
    const patched = await t.api.patch('/api_key', { name: 'renamed', expires_at: '2027-01-01T00:00:00Z', permission_set: 'full', user_id: 1 }, { key: secret });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'renamed', expires_at: '2027-01-01T00:00:00Z', permission_set: 'full', user_id: made.body.user_id });
    const put = await t.api.put('/api_key', { expires_at: null }, { key: secret });
    expect(put.body).toMatchObject({ name: 'renamed', expires_at: null });
    const deleted = await t.api.delete('/api_key', { key: secret });
    expect(deleted.status).toBe(204);
    expect((await t.api.get('/api_key', { key: secret })).body.type).toBe('not-authenticated/invalid-credentials');
  });

  it('answers /api_key under a session as not-found (a session has no calling key)', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const session = (await t.api.post('/sessions', { username: user.username, password: PASSWORD })).body.id;
    const response = await t.api.get('/api_key', { session });
    expect(response.status).toBe(404);
    expect(response.body.type).toBe('not-found/api-key-not-found');
  });

  it('keeps a description given on creation or update, bounded, recorded in History, and labels the key', async () => {
    const { user, key } = await keyOf();
    const made = await create(key, { name: 'deploy', description: 'CI deploys to staging' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ description: 'CI deploys to staging', descriptive_label: `API key "deploy" of user #${user.id} (key ID #${made.body.id})` });
    const plain = await create(key, { name: 'plain' });
    expect(plain.body.description).toBe('');

    const patched = await t.api.patch(`/api_keys/${made.body.id}`, { description: 'CI deploys to production' }, { key });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'deploy', description: 'CI deploys to production' });
    const row = await t.database.db.selectFrom('api_keys').select('description').where('id', '=', made.body.id).executeTakeFirstOrThrow();
    expect(row.description).toBe('CI deploys to production');
    expect((await t.api.get(`/api_keys/${made.body.id}`, { key })).body.description).toBe('CI deploys to production');
    const records = (await t.api.get('/history?filter[action]=api_key_update', { key: BOOTSTRAP_KEY })).body
      .filter((record: any) => record.targets?.id === made.body.id);
    expect(records.map((record: any) => [record.targets.before.description, record.targets.after.description])).toEqual([['CI deploys to staging', 'CI deploys to production']]);
    // The calling key changes its own description through /api_key.
    expect((await t.api.patch('/api_key', { description: 'mine' }, { key: made.body.key })).body.description).toBe('mine');

    for (const body of [{ description: 'x'.repeat(1025) }, { description: 5 }]) {
      const refused = await t.api.patch(`/api_keys/${made.body.id}`, body, { key });
      expect([refused.status, refused.body.type]).toEqual([400, 'bad-request/request-params-invalid']);
      expect(refused.body.error).toContain('description');
    }
    const tooLong = await create(key, { name: 'long', description: 'x'.repeat(1025) });
    expect([tooLong.status, tooLong.body.type]).toEqual([400, 'bad-request/request-params-invalid']);

    // History keeps the key's expiry as every date is shown: whole seconds.
    const expiring = await create(key, { name: 'expiring', expires_at: '2026-06-01' });
    const created = (await t.api.get('/history?filter[action]=api_key_create', { key: BOOTSTRAP_KEY })).body.find((record: any) => record.targets?.id === expiring.body.id);
    expect(created.targets.expires_at).toBe('2026-06-01T00:00:00Z');

    const siteWide = await create(BOOTSTRAP_KEY, { name: 'backup', user_id: null });
    expect(siteWide.body.descriptive_label).toBe(`Site-wide API key "backup" (key ID #${siteWide.body.id})`);
  });

  it('updates a key by id with PATCH and PUT alike; an empty expires_at clears the expiry', async () => {
    const { key } = await keyOf();
    const made = await create(key, { name: 'a', expires_at: '2026-06-01' });
    expect(made.body.expires_at).toBe('2026-06-01T00:00:00Z');
    const patched = await t.api.patch(`/api_keys/${made.body.id}`, { name: 'b' }, { key });
    expect(patched.body).toMatchObject({ name: 'b', expires_at: '2026-06-01T00:00:00Z' });
    const put = await t.api.put(`/api_keys/${made.body.id}`, { expires_at: '' }, { key });
    expect(put.body).toMatchObject({ name: 'b', expires_at: null });
    const bad = await t.api.patch(`/api_keys/${made.body.id}`, { expires_at: '2020-01-01' }, { key });
    expect(bad.body.type).toBe('bad-request/request-params-invalid');
  });

  it('lists own keys only for a regular user; other users keys are not found, never forbidden', async () => {
    const alice = await keyOf();
    const bob = await keyOf();
    const listed = await t.api.get('/api_keys', { key: alice.key });
    expect(listed.status).toBe(200);
    expect(listed.body.map((k: any) => k.user_id)).toEqual([alice.user.id]);
    expect((await t.api.get('/api_keys?user_id=0', { key: alice.key })).body).toEqual(listed.body);

    const bobKeyId = (await t.api.get('/api_keys', { key: bob.key })).body[0].id;
    for (const [method, path] of [['GET', `/api_keys/${bobKeyId}`], ['DELETE', `/api_keys/${bobKeyId}`], ['PATCH', `/api_keys/${bobKeyId}`], ['GET', '/api_keys/987654']]) {
      const response = await t.api.call(method as string, path as string, { key: alice.key, ...(method === 'GET' ? {} : { body: {} }) });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.type).toBe('not-found/api-key-not-found');
    }
    const filtered = await t.api.get(`/api_keys?user_id=${bob.user.id}`, { key: alice.key });
    expect(filtered.status).toBe(404);
    expect(filtered.body.type).toBe('not-found/user-not-found');
    const forBob = await create(alice.key, { name: 'for bob', user_id: bob.user.id });
    expect(forBob.status).toBe(404);
    expect(forBob.body.type).toBe('not-found/user-not-found');
  });

  it('lets a Site Administrator list, create for and revoke the keys of any user', async () => {
    const admin = await keyOf({ siteAdmin: true });
    const alice = await keyOf();
    const custom = await keyOf({ workspaceId: ws1 });
    const all = await t.api.get('/api_keys', { key: admin.key });
    const owners = all.body.map((k: any) => k.user_id);
    expect(owners).toEqual(expect.arrayContaining([null, admin.user.id, alice.user.id, custom.user.id]));

    const forAlice = await create(admin.key, { name: 'made for alice', user_id: alice.user.id });
    expect(forAlice.status).toBe(201);
    expect(forAlice.body).toMatchObject({ user_id: alice.user.id, workspace_id: 0 });
    // A key of a Custom Workspace user belongs to that Workspace.
    const forCustom = await create(admin.key, { name: 'made for custom', user_id: custom.user.id });
    expect(forCustom.body).toMatchObject({ user_id: custom.user.id, workspace_id: ws1 });
    const aliceKeys = await t.api.get(`/api_keys?user_id=${alice.user.id}`, { key: admin.key });
    expect(aliceKeys.body.map((k: any) => k.user_id)).toEqual([alice.user.id, alice.user.id]);
    expect((await t.api.delete(`/api_keys/${forAlice.body.id}`, { key: admin.key })).status).toBe(204);
    expect((await create(admin.key, { name: 'x', user_id: 987654 })).body.type).toBe('not-found/user-not-found');
  });

  it('creates site-wide keys only for a Site Administrator, always full and in Workspace 0', async () => {
    const siteWide = await create(BOOTSTRAP_KEY, { name: 'ci' });
    expect(siteWide.status).toBe(201);
    expect(siteWide.body).toMatchObject({ user_id: null, permission_set: 'full', workspace_id: 0 });
    // A site-wide key has Site Administrator authority.
    expect((await t.api.get('/site', { key: siteWide.body.key })).status).toBe(200);

    const admin = await keyOf({ siteAdmin: true });
    const byAdmin = await create(admin.key, { name: 'site-wide by admin', user_id: null });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.user_id).toBeNull();
    const filesOnly = await create(admin.key, { name: 'x', user_id: null, permission_set: 'files_only' });
    expect(filesOnly.status).toBe(400);
    expect(filesOnly.body.type).toBe('bad-request/request-params-invalid');
    const inCustom = await create(BOOTSTRAP_KEY, { name: 'x' }, ws1);
    expect(inCustom.status).toBe(403);
    expect(inCustom.body.type).toBe('not-authorized/insufficient-permission-for-params');

    const regular = await keyOf();
    const refused = await create(regular.key, { name: 'x', user_id: null });
    expect(refused.status).toBe(403);
    expect(refused.body.type).toBe('not-authorized/site-admin-required');
    const siteWideList = await t.api.get('/api_keys', { key: regular.key });
    expect(siteWideList.body.every((k: any) => k.user_id === regular.user.id)).toBe(true);
  });

  it('records the request context as the creation Workspace, and refuses a mismatching workspace_id', async () => {
    const user = await createUser(t.database.db);
    const key = await createApiKey(t.database.db, { userId: user.id, workspaceId: 0 });
    const inWs1 = await create(key, { name: 'in ws1' }, ws1);
    expect(inWs1.status).toBe(201);
    expect(inWs1.body.workspace_id).toBe(ws1);
    // A key made in a Custom Workspace is confined to it.
    expect((await t.api.get('/workspaces', { key: inWs1.body.key, workspace: 0 })).body.type).toBe('bad-request/invalid-workspace-id-header');

    const mismatch = await create(key, { name: 'x', workspace_id: ws2 }, ws1);
    expect(mismatch.status).toBe(403);
    expect(mismatch.body.type).toBe('not-authorized/insufficient-permission-for-params');
    const notAdmin = await create(key, { name: 'x', workspace_id: ws1 });
    expect(notAdmin.body.type).toBe('not-authorized/insufficient-permission-for-params');
    const same = await create(key, { name: 'x', workspace_id: ws1 }, ws1);
    expect(same.status).toBe(201);

    // In context 0 a Site Administrator may name another Workspace (contract 4.2).
    const named = await create(BOOTSTRAP_KEY, { name: 'x', user_id: user.id, workspace_id: ws2 });
    expect(named.status).toBe(201);
    expect(named.body.workspace_id).toBe(ws2);

    // Listing in a context shows the keys created there.
    const inContext = await t.api.get('/api_keys', { key, workspace: ws1 });
    expect(inContext.body.map((k: any) => k.workspace_id)).toEqual([ws1, ws1]);
    const home = await t.api.get('/api_keys', { key });
    expect(home.body.map((k: any) => k.workspace_id)).toEqual([0]);
  });

  it('lets a Workspace Administrator manage the keys of its Workspace users only', async () => {
    const admin = await keyOf({ workspaceId: ws1, workspaceAdmin: true });
    const member = await keyOf({ workspaceId: ws1 });
    const outsider = await keyOf({ workspaceId: ws2 });
    const listed = await t.api.get('/api_keys', { key: admin.key });
    const owners = new Set(listed.body.map((k: any) => k.user_id));
    expect(owners.has(member.user.id)).toBe(true);
    expect(owners.has(outsider.user.id)).toBe(false);
    expect(owners.has(null)).toBe(false);

    const forMember = await create(admin.key, { name: 'for member', user_id: member.user.id });
    expect(forMember.status).toBe(201);
    expect(forMember.body.workspace_id).toBe(ws1);
    expect((await create(admin.key, { name: 'x', user_id: outsider.user.id })).body.type).toBe('not-found/user-not-found');
    const outsiderKeyId = (await t.api.get('/api_key', { key: outsider.key })).body.id;
    expect((await t.api.get(`/api_keys/${outsiderKeyId}`, { key: admin.key })).body.type).toBe('not-found/api-key-not-found');
    expect((await t.api.delete(`/api_keys/${forMember.body.id}`, { key: admin.key })).status).toBe(204);
  });

  it('makes files_only keys: confined to file operations, but able to show and revoke themselves', async () => {
    const { key } = await keyOf();
    const made = await create(key, { name: 'files', permission_set: 'files_only' });
    expect(made.status).toBe(201);
    expect(made.body.permission_set).toBe('files_only');
    const filesOnly = made.body.key;
    expect((await t.api.get('/workspaces', { key: filesOnly })).status).toBe(200);
    for (const [method, path] of [['GET', '/api_keys'], ['POST', '/api_keys'], ['PATCH', '/api_key'], ['GET', '/site']]) {
      const response = await t.api.call(method as string, path as string, { key: filesOnly, body: method === 'GET' ? undefined : { name: 'x', permission_set: 'files_only' } });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.type).toBe('not-authorized/api-key-is-files-only');
    }
    expect((await t.api.get('/api_key', { key: filesOnly })).body.permission_set).toBe('files_only');
    expect((await t.api.delete('/api_key', { key: filesOnly })).status).toBe(204);
    expect((await t.api.get('/api_key', { key: filesOnly })).status).toBe(401);
  });

  it('never lets a files_only caller create a full key (the service rule behind the route guard)', async () => {
    const user = await createUser(t.database.db);
    const secret = await createApiKey(t.database.db, { userId: user.id, permissionSet: 'files_only' });
    const caller = await authenticate(t.database.db, t.clock, { sessionId: undefined, apiKey: secret });
    const callOf = { db: t.database.db, caller, requestWorkspaceId: 0, now: t.clock.now(), origin: { interface: 'restapi' as const, ip: '127.0.0.1' } };
    const attempt = createKey(callOf, { name: 'x', userId: undefined, permissionSet: 'full', expiresAt: undefined, workspaceId: undefined }, async () => undefined);
    await expect(attempt).rejects.toBeInstanceOf(AtriumError);
    await expect(attempt).rejects.toMatchObject({ type: 'not-authorized/insufficient-permission-for-params' });
    const defaulted = createKey(callOf, { name: 'x', userId: undefined, permissionSet: undefined, expiresAt: undefined, workspaceId: undefined }, async () => undefined);
    await expect(defaulted).rejects.toMatchObject({ type: 'not-authorized/insufficient-permission-for-params' });
  });

  it('follows users_can_create_api_keys: off stops non-administrators creating their own keys', async () => {
    const regular = await keyOf();
    const admin = await keyOf({ siteAdmin: true });
    const wsAdmin = await keyOf({ workspaceId: ws2, workspaceAdmin: true });
    expect((await t.api.patch('/site', { users_can_create_api_keys: false }, { key: BOOTSTRAP_KEY })).status).toBe(200);
    try {
      const refused = await create(regular.key, { name: 'x' });
      expect(refused.status).toBe(403);
      expect(refused.body.type).toBe('not-authorized/site-admin-or-workspace-admin-permission-required');
      expect(refused.body.error).toContain('users_can_create_api_keys');
      expect((await create(admin.key, { name: 'x' })).status).toBe(201);
      expect((await create(wsAdmin.key, { name: 'x' })).status).toBe(201);
      expect((await create(admin.key, { name: 'for regular', user_id: regular.user.id })).status).toBe(201);
    } finally {
      await t.api.patch('/site', { users_can_create_api_keys: true }, { key: BOOTSTRAP_KEY });
    }
    expect((await create(regular.key, { name: 'x' })).status).toBe(201);
  });

  it("follows its user's current access: a group membership removed is access removed, with no change to the key", async () => {
    const ws = await createWorkspace(t.database.db);
    const user = await createUser(t.database.db);
    const group = await createGroup(t.database.db);
    await addMember(t.database.db, group, user.id);
    await t.database.db.insertInto('permissions').values({
      workspace_id: ws, path: `_/Workspaces/${ws}/Reports`, path_key: `_/workspaces/${ws}/reports`,
      user_id: null, group_id: group, permission: 'readonly', recursive: true, created_at: t.clock.now(),
    }).execute();
    const key = await createApiKey(t.database.db, { userId: user.id });
    const keyRow = await t.database.db.selectFrom('api_keys').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();

    const before = await t.api.get('/workspaces', { key });
    expect(before.body.map((w: any) => w.id)).toEqual([0, ws]);
    await t.database.db.deleteFrom('group_users').where('group_id', '=', group).where('user_id', '=', user.id).execute();
    const after = await t.api.get('/workspaces', { key });
    expect(after.status).toBe(200);
    expect(after.body.map((w: any) => w.id)).toEqual([0]);
    const { last_use_at: _a, ...keyBefore } = keyRow;
    const { last_use_at: _b, ...keyAfter } = await t.database.db.selectFrom('api_keys').selectAll().where('id', '=', keyRow.id).executeTakeFirstOrThrow();
    expect(keyAfter).toEqual(keyBefore);
  });

  it('pages the listing by id with the cursor header', async () => {
    const { key } = await keyOf();
    for (const name of ['p1', 'p2']) await create(key, { name });
    const first = await t.api.get('/api_keys?per_page=2', { key });
    expect(first.body).toHaveLength(2);
    const cursor = first.headers.get('x-service-cursor');
    expect(cursor).toBeTruthy();
    const second = await t.api.get(`/api_keys?per_page=2&cursor=${encodeURIComponent(cursor as string)}`, { key });
    expect(second.body).toHaveLength(1);
    expect(second.headers.get('x-service-cursor')).toBeNull();
    expect(second.body[0].id).toBeGreaterThan(first.body[1].id);
  });
});
