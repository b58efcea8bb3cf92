import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATCH_OP, ScimClient, USER_SCHEMA } from '../scim/scim-client.js';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createApiKey, createGroup, createUser, createWorkspace, unique } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectError } from './grants-support.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const BEYOND = 'not-authorized/insufficient-permission-for-params';

/**
 * Delegation is monotone for the protocol doors too (contract 5.3): an administrator whose own SFTP
 * is closed may open it for nobody, itself included, through any door that sets a protocol flag or
 * a membership of a group with one. Found by the delegation property
 * (delegation-invariant.property.test.ts); each way in is tried here once.
 */
describe.each(testDatabaseTargets())('no door opened beyond the caller [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  /** The stored flags, as booleans on either database. */
  const flags = async (table: 'users' | 'groups', id: number) => {
    const row = await db().selectFrom(table).select(['sftp_permission', 'dav_permission']).where('id', '=', id).executeTakeFirstOrThrow();
    return { sftp: Boolean(row.sftp_permission), dav: Boolean(row.dav_permission) };
  };

  /** A Workspace Administrator whose SFTP its Site Administrator closed, a colleague with SFTP closed too, and a group that opens SFTP. */
  async function workspace() {
    const ws = await createWorkspace(db());
    const admin = await createUser(db(), { workspaceId: ws, workspaceAdmin: true });
    const colleague = await createUser(db(), { workspaceId: ws });
    await db().updateTable('users').set({ sftp_permission: false }).where('id', 'in', [admin.id, colleague.id]).execute();
    const sftpGroup = await createGroup(db(), { workspaceId: ws });
    await db().updateTable('groups').set({ sftp_permission: true }).where('id', '=', sftpGroup).execute();
    const key = await createApiKey(db(), { userId: admin.id, workspaceId: ws });
    return { ws, admin, colleague, sftpGroup, key, as: { key, workspace: ws }, scim: new ScimClient(t.baseUrl, key) };
  }

  it('refuses to turn on a protocol flag the administrator may not use, on a user, itself or a group', async () => {
    const { admin, colleague, as, key } = await workspace();
    expectError(await t.api.patch(`/users/${admin.id}`, { sftp_permission: true }, as), 403, BEYOND);
    expectError(await t.api.patch(`/users/${colleague.id}`, { sftp_permission: true }, as), 403, BEYOND);
    expectError(await t.api.post('/users', { username: unique('new'), sftp_permission: true }, as), 403, BEYOND);
    expectError(await t.api.post('/groups', { name: unique('g'), sftp_permission: true }, as), 403, BEYOND);
    const ownGroup = await t.api.post('/groups', { name: unique('g') }, as);
    expect(ownGroup.status).toBe(201);
    expectError(await t.api.patch(`/groups/${ownGroup.body.id}`, { sftp_permission: true, user_ids: String(admin.id) }, as), 403, BEYOND);
    expect((await flags('users', admin.id)).sftp).toBe(false);
    expect((await flags('users', colleague.id)).sftp).toBe(false);
    expect((await flags('groups', ownGroup.body.id)).sftp).toBe(false);
    // What it may use itself, it may open: WebDAV.
    await db().updateTable('users').set({ dav_permission: false }).where('id', '=', colleague.id).execute();
    const dav = await t.api.patch(`/users/${colleague.id}`, { dav_permission: true }, { key, workspace: as.workspace });
    expect(dav.status).toBe(200);
    expect(dav.body.dav_permission).toBe(true);
  });

  it('creates users, through REST and SCIM, with the protocols the creator may not use closed', async () => {
    const { as, scim, ws } = await workspace();
    const made = await t.api.post('/users', { username: unique('new') }, as);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ sftp_permission: false, dav_permission: true, restapi_permission: true, ftp_permission: true });
    const provisioned = await scim.post('/Users', { schemas: [USER_SCHEMA], userName: unique('scim') }, { 'X-Service-Workspace-Id': String(ws) });
    expect(provisioned.status).toBe(201);
    expect(await flags('users', Number(provisioned.body.id))).toEqual({ sftp: false, dav: true });
  });

  it('refuses to put a user into a group that would open a protocol the administrator may not use, through every door', async () => {
    const { colleague, sftpGroup, as, scim, ws } = await workspace();
    expectError(await t.api.post('/group_users', { group_id: sftpGroup, user_id: colleague.id }, as), 403, BEYOND);
    expectError(await t.api.patch(`/groups/${sftpGroup}`, { user_ids: String(colleague.id) }, as), 403, BEYOND);
    expectError(await t.api.patch(`/users/${colleague.id}`, { group_ids: String(sftpGroup) }, as), 403, BEYOND);
    expectError(await t.api.post('/users', { username: unique('new'), group_ids: String(sftpGroup) }, as), 403, BEYOND);
    const add = { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: String(colleague.id) }] }] };
    expect((await scim.patch(`/Groups/${sftpGroup}`, add, { 'X-Service-Workspace-Id': String(ws) })).status).toBe(403);
    const created = await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('g'), members: [{ value: String(colleague.id) }] }, { 'X-Service-Workspace-Id': String(ws) });
    expect(created.status).toBe(201);
    const members = await db().selectFrom('group_users').select('user_id').where('group_id', '=', sftpGroup).execute();
    expect(members).toEqual([]);
  });

  it('refuses a key or a password for a user who may use a protocol closed to the administrator: it would sign the administrator in there', async () => {
    const { ws, as } = await workspace();
    const sftpUser = await createUser(db(), { workspaceId: ws });
    expectError(await t.api.post('/api_keys', { name: unique('k'), user_id: sftpUser.id }, as), 403, BEYOND);
    expectError(await t.api.post('/public_keys', { title: unique('k'), user_id: sftpUser.id, generate_keypair: true }, as), 403, BEYOND);
    expectError(await t.api.patch(`/users/${sftpUser.id}`, { password: 'a-Long-enough-passw0rd' }, as), 403, BEYOND);
    const keys = await db().selectFrom('api_keys').select('id').where('user_id', '=', sftpUser.id).execute();
    const sshKeys = await db().selectFrom('public_keys').select('id').where('user_id', '=', sftpUser.id).execute();
    expect({ keys, sshKeys }).toEqual({ keys: [], sshKeys: [] });
    // A user whose doors are all the administrator's own: as before.
    const closedUser = await createUser(db(), { workspaceId: ws });
    await db().updateTable('users').set({ sftp_permission: false }).where('id', '=', closedUser.id).execute();
    expect((await t.api.post('/api_keys', { name: unique('k'), user_id: closedUser.id }, as)).status).toBe(201);
    expect((await t.api.patch(`/users/${closedUser.id}`, { password: 'a-Long-enough-passw0rd' }, as)).status).toBe(200);
  });

  it('lets a Group Admin hand on the group\'s protocols (rule 8), and an administrator add a member the group opens nothing new for', async () => {
    const { admin, colleague, sftpGroup, as, ws } = await workspace();
    // A colleague whose own SFTP is open gains nothing from the group: the administrator may add it.
    const open = await createUser(db(), { workspaceId: ws });
    expect((await t.api.post('/group_users', { group_id: sftpGroup, user_id: open.id }, as)).status).toBe(201);
    // A Group Admin, who administers no Workspace, hands on what the group has.
    const groupAdmin = await createUser(db(), { workspaceId: ws });
    await addMember(db(), sftpGroup, groupAdmin.id, true);
    const groupAdminKey = await createApiKey(db(), { userId: groupAdmin.id, workspaceId: ws });
    const added = await t.api.post('/group_users', { group_id: sftpGroup, user_id: colleague.id }, { key: groupAdminKey, workspace: ws });
    expect(added.status).toBe(201);
    expect(admin.id).not.toBe(colleague.id);
  });
});
