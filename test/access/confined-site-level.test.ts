import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createGroup, createUser, createWorkspace, unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Contract 4.3: a credential confined to its home Workspace acts only there, also when the request
 * selects no Workspace. Site-level writes answer `not-authorized/site-admin-required` to it even
 * when its user is a Site Administrator; what it does inside its home works as before.
 */
describe.each(testDatabaseTargets())('a confined Site Administrator credential stays in its Workspace [$name]', (target) => {
  let t: TestApp;
  let home: number;
  let siteAdminId: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    home = await createWorkspace(t.database.db);
    siteAdminId = (await createUser(t.database.db, { siteAdmin: true })).id;
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const confinedKeys = async () => ({
    'a Site Administrator\'s key made in a Custom Workspace': await createApiKey(db(), { userId: siteAdminId, workspaceId: home }),
    'a site-wide key made in a Custom Workspace': await createApiKey(db(), { userId: null, workspaceId: home }),
  });
  const expectSiteAdminRequired = (response: { status: number; body: any }, what: string) => {
    expect({ status: response.status, type: response.body?.type }, `${what}: ${JSON.stringify(response.body)}`).toEqual({ status: 403, type: 'not-authorized/site-admin-required' });
  };

  it('refuses site settings, Workspaces and Site Administrators, and changes nothing', async () => {
    const before = (await t.api.get('/site', { key: BOOTSTRAP_KEY })).body;
    const workspacesBefore = await db().selectFrom('workspaces').select('id').execute();
    for (const [kind, key] of Object.entries(await confinedKeys())) {
      expectSiteAdminRequired(await t.api.patch('/site', { user_lockout_tries: 999 }, { key }), `${kind}: PATCH /site`);
      expectSiteAdminRequired(await t.api.put('/site', { user_lockout_tries: 999 }, { key }), `${kind}: PUT /site`);
      expectSiteAdminRequired(await t.api.get('/site', { key }), `${kind}: GET /site`);
      expectSiteAdminRequired(await t.api.post('/workspaces', { name: unique('ws') }, { key }), `${kind}: POST /workspaces`);
      expectSiteAdminRequired(await t.api.patch(`/workspaces/${home}`, { name: unique('renamed') }, { key }), `${kind}: PATCH /workspaces`);
      expectSiteAdminRequired(await t.api.delete(`/workspaces/${home}`, { key }), `${kind}: DELETE /workspaces`);
      expectSiteAdminRequired(await t.api.post('/api_keys', { name: unique('site-wide'), user_id: null }, { key }), `${kind}: a site-wide key`);
    }
    expect((await t.api.get('/site', { key: BOOTSTRAP_KEY })).body).toEqual(before);
    expect(await db().selectFrom('workspaces').select('id').execute()).toEqual(workspacesBefore);
  });

  it('refuses what reaches across Workspaces: Workspace 0 grantees, members and key owners', async () => {
    const outsider = await createUser(db());
    const homeGroup = await createGroup(db(), { workspaceId: home });
    for (const [kind, key] of Object.entries(await confinedKeys())) {
      expectSiteAdminRequired(await t.api.post('/permissions', { path: 'Docs', user_id: outsider.id, permission: 'admin' }, { key }), `${kind}: a grant to a Workspace 0 user`);
      expectSiteAdminRequired(await t.api.post('/group_users', { group_id: homeGroup, user_id: outsider.id }, { key }), `${kind}: a Workspace 0 member`);
      expectSiteAdminRequired(await t.api.post('/api_keys', { name: unique('k'), user_id: outsider.id }, { key }), `${kind}: a key for a Workspace 0 user`);
      expectSiteAdminRequired(await t.api.post('/public_keys', { title: unique('ssh'), user_id: outsider.id, generate_keypair: true }, { key }), `${kind}: an SSH key for a Workspace 0 user`);
    }
    expect(await db().selectFrom('permissions').select('id').where('user_id', '=', outsider.id).execute()).toEqual([]);
    expect(await db().selectFrom('group_users').select('id').where('user_id', '=', outsider.id).execute()).toEqual([]);
  });

  it('refuses to delete a grant that reaches across Workspaces, in its home too, as creating it would be refused', async () => {
    const outsider = await createUser(db());
    const crossing = await t.api.post('/permissions', { path: `_/Workspaces/${home}/Docs`, user_id: outsider.id, permission: 'full' }, { key: BOOTSTRAP_KEY });
    expect(crossing.status).toBe(201);
    for (const [kind, key] of Object.entries(await confinedKeys())) {
      expectSiteAdminRequired(await t.api.delete(`/permissions/${crossing.body.id}`, { key }), `${kind}: deleting a Workspace 0 user's grant`);
    }
    expect(await db().selectFrom('permissions').select('id').where('id', '=', crossing.body.id).execute()).toHaveLength(1);
  });

  it('refuses a confined credential an SSH key for its own Default Workspace account, which would sign in beyond its home', async () => {
    const key = await createApiKey(db(), { userId: siteAdminId, workspaceId: home });
    const response = await t.api.post('/public_keys', { title: unique('ssh'), generate_keypair: true }, { key });
    expect({ status: response.status, type: response.body?.type }).toEqual({ status: 403, type: 'not-authorized/insufficient-permission-for-params' });
    expect(await db().selectFrom('public_keys').select('id').where('user_id', '=', siteAdminId).execute()).toEqual([]);
  });

  it('sees and revokes the API keys of its home\'s users only, as its home\'s administrators do', async () => {
    const outsider = await createUser(db());
    const member = await createUser(db(), { workspaceId: home });
    const outsidersKey = await t.api.post('/api_keys', { name: unique('k'), user_id: outsider.id }, { key: BOOTSTRAP_KEY, workspace: home });
    const membersKey = await t.api.post('/api_keys', { name: unique('k'), user_id: member.id }, { key: BOOTSTRAP_KEY, workspace: home });
    expect([outsidersKey.status, membersKey.status]).toEqual([201, 201]);
    const key = await createApiKey(db(), { userId: siteAdminId, workspaceId: home });
    const listed = (await t.api.get('/api_keys', { key })).body.map((row: any) => row.id);
    expect(listed).toContain(membersKey.body.id);
    expect(listed).not.toContain(outsidersKey.body.id);
    const revoke = await t.api.delete(`/api_keys/${outsidersKey.body.id}`, { key });
    expect({ status: revoke.status, type: revoke.body?.type }).toEqual({ status: 404, type: 'not-found/api-key-not-found' });
    expect(await db().selectFrom('api_keys').select('id').where('id', '=', outsidersKey.body.id).execute()).toHaveLength(1);
  });

  it('refuses making a Site Administrator, and still administers its home', async () => {
    for (const [kind, key] of Object.entries(await confinedKeys())) {
      const made = await t.api.post('/users', { username: unique('admin'), site_admin: true, workspace_id: home }, { key });
      expectSiteAdminRequired(made, `${kind}: site_admin on a new user`);
      const user = await t.api.post('/users', { username: unique('member') }, { key });
      expect(user.status, JSON.stringify(user.body)).toBe(201);
      expect(user.body.workspace_id).toBe(home);
      const grant = await t.api.post('/permissions', { path: 'Docs', user_id: user.body.id, permission: 'admin' }, { key });
      expect(grant.status, JSON.stringify(grant.body)).toBe(201);
      expect((await t.api.delete(`/permissions/${grant.body.id}`, { key })).status).toBe(204);
      const userKey = await t.api.post('/api_keys', { name: unique('k'), user_id: user.body.id }, { key });
      expect(userKey.status, JSON.stringify(userKey.body)).toBe(201);
      expect((await t.api.get('/users', { key })).body.every((listed: any) => listed.workspace_id === home)).toBe(true);
    }
  });

  it('the same key made in Workspace 0 still acts at the site level', async () => {
    const key = await createApiKey(db(), { userId: siteAdminId, workspaceId: 0 });
    const created = await t.api.post('/workspaces', { name: unique('ws') }, { key });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await t.api.delete(`/workspaces/${created.body.id}`, { key })).status).toBe(204);
  });
});
