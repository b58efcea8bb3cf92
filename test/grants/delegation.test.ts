import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createApiKey, createGroup, createSession, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { expectError, explainSelf, grantAsSite, ids, memberOf, tryDelegate } from './grants-support.js';

/**
 * The product document's permission rules 1 to 9, each proved with the member's own credential and
 * the Workspace selected (Workspace rule 7: an administrator's success proves nothing about a member).
 */
describe.each(testDatabaseTargets())('delegating Workspace administration [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const removeMember = (groupId: number, userId: number) =>
    db().deleteFrom('group_users').where('group_id', '=', groupId).where('user_id', '=', userId).execute();
  const workspacesOf = async (key: string) => ids((await t.api.get('/workspaces', { key })).body);

  it('rule 1: listing only direct grants misses the group root grant; include_groups=true finds it', async () => {
    const ws = await createWorkspace(db());
    const group = await createGroup(db());
    const member = await memberOf(t);
    await addMember(db(), group, member.id);
    const rootGrant = await grantAsSite(t, { path: `_/Workspaces/${ws}`, group_id: group, permission: 'admin', recursive: true });

    const direct = await t.api.get(`/permissions?user_id=${member.id}`, { key: member.key });
    expect(direct.status).toBe(200);
    expect(direct.body).toEqual([]);
    // The SDK sends ids and booleans as strings in the query: "5", "true".
    const withGroups = await t.api.get(`/permissions?user_id=${String(member.id)}&include_groups=true`, { key: member.key });
    expect(withGroups.status).toBe(200);
    expect(withGroups.body).toEqual([expect.objectContaining({ id: rootGrant, path: `_/Workspaces/${ws}`, group_id: group, permission: 'admin', recursive: true, workspace_id: ws })]);
  });

  it('rule 2: a grant shows qualified in Workspace 0 and relative inside the Custom Workspace', async () => {
    const ws = await createWorkspace(db());
    const member = await memberOf(t, { workspaceId: ws });
    const grant = await grantAsSite(t, { path: `_/Workspaces/${ws}/Reports/Q1`, user_id: member.id, permission: 'readonly' });
    const fromZero = await t.api.get(`/permissions?user_id=${member.id}`, { key: BOOTSTRAP_KEY, workspace: 0 });
    expect(fromZero.body).toEqual([expect.objectContaining({ id: grant, path: `_/Workspaces/${ws}/Reports/Q1` })]);
    const inside = await t.api.get(`/permissions?user_id=${member.id}`, { key: member.key, workspace: ws });
    expect(inside.body).toEqual([expect.objectContaining({ id: grant, path: 'Reports/Q1' })]);
    const explained = await explainSelf(t, member, 'reports/q1/file.txt', ws);
    expect(explained.path).toBe('reports/q1/file.txt');
    expect(explained.reasons.find((r: any) => r.permission_id === grant).path).toBe('Reports/Q1');
  });

  it('rule 3: admin + recursive on the root makes a user Workspace Administrator', async () => {
    const ws = await createWorkspace(db());
    const member = await memberOf(t);
    const peer = await createUser(db(), { workspaceId: ws });
    expectError(await tryDelegate(t, member, { workspace: ws, path: 'Anything', granteeId: peer.id }), 403, 'not-authorized/folder-admin-permission-required');

    await grantAsSite(t, { path: `_/Workspaces/${ws}`, user_id: member.id, permission: 'admin', recursive: true });
    const explained = await explainSelf(t, member, '', ws);
    expect(explained).toMatchObject({ path: '', workspace_admin: true, site_admin: false, folder_admin: false, user_id: member.id });
    expect(explained.capabilities).toEqual(['list', 'read', 'write', 'delete', 'history', 'share', 'manage']);
    expect((await tryDelegate(t, member, { workspace: ws, path: 'Anything', granteeId: peer.id })).status).toBe(201);
    expect((await tryDelegate(t, member, { workspace: ws, path: '', granteeId: peer.id })).status).toBe(201);
    // Also from Workspace 0 with the qualified path.
    expect((await tryDelegate(t, member, { workspace: 0, path: `_/Workspaces/${ws}/Deep/er`, granteeId: peer.id })).status).toBe(201);
    expect(await workspacesOf(member.key)).toEqual([0, ws]);
  });

  it('rule 3: the same through a group, for each member, and a group grant created inside the Workspace with the empty path', async () => {
    const ws = await createWorkspace(db());
    const group = await createGroup(db());
    const first = await memberOf(t);
    const second = await memberOf(t);
    await addMember(db(), group, first.id);
    await addMember(db(), group, second.id);
    const admin = await createUser(db(), { siteAdmin: true });
    const adminKey = await createApiKey(db(), { userId: admin.id });
    const created = await t.api.post('/permissions', { path: '', group_id: group, permission: 'admin' }, { key: adminKey, workspace: ws });
    expect(created.status).toBe(201);
    const peer = await createUser(db(), { workspaceId: ws });
    for (const member of [first, second]) {
      expect((await explainSelf(t, member, 'x/y', ws)).workspace_admin).toBe(true);
      expect((await tryDelegate(t, member, { workspace: ws, path: 'x', granteeId: peer.id })).status).toBe(201);
    }
  });

  it('rule 4: a subfolder of the root gives Folder Admin of that subtree only', async () => {
    const ws = await createWorkspace(db());
    const member = await memberOf(t);
    const peer = await createUser(db(), { workspaceId: ws });
    const zeroPeer = await createUser(db());
    await grantAsSite(t, { path: `_/Workspaces/${ws}/Finance`, user_id: member.id, permission: 'admin', recursive: true });

    const onSubfolder = await explainSelf(t, member, 'Finance/2026', ws, '&type=directory');
    expect(onSubfolder).toMatchObject({ workspace_admin: false, folder_admin: true });
    expect(onSubfolder.capabilities).toContain('manage');
    const onRoot = await explainSelf(t, member, '', ws, '&type=directory');
    expect(onRoot).toMatchObject({ workspace_admin: false, folder_admin: false, capabilities: [] });

    expect((await tryDelegate(t, member, { workspace: ws, path: 'Finance', granteeId: peer.id })).status).toBe(201);
    expect((await tryDelegate(t, member, { workspace: ws, path: 'finance/2026/Q1', granteeId: peer.id })).status).toBe(201);
    for (const path of ['', 'Marketing', 'Finance2', 'Finance-old/x']) {
      expectError(await tryDelegate(t, member, { workspace: ws, path, granteeId: peer.id }), 403, 'not-authorized/folder-admin-permission-required');
    }
    // A Folder Admin names only users of the folder's Workspace.
    expectError(await tryDelegate(t, member, { workspace: ws, path: 'Finance', granteeId: zeroPeer.id }), 404, 'not-found/user-not-found');
  });

  it('rule 4: admin on the root without recursive is not Workspace Administrator either', async () => {
    const ws = await createWorkspace(db());
    const member = await memberOf(t);
    const peer = await createUser(db(), { workspaceId: ws });
    await grantAsSite(t, { path: `_/Workspaces/${ws}`, user_id: member.id, permission: 'admin', recursive: false });
    expect(await explainSelf(t, member, '', ws, '&type=directory')).toMatchObject({ workspace_admin: false, folder_admin: true });
    // Its authority covers the root and the files directly in it: non-recursive grants there only.
    expect((await tryDelegate(t, member, { workspace: ws, path: '', granteeId: peer.id, recursive: false })).status).toBe(201);
    expectError(await tryDelegate(t, member, { workspace: ws, path: '', granteeId: peer.id }), 403, 'not-authorized/folder-admin-permission-required');
    expectError(await tryDelegate(t, member, { workspace: ws, path: 'sub', granteeId: peer.id }), 403, 'not-authorized/folder-admin-permission-required');
  });

  it('delegation is monotone: a non-recursive root admin cannot make itself or anyone Workspace Administrator', async () => {
    const ws = await createWorkspace(db());
    const member = await memberOf(t);
    const peer = await memberOf(t, { workspaceId: ws });
    const otherAdmin = await memberOf(t, { workspaceId: ws, workspaceAdmin: true });
    await grantAsSite(t, { path: `_/Workspaces/${ws}`, user_id: member.id, permission: 'admin', recursive: false });
    for (const granteeId of [member.id, peer.id]) {
      const attempt = await t.api.post('/permissions', { path: '', user_id: granteeId, permission: 'admin', recursive: true }, { key: member.key, workspace: ws });
      expectError(attempt, 403, 'not-authorized/folder-admin-permission-required');
    }
    // Nothing was created, so neither became administrator: the member still cannot list the
    // Workspace's users nor make keys for its administrators.
    const grants = await db().selectFrom('permissions').select('id').where('path_key', '=', `_/workspaces/${ws}`).execute();
    expect(grants).toHaveLength(1);
    expect(await explainSelf(t, member, '', ws, '&type=directory')).toMatchObject({ workspace_admin: false });
    expect(await explainSelf(t, peer, '', ws, '&type=directory')).toMatchObject({ workspace_admin: false, folder_admin: false });
    const key = await t.api.post('/api_keys', { name: 'theirs', user_id: otherAdmin.id }, { key: member.key, workspace: ws });
    expectError(key, 404, 'not-found/user-not-found');
  });

  it('delegation is monotone: a non-recursive Folder Admin of a subfolder hands out nothing below it', async () => {
    const ws = await createWorkspace(db());
    const member = await memberOf(t, { workspaceId: ws });
    const peer = await memberOf(t, { workspaceId: ws });
    await grantAsSite(t, { path: `_/Workspaces/${ws}/Projects`, user_id: member.id, permission: 'admin', recursive: false });
    for (const granteeId of [member.id, peer.id]) {
      const attempt = await t.api.post('/permissions', { path: 'Projects', user_id: granteeId, permission: 'full', recursive: true }, { key: member.key, workspace: ws });
      expectError(attempt, 403, 'not-authorized/folder-admin-permission-required');
    }
    expect((await explainSelf(t, member, 'Projects/Secret/plan.txt', ws)).capabilities).toEqual([]);
    // Within its own extent it still delegates, and may remove what it made.
    const own = await tryDelegate(t, member, { workspace: ws, path: 'Projects', granteeId: peer.id, recursive: false });
    expect(own.status).toBe(201);
    // A recursive grant on its folder, made by someone who holds more, it may not remove.
    const above = await grantAsSite(t, { path: `_/Workspaces/${ws}/Projects`, user_id: peer.id, permission: 'readonly', recursive: true });
    expectError(await t.api.delete(`/permissions/${above}`, { key: member.key, workspace: ws }), 403, 'not-authorized/folder-admin-permission-required');
  });

  it('rule 5: only a full site-wide key or a Site Administrator\'s full key may delegate across Workspaces', async () => {
    const ws = await createWorkspace(db());
    const zeroGroup = await createGroup(db());
    // A Workspace Administrator of ws (by flag) may not hand ws to a Default Workspace group.
    const wsAdmin = await memberOf(t, { workspaceId: ws, workspaceAdmin: true });
    const byWsAdmin = await t.api.post('/permissions', { path: '', group_id: zeroGroup, permission: 'admin' }, { key: wsAdmin.key });
    expectError(byWsAdmin, 404, 'not-found/group-not-found');
    // Nor may a Default Workspace user who administers ws through a root grant pass it on.
    const delegate = await memberOf(t);
    await grantAsSite(t, { path: `_/Workspaces/${ws}`, user_id: delegate.id, permission: 'admin' });
    const onward = await createUser(db());
    const byDelegate = await t.api.post('/permissions', { path: `_/Workspaces/${ws}`, user_id: onward.id, permission: 'admin' }, { key: delegate.key });
    expectError(byDelegate, 404, 'not-found/user-not-found');

    const admin = await createUser(db(), { siteAdmin: true });
    const fullKey = await createApiKey(db(), { userId: admin.id, permissionSet: 'full' });
    const filesOnlyKey = await createApiKey(db(), { userId: admin.id, permissionSet: 'files_only' });
    const regular = await memberOf(t);
    const body = { path: `_/Workspaces/${ws}`, group_id: zeroGroup, permission: 'admin', recursive: true };
    expectError(await t.api.post('/permissions', body, { key: filesOnlyKey }), 403, 'not-authorized/api-key-is-files-only');
    expectError(await t.api.post('/permissions', body, { key: regular.key }), 403, 'not-authorized/folder-admin-permission-required');
    expect((await t.api.post('/permissions', body, { key: fullKey, workspace: 0 })).status).toBe(201);
    expect((await t.api.post('/permissions', body, { key: BOOTSTRAP_KEY, workspace: 0 })).status).toBe(201);
  });

  it('a Custom Workspace user with workspace_admin administers its own Workspace only', async () => {
    const ws = await createWorkspace(db());
    const other = await createWorkspace(db());
    const wsAdmin = await memberOf(t, { workspaceId: ws, workspaceAdmin: true });
    const colleague = await createUser(db(), { workspaceId: ws });
    const colleagueGroup = await createGroup(db(), { workspaceId: ws });
    const stranger = await createUser(db(), { workspaceId: other });
    expect((await tryDelegate(t, wsAdmin, { workspace: ws, path: 'team', granteeId: colleague.id })).status).toBe(201);
    const groupGrant = await t.api.post('/permissions', { path: '', group_id: colleagueGroup, permission: 'admin' }, { key: wsAdmin.key });
    expect(groupGrant.status).toBe(201);
    expect(groupGrant.body).toMatchObject({ path: '', workspace_id: ws });
    expectError(await tryDelegate(t, wsAdmin, { workspace: ws, path: 'team', granteeId: stranger.id }), 404, 'not-found/user-not-found');
    const explained = await explainSelf(t, wsAdmin, 'team', ws);
    expect(explained.workspace_admin).toBe(true);
    expect(explained.reasons[0]).toMatchObject({ kind: 'role', role: 'workspace_admin', source: 'workspace_admin_flag', workspace_id: ws });
  });

  it('rule 6: deleting the root grant ends Workspace administration for every member at once', async () => {
    const ws = await createWorkspace(db());
    const group = await createGroup(db());
    const members = [await memberOf(t), await memberOf(t)];
    for (const member of members) await addMember(db(), group, member.id);
    const peer = await createUser(db(), { workspaceId: ws });
    const rootGrant = await grantAsSite(t, { path: `_/Workspaces/${ws}`, group_id: group, permission: 'admin' });
    for (const member of members) expect((await tryDelegate(t, member, { workspace: ws, path: 'p', granteeId: peer.id })).status).toBe(201);
    // GET /workspaces lists the Workspaces a member holds a grant in, through its group too (contract 7).
    for (const member of members) expect(await workspacesOf(member.key)).toEqual([0, ws]);

    const deleted = await t.api.delete(`/permissions/${rootGrant}`, { key: BOOTSTRAP_KEY });
    expect(deleted.status).toBe(204);
    for (const member of members) {
      expectError(await tryDelegate(t, member, { workspace: ws, path: 'p', granteeId: peer.id }), 403, 'not-authorized/folder-admin-permission-required');
      expect(await explainSelf(t, member, 'p', ws)).toMatchObject({ workspace_admin: false, capabilities: [] });
      expect((await t.api.get(`/permissions?user_id=${member.id}&include_groups=true`, { key: member.key })).body).toEqual([]);
      expect(await workspacesOf(member.key)).toEqual([0]);
    }
  });

  it('lists a Workspace for an ALL-of grant only to members of every group it names', async () => {
    const ws = await createWorkspace(db());
    const [first, second] = [await createGroup(db()), await createGroup(db())];
    const inBoth = await memberOf(t);
    const inOne = await memberOf(t);
    await addMember(db(), first, inBoth.id);
    await addMember(db(), second, inBoth.id);
    await addMember(db(), first, inOne.id);
    await grantAsSite(t, { path: `_/Workspaces/${ws}/shared`, group_ids: [first, second], permission: 'readonly' });
    expect(await workspacesOf(inBoth.key)).toEqual([0, ws]);
    expect(await workspacesOf(inOne.key)).toEqual([0]);
  });

  it('rule 6: removing a member ends what it had through the group; direct and other-group grants stay', async () => {
    const ws = await createWorkspace(db());
    const adminGroup = await createGroup(db());
    const readers = await createGroup(db());
    const leaving = await memberOf(t);
    const staying = await memberOf(t);
    for (const member of [leaving, staying]) await addMember(db(), adminGroup, member.id);
    await addMember(db(), readers, leaving.id);
    const peer = await createUser(db(), { workspaceId: ws });
    await grantAsSite(t, { path: `_/Workspaces/${ws}`, group_id: adminGroup, permission: 'admin' });
    const direct = await grantAsSite(t, { path: `_/Workspaces/${ws}/Mine`, user_id: leaving.id, permission: 'writeonly' });
    const viaReaders = await grantAsSite(t, { path: `_/Workspaces/${ws}/Shared`, group_id: readers, permission: 'readonly' });
    expect((await tryDelegate(t, leaving, { workspace: ws, path: 'p', granteeId: peer.id })).status).toBe(201);

    await removeMember(adminGroup, leaving.id);
    expectError(await tryDelegate(t, leaving, { workspace: ws, path: 'p', granteeId: peer.id }), 403, 'not-authorized/folder-admin-permission-required');
    expect((await explainSelf(t, leaving, '', ws)).workspace_admin).toBe(false);
    expect((await explainSelf(t, leaving, 'Mine/upload.bin', ws)).capabilities).toEqual(['write']);
    expect((await explainSelf(t, leaving, 'Shared/doc.pdf', ws)).capabilities).toEqual(['list', 'read']);
    const listed = await t.api.get(`/permissions?user_id=${leaving.id}&include_groups=true`, { key: leaving.key, workspace: ws });
    expect(ids(listed.body)).toEqual([direct, viaReaders]);
    // The member who stayed keeps the group's authority.
    expect((await tryDelegate(t, staying, { workspace: ws, path: 'p', granteeId: peer.id })).status).toBe(201);
  });

  it('rule 7: a Default Workspace user key and session follow permission changes without being recreated', async () => {
    const ws = await createWorkspace(db());
    const member = await memberOf(t);
    const session = await createSession(db(), member.id, t.clock.now());
    const peer = await createUser(db(), { workspaceId: ws });
    const body = { path: 'k', user_id: peer.id, permission: 'list' };
    expectError(await t.api.post('/permissions', body, { key: member.key, workspace: ws }), 403, 'not-authorized/folder-admin-permission-required');
    const grant = await grantAsSite(t, { path: `_/Workspaces/${ws}`, user_id: member.id, permission: 'admin' });
    for (const credential of [{ key: member.key }, { session }]) {
      const created = await t.api.post('/permissions', body, { ...credential, workspace: ws });
      expect(created.status).toBe(201);
    }
    await t.api.delete(`/permissions/${grant}`, { key: BOOTSTRAP_KEY });
    for (const credential of [{ key: member.key }, { session }]) {
      expectError(await t.api.post('/permissions', body, { ...credential, workspace: ws }), 403, 'not-authorized/folder-admin-permission-required');
    }
  });

  it('rule 8: a Group Admin adding a member passes on the group\'s Workspace Administrator access', async () => {
    const ws = await createWorkspace(db());
    const group = await createGroup(db());
    const groupAdmin = await createUser(db());
    await addMember(db(), group, groupAdmin.id, true);
    await grantAsSite(t, { path: `_/Workspaces/${ws}`, group_id: group, permission: 'admin' });
    const newcomer = await memberOf(t);
    const peer = await createUser(db(), { workspaceId: ws });
    expectError(await tryDelegate(t, newcomer, { workspace: ws, path: 'n', granteeId: peer.id }), 403, 'not-authorized/folder-admin-permission-required');
    // What POST /group_users by the Group Admin stores: a membership row.
    await addMember(db(), group, newcomer.id);
    expect((await explainSelf(t, newcomer, '', ws)).workspace_admin).toBe(true);
    expect((await tryDelegate(t, newcomer, { workspace: ws, path: 'n', granteeId: peer.id })).status).toBe(201);
  });

  it('rules 8 and 6 through /group_users: a Group Admin\'s own key adds and removes a member, passing on and taking back the access', async () => {
    const ws = await createWorkspace(db());
    const group = await createGroup(db());
    const groupAdmin = await memberOf(t);
    await addMember(db(), group, groupAdmin.id, true);
    await grantAsSite(t, { path: `_/Workspaces/${ws}`, group_id: group, permission: 'admin' });
    const newcomer = await memberOf(t);
    const peer = await createUser(db(), { workspaceId: ws });

    const added = await t.api.post('/group_users', { group_id: group, user_id: newcomer.id }, { key: groupAdmin.key });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect((await tryDelegate(t, newcomer, { workspace: ws, path: 'n', granteeId: peer.id })).status).toBe(201);
    const removed = await t.api.delete(`/group_users/${added.body.id}`, { key: groupAdmin.key, body: { id: added.body.id, group_id: group, user_id: newcomer.id } });
    expect(removed.status).toBeLessThan(300);
    expectError(await tryDelegate(t, newcomer, { workspace: ws, path: 'n', granteeId: peer.id }), 403, 'not-authorized/folder-admin-permission-required');
  });

  it('rule 9: membership in several groups combines their access', async () => {
    const ws = await createWorkspace(db());
    const readers = await createGroup(db(), { workspaceId: ws });
    const writers = await createGroup(db(), { workspaceId: ws });
    const historians = await createGroup(db(), { workspaceId: ws });
    const member = await memberOf(t, { workspaceId: ws });
    for (const group of [readers, writers, historians]) await addMember(db(), group, member.id);
    const r = await grantAsSite(t, { path: 'Docs', group_id: readers, permission: 'readonly' }, ws);
    const w = await grantAsSite(t, { path: 'Docs', group_id: writers, permission: 'writeonly' }, ws);
    const h = await grantAsSite(t, { path: '', group_id: historians, permission: 'history' }, ws);
    const explained = await explainSelf(t, member, 'Docs/a.txt', ws);
    expect(explained.capabilities).toEqual(['list', 'read', 'write', 'history']);
    const sources = new Set(explained.reasons.map((reason: any) => `${reason.permission_id}:${reason.group_id}`));
    expect(sources).toEqual(new Set([`${r}:${readers}`, `${w}:${writers}`, `${h}:${historians}`]));
  });

  it('ALL-of: a member of only one of the groups gets nothing; a member of all gets the grant', async () => {
    const ws = await createWorkspace(db());
    const legal = await createGroup(db(), { workspaceId: ws });
    const managers = await createGroup(db(), { workspaceId: ws });
    const both = await memberOf(t, { workspaceId: ws });
    const onlyLegal = await memberOf(t, { workspaceId: ws });
    await addMember(db(), legal, both.id);
    await addMember(db(), managers, both.id);
    await addMember(db(), legal, onlyLegal.id);
    const grant = await grantAsSite(t, { path: 'Contracts', group_ids: `${legal},${managers}`, permission: 'admin' }, ws);

    const full = await explainSelf(t, both, 'Contracts/nda.pdf', ws);
    expect(full.folder_admin).toBe(true);
    expect(full.reasons).toContainEqual(expect.objectContaining({ role: 'folder_admin', permission_id: grant, via: 'groups', group_ids: [legal, managers].sort((a, b) => a - b) }));
    const partial = await explainSelf(t, onlyLegal, 'Contracts/nda.pdf', ws);
    expect(partial).toMatchObject({ folder_admin: false, capabilities: [] });
    const peer = await createUser(db(), { workspaceId: ws });
    expect((await tryDelegate(t, both, { workspace: ws, path: 'Contracts', granteeId: peer.id })).status).toBe(201);
    expectError(await tryDelegate(t, onlyLegal, { workspace: ws, path: 'Contracts', granteeId: peer.id }), 403, 'not-authorized/folder-admin-permission-required');
    const listed = await t.api.get(`/permissions?user_id=${both.id}&include_groups=true`, { key: both.key });
    expect(ids(listed.body)).toEqual([grant]);
    const notListed = await t.api.get(`/permissions?user_id=${onlyLegal.id}&include_groups=true`, { key: onlyLegal.key });
    expect(notListed.body).toEqual([]);
  });

  it('selecting a Workspace grants nothing: a member without grants sees nothing and may delegate nothing there', async () => {
    const ws = await createWorkspace(db());
    await grantAsSite(t, { path: 'secret', user_id: (await createUser(db(), { workspaceId: ws })).id, permission: 'full' }, ws);
    const outsider = await memberOf(t);
    expect((await t.api.get('/permissions', { key: outsider.key, workspace: ws })).body).toEqual([]);
    expect(await explainSelf(t, outsider, 'secret', ws)).toMatchObject({ capabilities: [], near_misses: [], workspace_admin: false });
    expectError(await tryDelegate(t, outsider, { workspace: ws, path: 'secret', granteeId: outsider.id }), 403, 'not-authorized/folder-admin-permission-required');
  });

  it('workspace_admin stays a membership flag: a root grant makes a Default Workspace user administrator without setting it', async () => {
    const ws = await createWorkspace(db());
    const group = await createGroup(db());
    const member = await memberOf(t);
    await addMember(db(), group, member.id);
    await grantAsSite(t, { path: `_/Workspaces/${ws}`, group_id: group, permission: 'admin' });
    expect((await explainSelf(t, member, '', ws)).workspace_admin).toBe(true);
    const row = await db().selectFrom('users').select('workspace_admin').where('id', '=', member.id).executeTakeFirstOrThrow();
    expect(Boolean(row.workspace_admin)).toBe(false);
  });
});
