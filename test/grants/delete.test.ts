import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createGroup, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { expectError, explainSelf, grantAsSite, memberOf } from './grants-support.js';

describe.each(testDatabaseTargets())('DELETE /permissions/<id> [$name]', (target) => {
  let t: TestApp;
  let ws: number;
  let otherWs: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    ws = await createWorkspace(t.database.db);
    otherWs = await createWorkspace(t.database.db);
  });
  afterAll(() => t.close());

  const exists = async (id: number) => (await t.database.db.selectFrom('permissions').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  it('answers 204 with no body and no JSON content type, ignoring the id the SDK repeats in the body', async () => {
    const user = await createUser(t.database.db, { workspaceId: ws });
    const grant = await grantAsSite(t, { path: 'd', user_id: user.id, permission: 'full' }, ws);
    const response = await t.api.delete(`/permissions/${grant}`, { key: BOOTSTRAP_KEY, body: { id: grant } });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(response.headers.get('content-type')).toBeNull();
    expect(await exists(grant)).toBe(false);
    expectError(await t.api.delete(`/permissions/${grant}`, { key: BOOTSTRAP_KEY }), 404, 'not-found/permission-not-found');
  });

  it('answers on /permissions/<id>.json and removes the ALL-of group rows', async () => {
    const a = await createGroup(t.database.db, { workspaceId: ws });
    const b = await createGroup(t.database.db, { workspaceId: ws });
    const grant = await grantAsSite(t, { path: 'd2', group_ids: [a, b], permission: 'list' }, ws);
    const response = await t.api.delete(`/permissions/${grant}.json`, { key: BOOTSTRAP_KEY, workspace: ws, body: { id: grant } });
    expect(response.status).toBe(204);
    expect(await t.database.db.selectFrom('permission_groups').selectAll().where('permission_id', '=', grant).execute()).toEqual([]);
  });

  it('answers unknown ids, bad ids and grants outside the context with not-found or bad-request', async () => {
    expectError(await t.api.delete('/permissions/987654', { key: BOOTSTRAP_KEY }), 404, 'not-found/permission-not-found');
    expectError(await t.api.delete('/permissions/abc', { key: BOOTSTRAP_KEY }), 400, 'bad-request/request-params-invalid');
    const user = await createUser(t.database.db, { workspaceId: otherWs });
    const grant = await grantAsSite(t, { path: 'x', user_id: user.id, permission: 'full' }, otherWs);
    expectError(await t.api.delete(`/permissions/${grant}`, { key: BOOTSTRAP_KEY, workspace: ws }), 404, 'not-found/permission-not-found');
    expect(await exists(grant)).toBe(true);
  });

  it('is not-found for a grant the caller may not see, and refused for its own grant it may not manage', async () => {
    const member = await memberOf(t, { workspaceId: ws });
    const stranger = await createUser(t.database.db, { workspaceId: ws });
    const notMine = await grantAsSite(t, { path: 'n', user_id: stranger.id, permission: 'full' }, ws);
    const mine = await grantAsSite(t, { path: 'm', user_id: member.id, permission: 'full' }, ws);
    expectError(await t.api.delete(`/permissions/${notMine}`, { key: member.key }), 404, 'not-found/permission-not-found');
    expectError(await t.api.delete(`/permissions/${mine}`, { key: member.key }), 403, 'not-authorized/folder-admin-permission-required');
    expect(await exists(notMine)).toBe(true);
    expect(await exists(mine)).toBe(true);
  });

  it('lets a Folder Admin delete grants in its subtree only', async () => {
    const folderAdmin = await memberOf(t, { workspaceId: ws });
    const user = await createUser(t.database.db, { workspaceId: ws });
    await grantAsSite(t, { path: 'Area', user_id: folderAdmin.id, permission: 'admin' }, ws);
    const inside = await grantAsSite(t, { path: 'Area/Sub', user_id: user.id, permission: 'full' }, ws);
    const outside = await grantAsSite(t, { path: 'Elsewhere', user_id: user.id, permission: 'full' }, ws);
    expect((await t.api.delete(`/permissions/${inside}`, { key: folderAdmin.key })).status).toBe(204);
    expectError(await t.api.delete(`/permissions/${outside}`, { key: folderAdmin.key }), 404, 'not-found/permission-not-found');
    expect(await exists(outside)).toBe(true);
  });

  it('leaves a cross-Workspace grant to the Site Administrator, even for the Workspace Administrator it empowers', async () => {
    const group = await createGroup(t.database.db);
    const delegate = await memberOf(t);
    await addMember(t.database.db, group, delegate.id);
    const rootGrant = await grantAsSite(t, { path: `_/Workspaces/${ws}`, group_id: group, permission: 'admin' });
    const wsAdmin = await memberOf(t, { workspaceId: ws, workspaceAdmin: true });
    for (const member of [delegate, wsAdmin]) {
      expectError(await t.api.delete(`/permissions/${rootGrant}`, { key: member.key, workspace: ws }), 403, 'not-authorized/site-admin-required');
    }
    expect((await explainSelf(t, delegate, '', ws)).workspace_admin).toBe(true);
    expect((await t.api.delete(`/permissions/${rootGrant}`, { key: BOOTSTRAP_KEY })).status).toBe(204);
    expect((await explainSelf(t, delegate, '', ws)).workspace_admin).toBe(false);
  });

  it('lets a Workspace Administrator delete grants of its own users and groups in its Workspace', async () => {
    const wsAdmin = await memberOf(t, { workspaceId: ws, workspaceAdmin: true });
    const group = await createGroup(t.database.db, { workspaceId: ws });
    const grant = await grantAsSite(t, { path: 'g', group_id: group, permission: 'admin' }, ws);
    expect((await t.api.delete(`/permissions/${grant}`, { key: wsAdmin.key })).status).toBe(204);
    expect(await exists(grant)).toBe(false);
  });
});
