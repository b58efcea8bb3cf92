import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createGroup, createUser, createWorkspace } from '../support/factories.js';
import { grantOnRoot } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/** `dry_run=true` on POST /permissions and DELETE /permissions/<id>. */
describe.each(testDatabaseTargets())('dry runs of grant changes [$name]', (target) => {
  let t: TestApp;
  let ws: number;
  const as = () => ({ key: BOOTSTRAP_KEY, workspace: ws });
  const grantCount = async () => (await t.database.db.selectFrom('permissions').select('id').execute()).length;
  const historyCount = async () => (await t.database.db.selectFrom('history').select('id').execute()).length;

  beforeAll(async () => {
    t = await startTestApp(target);
    ws = await createWorkspace(t.database.db);
  });
  afterAll(() => t.close());

  it('shows a grant that would replace a narrower one, and creates nothing', async () => {
    const user = await createUser(t.database.db, { workspaceId: ws });
    expect((await t.api.post('/permissions', { path: 'Sales/2026', user_id: user.id, permission: 'readonly' }, as())).status).toBe(201);
    const [grants, records] = [await grantCount(), await historyCount()];
    const response = await t.api.post('/permissions', { path: 'Sales', user_id: user.id, permission: 'full', dry_run: true }, as());
    expect(response.status).toBe(200);
    // Shown on the grant's path; below it (Sales/2026) the narrower grant it replaces gave list and read.
    expect(response.body).toEqual({
      dry_run: true,
      access_difference: [
        expect.objectContaining({ user_id: user.id, username: user.username, path: 'Sales', capabilities_before: [], gained: ['list', 'read', 'write', 'delete'] }),
      ],
    });
    expect(await grantCount()).toBe(grants);
    expect(await historyCount()).toBe(records);

    // The real change: the same difference, kept in its record.
    const real = await t.api.post('/permissions', { path: 'Sales', user_id: user.id, permission: 'full' }, as());
    expect(real.status).toBe(201);
    const record = await t.database.db.selectFrom('history').selectAll().where('action', '=', 'permission_create').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const kept = JSON.parse(record.targets ?? '{}').access_difference as { path: string }[];
    expect(kept.map((change) => ({ ...change, path: change.path.slice(`_/Workspaces/${ws}/`.length) }))).toEqual(response.body.access_difference);
  });

  it("shows the members of a group losing Workspace Administrator with its root grant, each keeping what its own grants give", async () => {
    const group = await createGroup(t.database.db, { workspaceId: ws });
    const members = await Promise.all([0, 1, 2].map(() => createUser(t.database.db, { workspaceId: ws })));
    for (const member of members) await addMember(t.database.db, group, member.id);
    const rootGrant = await grantOnRoot(t, ws, { groupId: group });
    const keeper = members[0] as { id: number };
    expect((await t.api.post('/permissions', { path: '', user_id: keeper.id, permission: 'full' }, as())).status).toBe(201);

    const grants = await grantCount();
    const response = await t.api.delete(`/permissions/${rootGrant}?dry_run=true`, as());
    expect(response.status).toBe(200);
    const atRoot = response.body.access_difference.filter((change: any) => change.path === '');
    expect(atRoot.map((change: any) => change.user_id).sort()).toEqual(members.map((m) => m.id).sort());
    for (const change of atRoot) {
      // Rule 6: the keeper's own grant on the root stays, and with it what it gives.
      const kept = change.user_id === keeper.id ? ['list', 'read', 'write', 'delete'] : [];
      expect(change).toMatchObject({ roles_lost: ['workspace_admin'], capabilities_after: kept });
    }
    expect(response.body.access_difference).toHaveLength(members.length);
    expect(await grantCount()).toBe(grants);
  });

  it('refuses a dry run with the error of the real change, and changes nothing', async () => {
    const grants = await grantCount();
    const unknownUser = await t.api.post('/permissions', { path: 'Sales', user_id: 999_999, permission: 'full', dry_run: true }, as());
    expect(unknownUser.status).toBe(404);
    expect(unknownUser.body.type).toBe('not-found/user-not-found');
    const badLevel = await t.api.post('/permissions', { path: 'Sales', user_id: 1, permission: 'everything', dry_run: true }, as());
    expect(badLevel.status).toBe(400);
    const unknownGrant = await t.api.delete('/permissions/999999?dry_run=true', as());
    expect(unknownGrant.status).toBe(404);
    expect(unknownGrant.body.type).toBe('not-found/permission-not-found');
    expect(await grantCount()).toBe(grants);
  });
});
