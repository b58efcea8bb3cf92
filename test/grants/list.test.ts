import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createGroup, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { expectError, grantAsSite, ids, memberOf, type Member } from './grants-support.js';

describe.each(testDatabaseTargets())('GET /permissions [$name]', (target) => {
  let t: TestApp;
  let ws: number;
  let otherWs: number;
  let wsAdmin: Member;
  let folderAdmin: Member;
  let alice: Member;
  let zeroUser: Member;
  let team: number;
  const g: Record<string, number> = {};

  // In ws (wsAdmin administers it by flag): Finance admin -> folderAdmin; Finance/Q1 readonly -> alice;
  // Finance/Q1/Drafts writeonly, not recursive -> alice; Marketing full -> team (alice is a member);
  // the root, history -> alice. In otherWs: Elsewhere full -> one of its users. In 0: Top readonly -> zeroUser.
  beforeAll(async () => {
    t = await startTestApp(target);
    const db = t.database.db;
    ws = await createWorkspace(db);
    otherWs = await createWorkspace(db);
    wsAdmin = await memberOf(t, { workspaceId: ws, workspaceAdmin: true });
    folderAdmin = await memberOf(t, { workspaceId: ws });
    alice = await memberOf(t, { workspaceId: ws });
    zeroUser = await memberOf(t);
    team = await createGroup(db, { workspaceId: ws });
    await addMember(db, team, alice.id);
    g.finance = await grantAsSite(t, { path: 'Finance', user_id: folderAdmin.id, permission: 'admin' }, ws);
    g.q1 = await grantAsSite(t, { path: 'Finance/Q1', user_id: alice.id, permission: 'readonly' }, ws);
    g.drafts = await grantAsSite(t, { path: 'Finance/Q1/Drafts', user_id: alice.id, permission: 'writeonly', recursive: false }, ws);
    g.marketing = await grantAsSite(t, { path: 'Marketing', group_id: team, permission: 'full' }, ws);
    g.root = await grantAsSite(t, { path: '', user_id: alice.id, permission: 'history', recursive: true }, ws);
    g.elsewhere = await grantAsSite(t, { path: 'Elsewhere', user_id: (await createUser(db, { workspaceId: otherWs })).id, permission: 'full' }, otherWs);
    g.top = await grantAsSite(t, { path: 'Top', user_id: zeroUser.id, permission: 'readonly' });
  });
  afterAll(() => t.close());

  const list = (query: string, options: { key?: string; workspace?: number } = {}) =>
    t.api.get(`/permissions${query}`, { key: BOOTSTRAP_KEY, ...options });

  describe('who sees what', () => {
    it('a Site Administrator in context 0 sees every Workspace\'s grants, qualified, by id', async () => {
      const response = await list('');
      expect(response.status).toBe(200);
      expect(ids(response.body)).toEqual(Object.values(g).sort((a, b) => a - b));
      expect(response.body.find((p: any) => p.id === g.q1).path).toBe(`_/Workspaces/${ws}/Finance/Q1`);
      expect(response.body.find((p: any) => p.id === g.root).path).toBe(`_/Workspaces/${ws}`);
      expect(response.body.find((p: any) => p.id === g.top).path).toBe('Top');
    });

    it('in context N everyone sees only grants in N, with relative paths', async () => {
      const response = await list('', { workspace: ws });
      expect(ids(response.body)).toEqual([g.finance, g.q1, g.drafts, g.marketing, g.root]);
      expect(response.body.map((p: any) => p.path)).toEqual(['Finance', 'Finance/Q1', 'Finance/Q1/Drafts', 'Marketing', '']);
      expect(response.body.find((p: any) => p.id === g.marketing)).toMatchObject({ group_id: team, group_name: expect.any(String), user_id: null, username: null });
    });

    it('an administrator of the context sees every grant in it, and nothing outside', async () => {
      const response = await list('', { key: wsAdmin.key });
      expect(ids(response.body)).toEqual([g.finance, g.q1, g.drafts, g.marketing, g.root]);
    });

    it('a Folder Admin sees the grants on its subtree, and its own', async () => {
      const response = await list('', { key: folderAdmin.key });
      expect(ids(response.body)).toEqual([g.finance, g.q1, g.drafts]);
    });

    it('a regular user sees its own grants, through its groups too', async () => {
      const response = await list('', { key: alice.key });
      expect(ids(response.body)).toEqual([g.q1, g.drafts, g.marketing, g.root]);
      const zero = await list('', { key: zeroUser.key });
      expect(ids(zero.body)).toEqual([g.top]);
    });

    it('a Default Workspace user administering N through a grant sees N\'s grants from context 0, qualified', async () => {
      const delegate = await memberOf(t);
      const rootGrant = await grantAsSite(t, { path: `_/Workspaces/${ws}`, user_id: delegate.id, permission: 'admin' });
      const fromZero = await list('', { key: delegate.key });
      expect(ids(fromZero.body)).toEqual([g.finance, g.q1, g.drafts, g.marketing, g.root, rootGrant]);
      expect(fromZero.body[0].path).toBe(`_/Workspaces/${ws}/Finance`);
      const inside = await list('', { key: delegate.key, workspace: ws });
      expect(inside.body.map((p: any) => p.path)).toEqual(['Finance', 'Finance/Q1', 'Finance/Q1/Drafts', 'Marketing', '', '']);
      await t.api.delete(`/permissions/${rootGrant}`, { key: BOOTSTRAP_KEY });
      expect((await list('', { key: delegate.key })).body).toEqual([]);
    });
  });

  describe('filters', () => {
    it('user_id alone gives direct grants; include_groups adds group grants', async () => {
      expect(ids((await list(`?user_id=${alice.id}`, { workspace: ws })).body)).toEqual([g.q1, g.drafts, g.root]);
      expect(ids((await list(`?user_id=${alice.id}&include_groups=true`, { workspace: ws })).body)).toEqual([g.q1, g.drafts, g.marketing, g.root]);
      expect(ids((await list(`?user_id=${alice.id}&include_groups=false`, { workspace: ws })).body)).toEqual([g.q1, g.drafts, g.root]);
      expect(ids((await list(`?filter[user_id]=${alice.id}`, { workspace: ws })).body)).toEqual([g.q1, g.drafts, g.root]);
    });

    it('any user may list its own grants; naming a user out of reach is user-not-found', async () => {
      expect(ids((await list(`?user_id=${alice.id}&include_groups=true`, { key: alice.key })).body)).toEqual([g.q1, g.drafts, g.marketing, g.root]);
      expectError(await list(`?user_id=${folderAdmin.id}`, { key: alice.key }), 404, 'not-found/user-not-found');
      expectError(await list(`?user_id=${zeroUser.id}`, { key: wsAdmin.key }), 404, 'not-found/user-not-found');
      expectError(await list('?user_id=987654'), 404, 'not-found/user-not-found');
    });

    it('a Folder Admin may name users of its Workspace and sees only their grants in its subtree', async () => {
      expect(ids((await list(`?user_id=${alice.id}&include_groups=true`, { key: folderAdmin.key })).body)).toEqual([g.q1, g.drafts]);
    });

    it('group_id lists grants to that group; a group out of reach is group-not-found', async () => {
      expect(ids((await list(`?group_id=${team}`, { workspace: ws })).body)).toEqual([g.marketing]);
      expect(ids((await list(`?group_id=${team}`, { key: alice.key })).body)).toEqual([g.marketing]);
      expectError(await list(`?group_id=${team}`, { key: zeroUser.key }), 404, 'not-found/group-not-found');
      expectError(await list('?group_id=987654'), 404, 'not-found/group-not-found');
    });

    it('path gives the grants on the path and on ancestors that cover it', async () => {
      const onQ1 = await list('?path=finance/q1', { workspace: ws });
      expect(ids(onQ1.body)).toEqual([g.finance, g.q1, g.root]);
      // A non-recursive grant covers the files directly in its folder, not deeper and not subfolders.
      const fileInDrafts = await list('?path=Finance/Q1/Drafts/a.txt', { workspace: ws });
      expect(ids(fileInDrafts.body)).toEqual([g.finance, g.q1, g.drafts, g.root]);
      const deeper = await list('?path=Finance/Q1/Drafts/sub/a.txt', { workspace: ws });
      expect(ids(deeper.body)).toEqual([g.finance, g.q1, g.root]);
      await t.database.db.insertInto('entries').values({
        path: `_/Workspaces/${ws}/Finance/Q1/Drafts/Folder`, path_key: `_/workspaces/${ws}/finance/q1/drafts/folder`,
        parent_key: `_/workspaces/${ws}/finance/q1/drafts`, type: 'directory', size: null, storage_key: null, created_at: 0, mtime: 0,
      }).execute();
      expect(ids((await list('?path=Finance/Q1/Drafts/Folder', { workspace: ws })).body)).toEqual([g.finance, g.q1, g.root]);
      expect(ids((await list('?path=Marketing2', { workspace: ws })).body)).toEqual([g.root]);
      expect(ids((await list('?path=/', { workspace: ws })).body)).toEqual([g.root]);
      expect(ids((await list(`?path=_/Workspaces/${ws}/Finance`)).body)).toEqual([g.finance, g.root]);
    });

    it('filters combine', async () => {
      expect(ids((await list(`?path=Finance/Q1&user_id=${alice.id}`, { workspace: ws })).body)).toEqual([g.q1, g.root]);
      expect(ids((await list(`?path=Marketing&user_id=${alice.id}&include_groups=true`, { key: alice.key })).body)).toEqual([g.marketing, g.root]);
    });

    it('refuses malformed parameters with bad-request, never a 500', async () => {
      expectError(await list('?user_id=abc'), 400, 'bad-request/request-params-invalid');
      expectError(await list('?include_groups=maybe'), 400, 'bad-request/request-params-invalid');
      expectError(await list('?path=../etc', { workspace: ws }), 400, 'bad-request/invalid-path');
      expectError(await list('?per_page=0'), 400, 'bad-request/request-params-invalid');
      expectError(await list('?cursor=not-a-cursor'), 400, 'bad-request/invalid-cursor');
    });
  });

  it('pages by id with the cursor header, absent on the last page', async () => {
    const first = await list('?per_page=3');
    expect(ids(first.body)).toHaveLength(3);
    const cursor = first.headers.get('x-service-cursor');
    expect(cursor).toBeTruthy();
    expect(first.headers.get('x-service-cursor-next')).toBe(cursor);
    // Asked again with nothing changed, the page is the kept one: the same body and the same cursor headers.
    const again = await list('?per_page=3');
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('x-service-cursor')).toBe(cursor);
    expect(again.headers.get('x-service-cursor-next')).toBe(cursor);
    const rest = await list(`?per_page=3&cursor=${encodeURIComponent(cursor as string)}`);
    const third = await list(`?per_page=3&cursor=${encodeURIComponent(rest.headers.get('x-service-cursor') as string)}&page=3`);
    expect(third.headers.get('x-service-cursor')).toBeNull();
    expect([...ids(first.body), ...ids(rest.body), ...ids(third.body)]).toEqual(Object.values(g).sort((a, b) => a - b));
    const workspaceCursor = await t.api.get(`/workspaces?cursor=${encodeURIComponent(cursor as string)}`, { key: BOOTSTRAP_KEY });
    expectError(workspaceCursor, 400, 'bad-request/invalid-cursor');
  });

  it('a listing or an explanation asked again shows a change made in between, never the answer given before it', async () => {
    const db = t.database.db;
    const bob = await memberOf(t, { workspaceId: ws });
    const sales = await createGroup(db, { workspaceId: ws });
    const salesGrant = await grantAsSite(t, { path: 'Sales', group_id: sales, permission: 'full' }, ws);
    const bobsGrants = async () => ids((await list(`?user_id=${bob.id}&include_groups=true`, { key: wsAdmin.key })).body);
    const bobsCapabilities = async () =>
      (await t.api.get(`/permissions/explain?path=Sales&user_id=${bob.id}`, { key: wsAdmin.key })).body.capabilities;
    expect(await bobsGrants()).toEqual([]);
    expect(await bobsCapabilities()).toEqual([]);
    await addMember(db, sales, bob.id);
    expect(await bobsGrants()).toEqual([salesGrant]);
    expect((await bobsCapabilities()).length).toBeGreaterThan(0);
    const bobsOwn = await grantAsSite(t, { path: 'Sales/Leads', user_id: bob.id, permission: 'readonly' }, ws);
    expect(await bobsGrants()).toEqual([salesGrant, bobsOwn]);
    await db.deleteFrom('group_users').where('group_id', '=', sales).where('user_id', '=', bob.id).execute();
    expect(await bobsGrants()).toEqual([bobsOwn]);
    expect(await bobsCapabilities()).toEqual([]);
  });

  it('answers on /permissions.json', async () => {
    const response = await t.api.get(`/permissions.json?user_id=${zeroUser.id}`, { key: zeroUser.key });
    expect(ids(response.body)).toEqual([g.top]);
  });
});
