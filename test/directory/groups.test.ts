import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createApiKey, createGroup, createUser, unique } from '../support/factories.js';
import { buildSite, grantOnRoot, type SiteFixture } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

describe.each(testDatabaseTargets())('groups and memberships [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  beforeAll(async () => {
    t = await startTestApp(target);
    s = await buildSite(t);
  });
  afterAll(() => t.close());

  it('creates a group with members and Group Admins given as comma-separated strings or arrays', async () => {
    const extra = await createUser(t.database.db, { workspaceId: s.ws1 });
    const name = unique('team');
    const response = await t.api.post('/groups', { name, user_ids: `${s.member1.user.id}`, admin_ids: [extra.id] }, { key: s.admin1.key });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      name,
      workspace_id: s.ws1,
      user_ids: [s.member1.user.id, extra.id].sort((a, b) => a - b).join(','),
      admin_ids: `${extra.id}`,
      usernames: expect.stringContaining(s.member1.user.username),
      notes: '',
      sftp_permission: false,
      dav_permission: false,
      ftp_permission: false,
      restapi_permission: false,
      allowed_ips: '',
    });
    const memberships = await t.api.get(`/group_users?group_id=${response.body.id}`, { key: s.admin1.key });
    expect(memberships.body).toEqual(expect.arrayContaining([
      { id: expect.any(Number), group_id: response.body.id, user_id: extra.id, admin: true, username: extra.username, usernames: extra.username, group_name: name },
    ]));
    const user = await t.api.get(`/users/${extra.id}`, { key: s.admin1.key });
    expect(user.body.group_ids).toBe(`${response.body.id}`);
    expect(user.body.admin_group_ids).toEqual([response.body.id]);
  });

  it('refuses a duplicate name in the same Workspace and a workspace_id that differs from the context', async () => {
    const name = unique('dup');
    expect((await t.api.post('/groups', { name }, { key: s.admin1.key })).status).toBe(201);
    const dup = await t.api.post('/groups', { name: name.toUpperCase() }, { key: s.admin1.key });
    expect(dup.status).toBe(422);
    expect(dup.body.model_errors).toEqual({ name: ['has already been taken'] });
    const mismatch = await t.api.post('/groups', { name: unique('g'), workspace_id: s.ws2 }, { key: s.admin1.key });
    expect(mismatch.status).toBe(403);
    expect(mismatch.body.type).toBe('not-authorized/insufficient-permission-for-params');
  });

  it('keeps members within the group Workspace; only a Site Administrator adds Workspace 0 accounts', async () => {
    const group = await createGroup(t.database.db, { workspaceId: s.ws1 });
    const other = await t.api.post('/group_users', { group_id: group, user_id: s.member2.user.id }, { key: s.admin1.key });
    expect(other.body.type).toBe('not-found/user-not-found');
    const zero = await t.api.post('/group_users', { group_id: group, user_id: s.delegate.user.id }, { key: s.admin1.key });
    expect(zero.body.type).toBe('not-found/user-not-found');
    const bySiteAdmin = await t.api.post('/group_users', { group_id: group, user_id: s.delegate.user.id }, { key: BOOTSTRAP_KEY });
    expect(bySiteAdmin.status).toBe(201);
    const again = await t.api.post('/group_users', { group_id: group, user_id: s.delegate.user.id }, { key: BOOTSTRAP_KEY });
    expect(again.status).toBe(422);
  });

  it('shows a regular user only its own groups', async () => {
    const own = await createGroup(t.database.db, { workspaceId: s.ws1 });
    const notOwn = await createGroup(t.database.db, { workspaceId: s.ws1 });
    await addMember(t.database.db, own, s.member1.user.id);
    const list = await t.api.get('/groups', { key: s.member1.key });
    expect(list.body.map((g: { id: number }) => g.id)).toContain(own);
    expect(list.body.map((g: { id: number }) => g.id)).not.toContain(notOwn);
    expect((await t.api.get(`/groups/${notOwn}`, { key: s.member1.key })).body.type).toBe('not-found/group-not-found');
    expect((await t.api.get(`/groups/${own}`, { key: s.member1.key })).status).toBe(200);
    const rename = await t.api.patch(`/groups/${own}`, { name: 'mine now' }, { key: s.member1.key });
    expect(rename.body.type).toBe('not-authorized/site-admin-or-workspace-admin-permission-required');
  });

  it('lets a Group Admin add and remove members of its group and nothing else', async () => {
    const groupAdmin = await createUser(t.database.db, { workspaceId: s.ws1 });
    const key = await createApiKey(t.database.db, { userId: groupAdmin.id, workspaceId: s.ws1 });
    const group = await createGroup(t.database.db, { workspaceId: s.ws1 });
    const otherGroup = await createGroup(t.database.db, { workspaceId: s.ws1 });
    await addMember(t.database.db, group, groupAdmin.id, true);
    const newcomer = await createUser(t.database.db, { workspaceId: s.ws1 });

    const asAdmin = await t.api.post('/group_users', { group_id: group, user_id: newcomer.id, admin: true }, { key });
    expect(asAdmin.body.type).toBe('not-authorized/insufficient-permission-for-params');
    const added = await t.api.post('/group_users', { group_id: group, user_id: newcomer.id }, { key });
    expect(added.status).toBe(201);
    const elsewhere = await t.api.post('/group_users', { group_id: otherGroup, user_id: newcomer.id }, { key });
    expect(elsewhere.body.type).toBe('not-found/group-not-found');
    const rename = await t.api.patch(`/groups/${group}`, { name: 'renamed' }, { key });
    expect(rename.body.type).toBe('not-authorized/site-admin-or-workspace-admin-permission-required');
    const promote = await t.api.patch(`/group_users/${added.body.id}`, { admin: true }, { key });
    expect(promote.body.type).toBe('not-authorized/site-admin-or-workspace-admin-permission-required');
    const removed = await t.api.delete(`/group_users/${added.body.id}`, { key, body: { id: added.body.id, group_id: group, user_id: newcomer.id } });
    expect(removed.status).toBe(204);
    expect(await t.database.db.selectFrom('group_users').select('id').where('id', '=', added.body.id).execute()).toEqual([]);
  });

  it("passes the group's Workspace Administrator authority to a member a Group Admin adds, and ends it on removal", async () => {
    // A Workspace 0 group holding admin on ws2's root; its Group Admin is a plain Workspace 0 user.
    const group = await createGroup(t.database.db, { workspaceId: 0 });
    await grantOnRoot(t, s.ws2, { groupId: group });
    const groupAdmin = await createUser(t.database.db);
    const groupAdminKey = await createApiKey(t.database.db, { userId: groupAdmin.id });
    await addMember(t.database.db, group, groupAdmin.id, true);
    const recruit = await createUser(t.database.db);
    const recruitKey = await createApiKey(t.database.db, { userId: recruit.id });

    const before = await t.api.get('/users', { key: recruitKey, workspace: s.ws2 });
    expect(before.body).toEqual([]);
    const added = await t.api.post('/group_users', { group_id: group, user_id: recruit.id }, { key: groupAdminKey });
    expect(added.status).toBe(201);
    // The recruit's own key, unchanged, now administers ws2.
    const after = await t.api.get('/users', { key: recruitKey, workspace: s.ws2 });
    expect(after.body.map((u: { id: number }) => u.id)).toContain(s.member2.user.id);
    const create = await t.api.post('/users', { username: unique('by-recruit') }, { key: recruitKey, workspace: s.ws2 });
    expect(create.status).toBe(201);

    expect((await t.api.delete(`/group_users/${added.body.id}`, { key: groupAdminKey })).status).toBe(204);
    const removed = await t.api.get('/users', { key: recruitKey, workspace: s.ws2 });
    expect(removed.body).toEqual([]);
    const refused = await t.api.post('/users', { username: unique('by-recruit') }, { key: recruitKey, workspace: s.ws2 });
    expect(refused.body.type).toBe('not-authorized/site-admin-or-workspace-admin-permission-required');
  });

  it('replaces the member list on update with user_ids and admin_ids', async () => {
    const a = await createUser(t.database.db, { workspaceId: s.ws1 });
    const b = await createUser(t.database.db, { workspaceId: s.ws1 });
    const created = await t.api.post('/groups', { name: unique('g'), user_ids: [a.id] }, { key: s.admin1.key });
    const updated = await t.api.put(`/groups/${created.body.id}`, { user_ids: `${b.id}`, admin_ids: `${b.id}` }, { key: s.admin1.key });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ user_ids: `${b.id}`, admin_ids: `${b.id}` });
  });

  it('deletes a group with its memberships and every grant naming it, ALL-of grants included', async () => {
    const group = await createGroup(t.database.db, { workspaceId: s.ws1 });
    const partner = await createGroup(t.database.db, { workspaceId: s.ws1 });
    await addMember(t.database.db, group, s.member1.user.id);
    const direct = await grantOnRoot(t, s.ws1, { groupId: group });
    const allOf = await t.database.db.insertInto('permissions').values({
      workspace_id: s.ws1, path: `_/Workspaces/${s.ws1}/x`, path_key: `_/workspaces/${s.ws1}/x`, user_id: null, group_id: null,
      permission: 'full', recursive: true, created_at: 0,
    }).returning('id').executeTakeFirstOrThrow();
    await t.database.db.insertInto('permission_groups').values([{ permission_id: allOf.id, group_id: group }, { permission_id: allOf.id, group_id: partner }]).execute();

    const response = await t.api.delete(`/groups/${group}`, { key: s.admin1.key });
    expect(response.status).toBe(204);
    const left = await t.database.db.selectFrom('permissions').select('id').where('id', 'in', [direct, allOf.id]).execute();
    expect(left).toEqual([]);
    expect(await t.database.db.selectFrom('group_users').select('id').where('group_id', '=', group).execute()).toEqual([]);
    expect((await t.api.get(`/groups/${partner}`, { key: s.admin1.key })).status).toBe(200);
  });

  it('answers Workspace Administrator of 1 acting on a group of Workspace 2 with not-found', async () => {
    const group = await createGroup(t.database.db, { workspaceId: s.ws2 });
    for (const call of [
      () => t.api.get(`/groups/${group}`, { key: s.admin1.key }),
      () => t.api.patch(`/groups/${group}`, { name: 'x' }, { key: s.admin1.key }),
      () => t.api.delete(`/groups/${group}`, { key: s.admin1.key }),
      () => t.api.post('/group_users', { group_id: group, user_id: s.member1.user.id }, { key: s.admin1.key }),
    ]) {
      expect((await call()).body.type).toBe('not-found/group-not-found');
    }
  });
});
