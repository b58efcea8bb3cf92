import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createApiKey, createGroup, createUser, createWorkspace } from '../support/factories.js';
import { grantOnRoot } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * `dry_run=true` on the changes of memberships, users and groups answers the effective-access
 * difference the change would make and changes nothing; the real change's History record carries
 * the same difference. (Grant changes: grants-dry-run.test.ts.)
 */
describe.each(testDatabaseTargets())('dry runs of directory changes [$name]', (target) => {
  let t: TestApp;
  let ws: number;
  let admins: number;
  let readers: number;
  let alice: { id: number; username: string };
  let bob: { id: number; username: string };
  let bobInAdmins: number;
  const as = { key: BOOTSTRAP_KEY, workspace: 0 };

  beforeAll(async () => {
    t = await startTestApp(target);
    const db = t.database.db;
    ws = await createWorkspace(db);
    as.workspace = ws;
    alice = await createUser(db, { workspaceId: ws });
    bob = await createUser(db, { workspaceId: ws });
    admins = await createGroup(db, { workspaceId: ws });
    readers = await createGroup(db, { workspaceId: ws });
    await grantOnRoot(t, ws, { groupId: admins });
    await addMember(db, admins, bob.id);
    await addMember(db, readers, alice.id);
    expect((await t.api.post('/permissions', { path: 'Reports', group_id: readers, permission: 'readonly' }, as)).status).toBe(201);
    expect((await t.api.post('/permissions', { path: 'Reports', user_id: bob.id, permission: 'full' }, as)).status).toBe(201);
    expect((await t.api.post('/permissions', { path: '', user_id: bob.id, permission: 'readonly' }, as)).status).toBe(201);
    bobInAdmins = (await t.api.get(`/group_users?group_id=${admins}&user_id=${bob.id}`, as)).body[0].id;
  });
  afterAll(() => t.close());

  const memberships = async () => (await t.database.db.selectFrom('group_users').select(['group_id', 'user_id']).execute()).length;
  const historyCount = async () => (await t.database.db.selectFrom('history').select('id').execute()).length;

  it('shows a new member of an administrators group becoming Workspace Administrator, and adds nobody', async () => {
    const [members, records] = [await memberships(), await historyCount()];
    const response = await t.api.post('/group_users', { group_id: admins, user_id: alice.id, dry_run: true }, as);
    expect(response.status).toBe(200);
    expect(response.body.dry_run).toBe(true);
    const atRoot = response.body.access_difference.find((change: any) => change.path === '');
    expect(atRoot).toMatchObject({ user_id: alice.id, username: alice.username, roles_gained: ['workspace_admin'], lost: [] });
    expect(atRoot.gained).toEqual(expect.arrayContaining(['list', 'read', 'write', 'delete', 'manage']));
    expect(await memberships()).toBe(members);
    expect(await historyCount()).toBe(records);
  });

  it("shows a user joining an administrators group through its group_ids, with a field changed too, and changes neither", async () => {
    const [members, records] = [await memberships(), await historyCount()];
    const response = await t.api.patch(`/users/${alice.id}`, { name: 'Not Yet', group_ids: `${readers},${admins}`, dry_run: true }, as);
    expect(response.status).toBe(200);
    const atRoot = response.body.access_difference.find((change: any) => change.path === '');
    expect(atRoot).toMatchObject({ user_id: alice.id, roles_gained: ['workspace_admin'], lost: [] });
    expect(await memberships()).toBe(members);
    expect(await historyCount()).toBe(records);
    expect((await t.api.get(`/users/${alice.id}`, as)).body.name).not.toBe('Not Yet');
  });

  it("shows what a member leaving keeps through its own grant (rule 6), and the real removal's record carries the same", async () => {
    const dry = await t.api.delete(`/group_users/${bobInAdmins}?dry_run=true`, as);
    expect(dry.status).toBe(200);
    // Bob keeps readonly on the root through his own grant: he loses only what the group's admin grant gave beyond it.
    expect(dry.body.access_difference).toEqual([expect.objectContaining({
      user_id: bob.id, path: '', capabilities_after: ['list', 'read'], lost: ['write', 'delete', 'history', 'share', 'manage'], roles_lost: ['workspace_admin'],
    })]);
    expect(await t.database.db.selectFrom('group_users').select('id').where('id', '=', bobInAdmins).execute()).toHaveLength(1);

    const real = await t.api.delete(`/group_users/${bobInAdmins}`, as);
    expect(real.status).toBe(204);
    const record = await t.database.db.selectFrom('history').selectAll().where('action', '=', 'group_update').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const recorded = JSON.parse(record.targets ?? '{}').access_difference;
    expect(recorded.map((change: any) => ({ ...change, path: change.path.replace(`_/Workspaces/${ws}/`, '').replace(`_/Workspaces/${ws}`, '') })))
      .toEqual(dry.body.access_difference);
    await addMember(t.database.db, admins, bob.id);
  });

  it('shows a user losing everything when disabled or deleted, and changes neither', async () => {
    const disable = await t.api.patch(`/users/${alice.id}`, { disabled: true, dry_run: true }, as);
    expect(disable.status).toBe(200);
    expect(disable.body.access_difference).toEqual([
      expect.objectContaining({ user_id: alice.id, path: 'Reports', lost: ['list', 'read'], capabilities_after: [] }),
    ]);
    expect((await t.api.get(`/users/${alice.id}`, as)).body.disabled).toBe(false);

    const remove = await t.api.delete(`/users/${bob.id}?dry_run=true`, as);
    expect(remove.status).toBe(200);
    expect(remove.body.access_difference.map((change: any) => change.path)).toEqual(['', 'Reports']);
    expect((await t.api.get(`/users/${bob.id}`, as)).status).toBe(200);
  });

  it("shows a group's deletion taking its grants from its members", async () => {
    const response = await t.api.delete(`/groups/${readers}?dry_run=true`, as);
    expect(response.status).toBe(200);
    expect(response.body.access_difference).toEqual([expect.objectContaining({ user_id: alice.id, path: 'Reports', lost: ['list', 'read'] })]);
    expect((await t.api.get(`/groups/${readers}`, as)).status).toBe(200);
  });

  it('refuses a dry run exactly as the change, to a caller without authority', async () => {
    const key = await createApiKey(t.database.db, { userId: alice.id, workspaceId: ws });
    const dry = await t.api.post('/group_users', { group_id: admins, user_id: alice.id, dry_run: true }, { key });
    const real = await t.api.post('/group_users', { group_id: admins, user_id: alice.id }, { key });
    expect(dry.status).toBe(real.status);
    expect(dry.body.type).toBe(real.body.type);
    expect((await t.api.delete(`/users/${bob.id}?dry_run=true`, { key })).status).toBe(real.status === 404 ? 404 : (await t.api.delete(`/users/${bob.id}`, { key })).status);
  });
});
