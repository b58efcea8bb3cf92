import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createApiKey, createGroup, createSession, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

describe.each(testDatabaseTargets())('request context and key confinement [$name]', (target) => {
  let t: TestApp;
  let ws1: number;
  let ws2: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    ws1 = await createWorkspace(t.database.db);
    ws2 = await createWorkspace(t.database.db);
  });
  afterAll(() => t.close());

  const listIds = async (options: { key?: string; session?: string; workspace?: number | string }) => {
    const response = await t.api.get('/workspaces', options);
    return { response, ids: Array.isArray(response.body) ? response.body.map((w: { id: number }) => w.id) : undefined };
  };

  it('refuses a malformed Workspace header', async () => {
    for (const header of ['abc', '-1', '1.5', ' ', '99999999999999999999']) {
      const { response } = await listIds({ key: BOOTSTRAP_KEY, workspace: header });
      if (header.trim() === '') continue;
      expect(response.status, header).toBe(400);
      expect(response.body.type, header).toBe('bad-request/invalid-workspace-id-header');
    }
  });

  it('refuses a header naming no Workspace', async () => {
    const { response } = await listIds({ key: BOOTSTRAP_KEY, workspace: 987654 });
    expect(response.status).toBe(400);
    expect(response.body.type).toBe('bad-request/invalid-workspace-id-header');
  });

  it('refuses a header naming a Workspace on the very next request after it is deleted', async () => {
    const created = await t.api.post('/workspaces', { name: 'Short-lived' }, { key: BOOTSTRAP_KEY });
    expect(created.status).toBe(201);
    // Selected twice first, so an answer kept in memory would be there to be wrongly reused.
    for (let i = 0; i < 2; i += 1) expect((await listIds({ key: BOOTSTRAP_KEY, workspace: created.body.id })).ids).toEqual([created.body.id]);
    expect((await t.api.delete(`/workspaces/${created.body.id}`, { key: BOOTSTRAP_KEY })).status).toBe(204);
    const { response } = await listIds({ key: BOOTSTRAP_KEY, workspace: created.body.id });
    expect(response.status).toBe(400);
    expect(response.body.type).toBe('bad-request/invalid-workspace-id-header');
  });

  it('lets a site-wide key created in Workspace 0 select any Workspace', async () => {
    const all = await listIds({ key: BOOTSTRAP_KEY });
    expect(all.ids).toEqual(expect.arrayContaining([0, ws1, ws2]));
    const selected = await listIds({ key: BOOTSTRAP_KEY, workspace: ws1 });
    expect(selected.response.status).toBe(200);
    expect(selected.ids).toEqual([ws1]);
  });

  it('lets a full user key created in Workspace 0 select another Workspace, without granting anything', async () => {
    const user = await createUser(t.database.db);
    const key = await createApiKey(t.database.db, { userId: user.id, permissionSet: 'full', workspaceId: 0 });
    const home = await listIds({ key });
    expect(home.ids).toEqual([0]);
    const selected = await listIds({ key, workspace: ws1 });
    expect(selected.response.status).toBe(200);
    // Selecting a Workspace never grants access to it: the user sees nothing there.
    expect(selected.ids).toEqual([]);
  });

  it('lets a session of a Workspace 0 user select another Workspace', async () => {
    const user = await createUser(t.database.db);
    const session = await createSession(t.database.db, user.id, t.clock.now());
    const selected = await listIds({ session, workspace: ws2 });
    expect(selected.response.status).toBe(200);
    expect(selected.ids).toEqual([]);
  });

  it('confines a files_only key to its creation Workspace even when its user is a Site Administrator', async () => {
    const admin = await createUser(t.database.db, { siteAdmin: true });
    const key = await createApiKey(t.database.db, { userId: admin.id, permissionSet: 'files_only', workspaceId: 0 });
    const { response } = await listIds({ key, workspace: ws1 });
    expect(response.status).toBe(400);
    expect(response.body.type).toBe('bad-request/invalid-workspace-id-header');
    const home = await listIds({ key, workspace: 0 });
    expect(home.response.status).toBe(200);
  });

  it('confines any key created in a Custom Workspace to it', async () => {
    const admin = await createUser(t.database.db, { siteAdmin: true });
    const key = await createApiKey(t.database.db, { userId: admin.id, permissionSet: 'full', workspaceId: ws1 });
    const other = await listIds({ key, workspace: 0 });
    expect(other.response.status).toBe(400);
    expect(other.response.body.type).toBe('bad-request/invalid-workspace-id-header');
    const home = await listIds({ key });
    expect(home.response.status).toBe(200);
    expect(home.ids).toEqual([ws1]);
  });

  it('confines every credential of a Custom Workspace user to its Workspace', async () => {
    const member = await createUser(t.database.db, { workspaceId: ws1 });
    const session = await createSession(t.database.db, member.id, t.clock.now());
    const key = await createApiKey(t.database.db, { userId: member.id, permissionSet: 'full', workspaceId: 0 });
    for (const credential of [{ session }, { key }]) {
      const away = await listIds({ ...credential, workspace: ws2 });
      expect(away.response.status).toBe(400);
      expect(away.response.body.type).toBe('bad-request/invalid-workspace-id-header');
      const home = await listIds({ ...credential });
      expect(home.ids).toEqual([ws1]);
      const explicitHome = await listIds({ ...credential, workspace: ws1 });
      expect(explicitHome.ids).toEqual([ws1]);
    }
  });

  it('lists a Workspace for an ALL-of grant only when the user is a member of every group it names', async () => {
    const db = t.database.db;
    const workspace = await createWorkspace(db);
    const [g1, g2] = [await createGroup(db), await createGroup(db)];
    const both = await createUser(db);
    const one = await createUser(db);
    await addMember(db, g1, both.id);
    await addMember(db, g2, both.id);
    await addMember(db, g1, one.id);
    const grant = await db.insertInto('permissions').values({
      workspace_id: workspace, path: `_/Workspaces/${workspace}/shared`, path_key: `_/workspaces/${workspace}/shared`, user_id: null, group_id: null,
      permission: 'readonly', recursive: true, created_at: 0,
    }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('permission_groups').values([{ permission_id: grant.id, group_id: g1 }, { permission_id: grant.id, group_id: g2 }]).execute();
    expect((await listIds({ key: await createApiKey(db, { userId: both.id }) })).ids).toEqual([0, workspace]);
    expect((await listIds({ key: await createApiKey(db, { userId: one.id }) })).ids).toEqual([0]);
  });

  it('lists the Workspaces a user holds a grant in, through a group too', async () => {
    const user = await createUser(t.database.db);
    const group = await t.database.db.insertInto('groups').values({ workspace_id: 0, name: 'g', name_key: `g-${user.id}`, created_at: 0 }).returning('id').executeTakeFirstOrThrow();
    await t.database.db.insertInto('group_users').values({ group_id: group.id, user_id: user.id, admin: false, created_at: 0 }).execute();
    await t.database.db.insertInto('permissions').values({
      workspace_id: ws2, path: `_/Workspaces/${ws2}`, path_key: `_/workspaces/${ws2}`, user_id: null, group_id: group.id,
      permission: 'admin', recursive: true, created_at: 0,
    }).execute();
    const key = await createApiKey(t.database.db, { userId: user.id });
    const { ids } = await listIds({ key });
    expect(ids).toEqual([0, ws2]);
  });
});
