import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createApiKey, createGroup, createUser, unique } from '../support/factories.js';
import { buildSite, grantOnRoot, type SiteFixture } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { ATRIUM_USER, expectScimError, PATCH_OP, ScimClient, USER_SCHEMA } from './scim-client.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ATRIUM_GROUP = 'urn:ietf:params:scim:schemas:extension:atrium:2.0:Group';

describe.each(testDatabaseTargets())('SCIM authority [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  let site: ScimClient;
  beforeAll(async () => {
    t = await startTestApp(target);
    s = await buildSite(t);
    site = new ScimClient(t.baseUrl, BOOTSTRAP_KEY);
  });
  afterAll(() => t.close());

  const newUser = (extra: Record<string, unknown> = {}) => ({ schemas: [USER_SCHEMA], userName: unique('auth'), ...extra });
  const addMembers = (ids: number[]) => ({ schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: ids.map((id) => ({ value: String(id) })) }] });
  const removeMember = (id: number) => ({ schemas: [PATCH_OP], Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }] });

  it("lets a site administrator's key provision users and groups in any Workspace", async () => {
    const inWs2 = await site.post('/Users', newUser({ [ATRIUM_USER]: { workspace_id: s.ws2 } }));
    expect(inWs2.status).toBe(201);
    expect(inWs2.body[ATRIUM_USER].workspace_id).toBe(s.ws2);
    const group = await site.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('G'), members: [{ value: inWs2.body.id }], [ATRIUM_GROUP]: { workspace_id: s.ws2 } });
    expect(group.status).toBe(201);
  });

  it("keeps a Workspace administrator's key to its own Workspace's users and groups", async () => {
    const admin = site.as(s.admin1.key);
    const created = await admin.post('/Users', newUser());
    expect(created.status).toBe(201);
    expect(created.body[ATRIUM_USER].workspace_id).toBe(s.ws1);
    const listed = await admin.get('/Users?count=1000');
    const workspaces = new Set(listed.body.Resources.map((u: Record<string, { workspace_id: number }>) => u[ATRIUM_USER]?.workspace_id));
    expect([...workspaces]).toEqual([s.ws1]);
    expectScimError(await admin.get(`/Users/${s.member2.user.id}`), 404);
    expectScimError(await admin.patch(`/Users/${s.member2.user.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] }), 404);
    expectScimError(await admin.delete(`/Users/${s.member2.user.id}`), 404);
    const elsewhere = await admin.post('/Users', newUser({ [ATRIUM_USER]: { workspace_id: s.ws2 } }));
    expect([403, 404]).toContain(elsewhere.status);
    expect(elsewhere.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
    const group = await admin.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('Mine'), members: [{ value: created.body.id }] });
    expect(group.status).toBe(201);
    expect(group.body[ATRIUM_GROUP].workspace_id).toBe(s.ws1);
    // A member of another Workspace cannot be put in this Workspace's group.
    expect((await admin.patch(`/Groups/${group.body.id}`, addMembers([s.member2.user.id]))).status).toBeGreaterThanOrEqual(400);
    expect((await t.api.get(`/groups/${group.body.id}`, { key: BOOTSTRAP_KEY })).body.user_ids).toBe(created.body.id);
  });

  it("lets a Group Admin's key add and remove members of its groups and answers everything else with 403", async () => {
    const groupAdmin = await createUser(t.database.db, { workspaceId: s.ws1 });
    const key = await createApiKey(t.database.db, { userId: groupAdmin.id, workspaceId: s.ws1 });
    const group = await createGroup(t.database.db, { workspaceId: s.ws1 });
    const otherGroup = await createGroup(t.database.db, { workspaceId: s.ws1 });
    await addMember(t.database.db, group, groupAdmin.id, true);
    const ga = site.as(key);
    const added = await ga.patch(`/Groups/${group}`, addMembers([s.member1.user.id]));
    expect(added.status).toBe(200);
    expect(added.body.members.map((m: { value: string }) => m.value)).toContain(String(s.member1.user.id));
    expect((await ga.patch(`/Groups/${group}`, removeMember(s.member1.user.id))).status).toBe(200);
    expect((await t.api.get(`/groups/${group}`, { key: BOOTSTRAP_KEY })).body.user_ids).toBe(String(groupAdmin.id));

    expectScimError(await ga.patch(`/Groups/${group}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'Renamed' }] }), 403);
    expectScimError(await ga.patch(`/Groups/${group}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: `${ATRIUM_GROUP}:admins`, value: [{ value: String(s.member1.user.id) }] }] }), 403);
    expectScimError(await ga.put(`/Groups/${group}`, { schemas: [GROUP_SCHEMA], displayName: 'x', members: [] }), 403);
    expectScimError(await ga.delete(`/Groups/${group}`), 403);
    expectScimError(await ga.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('No') }), 403);
    expectScimError(await ga.post('/Users', newUser()), 403);
    const toOther = await ga.patch(`/Groups/${otherGroup}`, addMembers([s.member1.user.id]));
    expect([403, 404]).toContain(toOther.status);
    const changeUser = await ga.patch(`/Users/${s.member1.user.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] });
    expect([403, 404]).toContain(changeUser.status);
    expect((await t.api.get(`/users/${s.member1.user.id}`, { key: BOOTSTRAP_KEY })).body.disabled).toBe(false);
  });

  it('refuses a regular member and a files_only key', async () => {
    const member = site.as(s.member1.key);
    expectScimError(await member.post('/Users', newUser()), 403);
    const group = await createGroup(t.database.db, { workspaceId: s.ws1 });
    await addMember(t.database.db, group, s.member1.user.id);
    expectScimError(await member.patch(`/Groups/${group}`, addMembers([s.admin1.user.id])), 403);
    const filesOnly = await createApiKey(t.database.db, { userId: s.admin1.user.id, workspaceId: s.ws1, permissionSet: 'files_only' });
    expectScimError(await site.as(filesOnly).get('/Users'), 403);
  });

  it('gives a member the group\'s Workspace Administrator access through a Group Admin\'s SCIM change, and removal ends it on the next request (rule 8)', async () => {
    const groupAdmin = await createUser(t.database.db, { workspaceId: s.ws1 });
    const gaKey = await createApiKey(t.database.db, { userId: groupAdmin.id, workspaceId: s.ws1 });
    const admins = await createGroup(t.database.db, { workspaceId: s.ws1 });
    await addMember(t.database.db, admins, groupAdmin.id, true);
    await grantOnRoot(t, s.ws1, { groupId: admins });
    const promoted = await createUser(t.database.db, { workspaceId: s.ws1 });
    const promotedKey = await createApiKey(t.database.db, { userId: promoted.id, workspaceId: s.ws1 });
    const administers = async () => {
      const listed = await t.api.get('/users', { key: promotedKey });
      return listed.body.some((u: { id: number }) => u.id === s.member1.user.id);
    };
    expect(await administers()).toBe(false);
    expectScimError(await site.as(promotedKey).post('/Users', newUser()), 403);

    expect((await site.as(gaKey).patch(`/Groups/${admins}`, addMembers([promoted.id]))).status).toBe(200);
    expect(await administers()).toBe(true);
    // The promoted user now provisions the Workspace through SCIM too.
    expect((await site.as(promotedKey).post('/Users', newUser())).status).toBe(201);

    expect((await site.as(gaKey).patch(`/Groups/${admins}`, removeMember(promoted.id))).status).toBe(200);
    expect(await administers()).toBe(false);
    expectScimError(await site.as(promotedKey).post('/Users', newUser()), 403);
  });
});
