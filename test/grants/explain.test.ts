import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createGroup, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { expectError, explainSelf, grantAsSite, memberOf } from './grants-support.js';

describe.each(testDatabaseTargets())('GET /permissions/explain [$name]', (target) => {
  let t: TestApp;
  let ws: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    ws = await createWorkspace(t.database.db);
  });
  afterAll(() => t.close());

  const explain = (query: string, options: { key?: string; workspace?: number } = {}) =>
    t.api.get(`/permissions/explain?${query}`, { key: BOOTSTRAP_KEY, workspace: ws, ...options });

  it('explains the caller with every field of contract 5.5, reasons naming the grant and the group', async () => {
    const group = await createGroup(t.database.db, { workspaceId: ws });
    const member = await memberOf(t, { workspaceId: ws });
    await addMember(t.database.db, group, member.id);
    const grant = await grantAsSite(t, { path: 'Plans', group_id: group, permission: 'readonly' }, ws);
    const body = await explainSelf(t, member, 'Plans/2026.pdf', ws);
    expect(body).toMatchObject({
      path: 'Plans/2026.pdf', type: 'file', workspace_id: ws, user_id: member.id,
      site_admin: false, workspace_admin: false, folder_admin: false, capabilities: ['list', 'read'], near_misses: [],
    });
    expect(body.reasons).toEqual(['list', 'read'].map((capability) => ({
      kind: 'capability', capability, role: null, source: 'grant', permission_id: grant, path: 'Plans', permission: 'readonly', recursive: true,
      via: 'group', group_id: group, group_name: expect.any(String), group_ids: [], group_names: [], partner_id: null, partner_name: null, workspace_id: ws,
    })));
  });

  it('explains a Site Administrator by its role, and a site-wide key without a user', async () => {
    const siteWide = await explain('path=x');
    expect(siteWide.status).toBe(200);
    expect(siteWide.body).toMatchObject({ user_id: null, site_admin: true, workspace_admin: false, capabilities: ['list', 'read', 'write', 'delete', 'history', 'share', 'manage'] });
    expect(siteWide.body.reasons[0]).toMatchObject({ kind: 'role', role: 'site_admin', source: 'site_admin', permission_id: null });
  });

  it('shows the near miss of an ALL-of grant with the missing group, to whoever may list it', async () => {
    const legal = await createGroup(t.database.db, { workspaceId: ws, name: `Legal ${ws}` });
    const managers = await createGroup(t.database.db, { workspaceId: ws, name: `Managers ${ws}` });
    const member = await memberOf(t, { workspaceId: ws });
    await addMember(t.database.db, legal, member.id);
    const grant = await grantAsSite(t, { path: 'Contracts', group_ids: [legal, managers], permission: 'full' }, ws);
    const byAdmin = await explain(`path=Contracts/nda.pdf&user_id=${member.id}`);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.capabilities).toEqual([]);
    expect(byAdmin.body.near_misses).toEqual([expect.objectContaining({
      id: grant, path: 'Contracts', permission: 'full', group_ids: [legal, managers].sort((a, b) => a - b),
      reasons: [{ code: 'missing_groups', user_id: null, username: null, group_id: null, group_name: null, partner_id: null, partner_name: null, missing_group_ids: [managers], missing_group_names: [`Managers ${ws}`] }],
    })]);
    // The member itself may not list a grant that does not name it: no near miss for it.
    expect((await explainSelf(t, member, 'Contracts/nda.pdf', ws)).near_misses).toEqual([]);
    await addMember(t.database.db, managers, member.id);
    const nowBoth = await explainSelf(t, member, 'Contracts/nda.pdf', ws);
    expect(nowBoth.capabilities).toEqual(['list', 'read', 'write', 'delete']);
    expect(nowBoth.reasons[0]).toMatchObject({ via: 'groups', group_names: [`Legal ${ws}`, `Managers ${ws}`] });
  });

  it('explains a path that does not exist as a file; type or an existing entry says otherwise', async () => {
    const member = await memberOf(t, { workspaceId: ws });
    const grant = await grantAsSite(t, { path: 'Box', user_id: member.id, permission: 'readonly', recursive: false }, ws);
    const asFile = await explainSelf(t, member, 'Box/item', ws);
    expect(asFile).toMatchObject({ type: 'file', capabilities: ['list', 'read'] });
    const asDirectory = await explainSelf(t, member, 'Box/item', ws, '&type=directory');
    expect(asDirectory).toMatchObject({ type: 'directory', capabilities: [] });
    expect(asDirectory.near_misses).toEqual([expect.objectContaining({ id: grant, reasons: [expect.objectContaining({ code: 'not_recursive' })] })]);
    await t.database.db.insertInto('entries').values({
      path: `_/Workspaces/${ws}/Box/Sub`, path_key: `_/workspaces/${ws}/box/sub`, parent_key: `_/workspaces/${ws}/box`,
      type: 'directory', size: null, storage_key: null, created_at: 0, mtime: 0,
    }).execute();
    expect(await explainSelf(t, member, 'box/sub', ws)).toMatchObject({ type: 'directory', capabilities: [] });
  });

  it('lets only a caller that may list the user\'s grants ask about it', async () => {
    const member = await memberOf(t, { workspaceId: ws });
    const colleague = await createUser(t.database.db, { workspaceId: ws });
    const wsAdmin = await memberOf(t, { workspaceId: ws, workspaceAdmin: true });
    const zero = await createUser(t.database.db);
    expectError(await explain(`path=x&user_id=${colleague.id}`, { key: member.key }), 404, 'not-found/user-not-found');
    expectError(await explain('path=x&user_id=987654'), 404, 'not-found/user-not-found');
    expectError(await explain(`path=x&user_id=${zero.id}`, { key: wsAdmin.key }), 404, 'not-found/user-not-found');
    expect((await explain(`path=x&user_id=${colleague.id}`, { key: wsAdmin.key })).status).toBe(200);
    expect((await explain(`path=x&user_id=${member.id}`, { key: member.key })).body.user_id).toBe(member.id);
  });

  it('lets an administrator by a group\'s root grant, or a Folder Admin through a group, ask about its Workspace\'s users only', async () => {
    const [mine, other] = [await createWorkspace(t.database.db), await createWorkspace(t.database.db)];
    const admins = await createGroup(t.database.db, { workspaceId: mine });
    const byGroup = await memberOf(t, { workspaceId: mine });
    await addMember(t.database.db, admins, byGroup.id);
    await grantAsSite(t, { path: '', group_id: admins, permission: 'admin' }, mine);
    const folderAdmins = await createGroup(t.database.db, { workspaceId: other });
    const folderAdmin = await memberOf(t, { workspaceId: other });
    await addMember(t.database.db, folderAdmins, folderAdmin.id);
    await grantAsSite(t, { path: 'Projects', group_id: folderAdmins, permission: 'admin' }, other);
    const colleague = await createUser(t.database.db, { workspaceId: mine });
    const elsewhere = await createUser(t.database.db, { workspaceId: other });
    const hidden = await grantAsSite(t, { path: 'Deep', user_id: colleague.id, permission: 'readonly' }, mine);

    const asked = await explain(`path=Deep/a.txt&user_id=${colleague.id}`, { key: byGroup.key, workspace: mine });
    expect(asked.status).toBe(200);
    expect(asked.body.reasons).toContainEqual(expect.objectContaining({ capability: 'read', source: 'grant', permission_id: hidden }));
    // Its authority stops at its Workspace, and the Folder Admin's at its own subtree.
    expectError(await explain(`path=Deep/a.txt&user_id=${elsewhere.id}`, { key: byGroup.key, workspace: mine }), 404, 'not-found/user-not-found');
    expect((await explain(`path=Projects/a.txt&user_id=${elsewhere.id}`, { key: folderAdmin.key, workspace: other })).status).toBe(200);
    expectError(await explain(`path=Elsewhere/a.txt&user_id=${elsewhere.id}`, { key: folderAdmin.key, workspace: other }), 404, 'not-found/user-not-found');
    // Out of the group, nothing.
    await t.database.db.deleteFrom('group_users').where('group_id', '=', folderAdmins).execute();
    expectError(await explain(`path=Projects/a.txt&user_id=${elsewhere.id}`, { key: folderAdmin.key, workspace: other }), 404, 'not-found/user-not-found');
  });

  it('withholds the grants a Folder Admin may not list, while they still count', async () => {
    const folderAdmin = await memberOf(t, { workspaceId: ws });
    const member = await memberOf(t, { workspaceId: ws });
    const other = await createUser(t.database.db, { workspaceId: ws });
    const dept = await grantAsSite(t, { path: 'Dept', user_id: folderAdmin.id, permission: 'admin' }, ws);
    const above = await grantAsSite(t, { path: '', user_id: member.id, permission: 'list' }, ws);
    const inside = await grantAsSite(t, { path: 'Dept/Team', user_id: member.id, permission: 'writeonly' }, ws);
    const othersAbove = await grantAsSite(t, { path: '', user_id: other.id, permission: 'full', recursive: false }, ws);
    const response = await explain(`path=Dept/Team/a.txt&user_id=${member.id}`, { key: folderAdmin.key });
    expect(response.status).toBe(200);
    expect(response.body.capabilities).toEqual(['list', 'write']);
    expect(response.body.reasons).toContainEqual(expect.objectContaining({ capability: 'list', source: 'hidden_grant', permission_id: null, path: null }));
    expect(response.body.reasons).toContainEqual(expect.objectContaining({ capability: 'write', source: 'grant', permission_id: inside, path: 'Dept/Team' }));
    const mentioned = JSON.stringify(response.body);
    // Its own grant on Dept is one it may list: a near miss for the member, who is another user.
    expect(response.body.near_misses).toEqual([expect.objectContaining({ id: dept, reasons: [expect.objectContaining({ code: 'other_user', user_id: folderAdmin.id })] })]);
    expect(mentioned).not.toContain(`"permission_id":${above}`);
    expect(mentioned).not.toContain(`"id":${othersAbove}`);
    // About the member elsewhere the Folder Admin learns nothing, not even whether it may ask.
    expectError(await explain(`path=Other/a.txt&user_id=${member.id}`, { key: folderAdmin.key }), 404, 'not-found/user-not-found');
    expectError(await explain(`path=&user_id=${member.id}`, { key: folderAdmin.key }), 404, 'not-found/user-not-found');
    expect((await explain('path=Other/a.txt', { key: folderAdmin.key })).status).toBe(200);
    // The Workspace Administrator sees them all, the other user's grant as a near miss.
    const byAdmin = await explain(`path=Dept/Team/a.txt&user_id=${member.id}`);
    expect(byAdmin.body.near_misses).toEqual([expect.objectContaining({ id: dept }), expect.objectContaining({ id: othersAbove, reasons: [
      expect.objectContaining({ code: 'other_user', user_id: other.id, username: other.username }),
      expect.objectContaining({ code: 'not_recursive' }),
    ] })]);
  });

  it('requires a path, refuses bad ones and bad types', async () => {
    expectError(await explain(''), 400, 'bad-request/request-params-required');
    expectError(await explain('path=a/../../b'), 400, 'bad-request/invalid-path');
    expectError(await explain('path=x&type=link'), 400, 'bad-request/request-params-invalid');
    expectError(await explain('path=x&user_id=me'), 400, 'bad-request/request-params-invalid');
  });

  it('answers on /permissions/explain.json and in context 0 with qualified paths', async () => {
    const member = await memberOf(t);
    const grant = await grantAsSite(t, { path: `_/Workspaces/${ws}/Q`, user_id: member.id, permission: 'list' });
    const response = await t.api.get(`/permissions/explain.json?path=_/Workspaces/${ws}/q/x`, { key: member.key });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ path: `_/Workspaces/${ws}/q/x`, workspace_id: ws, capabilities: ['list'] });
    expect(response.body.reasons[0]).toMatchObject({ permission_id: grant, path: `_/Workspaces/${ws}/Q` });
  });
});
