import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createApiKey, createGroup, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { expectError, grantAsSite, memberOf, type Member } from './grants-support.js';

/** The user ids of a reach answer, in the order given. */
function userIds(body: unknown): number[] {
  expect(Array.isArray(body), JSON.stringify(body)).toBe(true);
  return (body as { user_id: number }[]).map((row) => row.user_id);
}

function rowOf(body: { user_id: number }[], id: number): any {
  const row = body.find((r) => r.user_id === id);
  expect(row, `user ${id} in ${JSON.stringify(body)}`).toBeDefined();
  return row;
}

const ALL = ['list', 'read', 'write', 'delete', 'history', 'share', 'manage'];

describe.each(testDatabaseTargets())('GET /permissions/reach [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  const reach = (ws: number, query: string, key = BOOTSTRAP_KEY) => t.api.get(`/permissions/reach?${query}`, { key, workspace: ws });
  const siteAdminIds = async () => (await t.database.db.selectFrom('users').select('id').where('site_admin', '=', true).execute()).map((r) => r.id);

  /**
   * A Workspace with: a direct grant, a group grant, an ALL-of grant (one member in both groups,
   * one in only one), a Folder Admin of Plans, a Workspace Administrator by root grant and one by
   * flag, a disabled user with a grant, and a user of another path only.
   */
  async function site() {
    const db = t.database.db;
    const ws = await createWorkspace(db);
    const sales = await createGroup(db, { workspaceId: ws, name: `Sales ${ws}` });
    const legal = await createGroup(db, { workspaceId: ws, name: `Legal ${ws}` });
    const direct = await memberOf(t, { workspaceId: ws });
    const viaGroup = await memberOf(t, { workspaceId: ws });
    const both = await memberOf(t, { workspaceId: ws });
    const onlyLegal = await memberOf(t, { workspaceId: ws });
    const folderAdmin = await memberOf(t, { workspaceId: ws });
    const rootAdmin = await memberOf(t, { workspaceId: ws });
    const flagAdmin = await memberOf(t, { workspaceId: ws, workspaceAdmin: true });
    const elsewhere = await memberOf(t, { workspaceId: ws });
    const disabled = await createUser(db, { workspaceId: ws });
    await db.updateTable('users').set({ disabled: true }).where('id', '=', disabled.id).execute();
    await addMember(db, sales, viaGroup.id);
    await addMember(db, sales, both.id);
    await addMember(db, legal, both.id);
    await addMember(db, legal, onlyLegal.id);
    const grants = {
      direct: await grantAsSite(t, { path: 'Plans', user_id: direct.id, permission: 'readonly' }, ws),
      group: await grantAsSite(t, { path: 'Plans', group_id: sales, permission: 'full' }, ws),
      allOf: await grantAsSite(t, { path: 'Plans/2026', group_ids: [sales, legal], permission: 'bundle', recursive: false }, ws),
      folderAdmin: await grantAsSite(t, { path: 'Plans', user_id: folderAdmin.id, permission: 'admin' }, ws),
      root: await grantAsSite(t, { path: '', user_id: rootAdmin.id, permission: 'admin' }, ws),
      disabled: await grantAsSite(t, { path: 'Plans', user_id: disabled.id, permission: 'full' }, ws),
      elsewhere: await grantAsSite(t, { path: 'Other', user_id: elsewhere.id, permission: 'full' }, ws),
      directAgain: await grantAsSite(t, { path: 'Plans/2026', user_id: direct.id, permission: 'writeonly' }, ws),
    };
    return { ws, sales, legal, direct, viaGroup, both, onlyLegal, folderAdmin, rootAdmin, flagAdmin, elsewhere, disabled, grants };
  }

  it('lists every user who reaches the path, with level, role and the grants that give it', async () => {
    const s = await site();
    const response = await reach(s.ws, `path=${encodeURIComponent('Plans/2026/q1.pdf')}`);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const ids = userIds(response.body);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const wsUsers = [s.direct, s.viaGroup, s.both, s.folderAdmin, s.rootAdmin, s.flagAdmin].map((m) => m.id);
    expect(ids.sort((a, b) => a - b)).toEqual([...wsUsers, ...(await siteAdminIds())].sort((a, b) => a - b));

    const grantCause = (id: number, path: string, permission: string, recursive: boolean) => ({
      source: 'grant', permission_id: id, path, permission, recursive, workspace_id: s.ws,
    });
    expect(rowOf(response.body, s.direct.id)).toEqual({
      user_id: s.direct.id, username: expect.any(String), workspace_id: s.ws, permission: 'readonly',
      capabilities: ['list', 'read', 'write'], role: null, roles: [],
      because: [
        { ...grantCause(s.grants.direct, 'Plans', 'readonly', true), applies: 'direct', group_id: null, group_name: null, group_ids: [], group_names: [], partner_id: null, partner_name: null, role: null },
        { ...grantCause(s.grants.directAgain, 'Plans/2026', 'writeonly', true), applies: 'direct', group_id: null, group_name: null, group_ids: [], group_names: [], partner_id: null, partner_name: null, role: null },
      ],
    });
    expect(rowOf(response.body, s.viaGroup.id)).toMatchObject({
      permission: 'full', capabilities: ['list', 'read', 'write', 'delete'], role: null,
      because: [{ ...grantCause(s.grants.group, 'Plans', 'full', true), applies: 'group', group_id: s.sales, group_name: `Sales ${s.ws}` }],
    });
    // The ALL-of grant is not recursive, but covers a file directly in its folder.
    expect(rowOf(response.body, s.both.id)).toMatchObject({
      permission: 'full', capabilities: ['list', 'read', 'write', 'delete', 'share'],
      because: [
        { permission_id: s.grants.group, applies: 'group' },
        { ...grantCause(s.grants.allOf, 'Plans/2026', 'bundle', false), applies: 'all_of', group_ids: [s.sales, s.legal].sort((a, b) => a - b) },
      ],
    });
    expect(rowOf(response.body, s.both.id).because[1].group_names).toEqual(
      [[s.sales, `Sales ${s.ws}`], [s.legal, `Legal ${s.ws}`]].sort((a, b) => (a[0] as number) - (b[0] as number)).map((p) => p[1]),
    );
    expect(rowOf(response.body, s.folderAdmin.id)).toMatchObject({
      permission: 'admin', capabilities: ALL, role: 'folder_admin', roles: ['folder_admin'],
      because: [{ permission_id: s.grants.folderAdmin, permission: 'admin', role: 'folder_admin' }],
    });
    expect(rowOf(response.body, s.rootAdmin.id)).toMatchObject({
      permission: 'admin', role: 'workspace_admin', because: [{ permission_id: s.grants.root, path: '', role: 'workspace_admin', applies: 'direct' }],
    });
    expect(rowOf(response.body, s.flagAdmin.id)).toMatchObject({
      permission: 'admin', capabilities: ALL, role: 'workspace_admin',
      because: [{ source: 'workspace_admin_flag', permission_id: null, role: 'workspace_admin', workspace_id: s.ws }],
    });
    const [siteAdmin] = await siteAdminIds();
    expect(rowOf(response.body, siteAdmin as number)).toMatchObject({
      permission: 'admin', role: 'site_admin', roles: ['site_admin'], workspace_id: 0,
      because: [{ source: 'site_admin', permission_id: null, path: null, applies: null }],
    });
    // In only one of the ALL-of groups, disabled, or granted elsewhere: not listed.
    for (const absent of [s.onlyLegal.id, s.disabled.id, s.elsewhere.id]) expect(ids).not.toContain(absent);
  });

  it('reads the path as explain does: a folder there, or a type, changes what non-recursive grants cover', async () => {
    const s = await site();
    const asFile = await reach(s.ws, 'path=Plans/2026/q1');
    expect(rowOf(asFile.body, s.both.id).because.map((c: any) => c.permission_id)).toEqual([s.grants.group, s.grants.allOf]);
    const asFolder = await reach(s.ws, 'path=Plans/2026/q1&type=directory');
    expect(asFolder.status).toBe(200);
    // The ALL-of grant stops short of a subfolder; the group grant still gives `full`.
    expect(rowOf(asFolder.body, s.both.id).because.map((c: any) => c.permission_id)).toEqual([s.grants.group]);
    expect(rowOf(asFolder.body, s.both.id).capabilities).toEqual(['list', 'read', 'write', 'delete']);
  });

  it('accepts the filter[path] spelling, the qualified path in context 0, and the .json suffix', async () => {
    const s = await site();
    const plain = userIds((await reach(s.ws, 'path=Plans')).body);
    expect(userIds((await reach(s.ws, 'filter[path]=Plans')).body)).toEqual(plain);
    expect(userIds((await t.api.get(`/permissions/reach.json?path=Plans`, { key: BOOTSTRAP_KEY, workspace: s.ws })).body)).toEqual(plain);
    const qualified = await reach(0, `path=${encodeURIComponent(`_/Workspaces/${s.ws}/plans`)}`);
    expect(userIds(qualified.body)).toEqual(plain);
    expect(rowOf(qualified.body, s.direct.id).because[0].path).toBe(`_/Workspaces/${s.ws}/Plans`);
  });

  it('refuses bad input with the contract\'s errors, never a 500', async () => {
    const s = await site();
    expectError(await reach(s.ws, ''), 400, 'bad-request/request-params-required');
    expectError(await reach(s.ws, 'path=a/../b'), 400, 'bad-request/invalid-path');
    expectError(await reach(s.ws, 'path=a&cursor=nonsense'), 400, 'bad-request/invalid-cursor');
    expectError(await reach(s.ws, 'path=a&per_page=0'), 400, 'bad-request/request-params-invalid');
    expectError(await reach(s.ws, 'path=a&type=link'), 400, 'bad-request/request-params-invalid');
    expectError(await t.api.get('/permissions/reach?path=a'), 401, 'not-authenticated/authentication-required');
    const filesOnly = await createApiKey(t.database.db, { userId: s.direct.id, workspaceId: s.ws, permissionSet: 'files_only' });
    expectError(await reach(s.ws, 'path=Plans', filesOnly), 403, 'not-authorized/api-key-is-files-only');
    // A cursor of another listing is refused, not misread.
    const grants = await t.api.get('/permissions?per_page=1', { key: BOOTSTRAP_KEY, workspace: s.ws });
    const foreign = grants.headers.get('x-service-cursor') as string;
    expect(foreign).toBeTruthy();
    expectError(await reach(s.ws, `path=Plans&cursor=${foreign}`), 400, 'bad-request/invalid-cursor');
  });

  it('pages by user id with the cursor headers, and the pages add up to the whole answer', async () => {
    const s = await site();
    const whole = userIds((await reach(s.ws, 'path=Plans')).body);
    expect(whole.length).toBeGreaterThan(4);
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await reach(s.ws, `path=Plans&per_page=2${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(response.status).toBe(200);
      seen.push(...userIds(response.body));
      cursor = response.headers.get('x-service-cursor');
      expect(response.headers.get('x-service-cursor-next')).toBe(cursor);
      if (cursor !== null) expect(response.body).toHaveLength(2);
      pages += 1;
    } while (cursor !== null && pages < 20);
    expect(seen).toEqual(whole);
    expect(pages).toBe(Math.ceil(whole.length / 2));
  });

  it('shows a Workspace Administrator its Workspace\'s users only', async () => {
    const s = await site();
    const response = await reach(s.ws, 'path=Plans', s.flagAdmin.key);
    expect(response.status).toBe(200);
    expect(userIds(response.body).sort((a, b) => a - b)).toEqual([s.direct, s.viaGroup, s.both, s.folderAdmin, s.rootAdmin, s.flagAdmin].map((m) => m.id).sort((a, b) => a - b));
    expect(rowOf(response.body, s.viaGroup.id).because[0]).toMatchObject({ source: 'grant', group_name: `Sales ${s.ws}` });
  });

  it('shows a Folder Admin the users of its subtree, a grant above it hidden, and only itself elsewhere', async () => {
    const s = await site();
    const above = await memberOf(t, { workspaceId: s.ws });
    await grantAsSite(t, { path: '', user_id: above.id, permission: 'readonly' }, s.ws);
    const inSubtree = await reach(s.ws, 'path=Plans/2026', s.folderAdmin.key);
    expect(inSubtree.status).toBe(200);
    expect(userIds(inSubtree.body)).toEqual(expect.arrayContaining([s.direct.id, s.viaGroup.id, s.both.id, s.folderAdmin.id, s.rootAdmin.id, s.flagAdmin.id, above.id]));
    expect(userIds(inSubtree.body)).not.toContain((await siteAdminIds())[0]);
    expect(rowOf(inSubtree.body, above.id)).toMatchObject({
      permission: 'readonly', capabilities: ['list', 'read'],
      because: [{ source: 'hidden_grant', permission_id: null, path: null, permission: null, recursive: null, applies: null, group_id: null, group_ids: [] }],
    });
    // The root grant of a Workspace Administrator lies above the subtree: hidden too, its role kept.
    expect(rowOf(inSubtree.body, s.rootAdmin.id).because).toEqual([expect.objectContaining({ source: 'hidden_grant', role: 'workspace_admin' })]);
    // Outside its subtree it has no authority: the answer is about itself, as for a path it cannot see.
    const outside = await reach(s.ws, 'path=Other', s.folderAdmin.key);
    const nowhere = await reach(s.ws, 'path=No/Such/Folder', s.folderAdmin.key);
    expect(outside.body).toEqual([]);
    expect(nowhere.body).toEqual([]);
  });

  it('shows a regular user only itself, with only its own grants, whatever the path', async () => {
    const s = await site();
    const own = await reach(s.ws, 'path=Plans/2026/q1.pdf', s.both.key);
    expect(own.status).toBe(200);
    expect(userIds(own.body)).toEqual([s.both.id]);
    expect(rowOf(own.body, s.both.id).because.map((c: any) => c.source)).toEqual(['grant', 'grant']);
    // A path it cannot reach answers as one that does not exist.
    const hidden = await reach(s.ws, 'path=Other', s.both.key);
    const absent = await reach(s.ws, 'path=Nothing/Here', s.both.key);
    expect([hidden.status, hidden.body]).toEqual([200, []]);
    expect([absent.status, absent.body]).toEqual([200, []]);
  });

  it('leaks nothing across Workspaces', async () => {
    const s = await site();
    const other = await createWorkspace(t.database.db);
    const otherAdmin = await memberOf(t, { workspaceId: other, workspaceAdmin: true });
    const otherUser = await memberOf(t, { workspaceId: other });
    await grantAsSite(t, { path: 'Plans', user_id: otherUser.id, permission: 'full' }, other);
    // The other Workspace's administrator, in its own context, sees its own users on its own Plans.
    const mine = await reach(other, 'path=Plans', otherAdmin.key);
    expect(userIds(mine.body).sort((a, b) => a - b)).toEqual([otherAdmin.id, otherUser.id].sort((a, b) => a - b));
    // It cannot select the first Workspace, nor name it from its own.
    expectError(await reach(s.ws, 'path=Plans', otherAdmin.key), 400, 'bad-request/invalid-workspace-id-header');
    for (const probe of [`_/Workspaces/${s.ws}/Plans`, `../${s.ws}/Plans`]) {
      const response = await reach(other, `path=${encodeURIComponent(probe)}`, otherAdmin.key);
      if (response.status === 200) expect(userIds(response.body)).toEqual([otherAdmin.id]);
      else expectError(response, 400, 'bad-request/invalid-path');
    }
    // A Workspace 0 user made Folder Admin in the first Workspace sees nothing of it from context 0 elsewhere.
    const delegate = await memberOf(t);
    await grantAsSite(t, { path: 'Plans', user_id: delegate.id, permission: 'admin' }, s.ws);
    const fromSite = await reach(0, `path=${encodeURIComponent(`_/Workspaces/${other}/Plans`)}`, delegate.key);
    expect(fromSite.body).toEqual([]);
    // In its own subtree it sees the first Workspace's users, never another Workspace's.
    const delegated = await reach(0, `path=${encodeURIComponent(`_/Workspaces/${s.ws}/Plans`)}`, delegate.key);
    expect(userIds(delegated.body)).toEqual(expect.arrayContaining([s.direct.id, delegate.id]));
    expect(userIds(delegated.body)).not.toContain(otherUser.id);
  });
});

/** An RFC 4180 reader for the test: quoted fields, doubled quotes, CRLF line ends. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i += 1; } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') { row.push(field); field = ''; } else if (c === '\r' && text[i + 1] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i += 1; } else {
      expect(c, `bare ${JSON.stringify(c)} at ${i}`).not.toMatch(/[\r\n"]/);
      field += c;
    }
  }
  expect(field, 'the last line ends with CRLF').toBe('');
  return rows;
}

describe.each(testDatabaseTargets())('GET /permissions/reach/export [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  const exportCsv = (ws: number, key = BOOTSTRAP_KEY) => t.api.get('/permissions/reach/export', { key, workspace: ws, headers: { accept: 'text/csv' } });

  it('streams every (path, user) row of the Workspace as CSV, hostile names kept in their cells', async () => {
    const db = t.database.db;
    const ws = await createWorkspace(db);
    const admin = await memberOf(t, { workspaceId: ws, workspaceAdmin: true });
    const hostileName = '=HYPERLINK("http://x","a,b")\r\nforged,row';
    const hostile = await createUser(db, { workspaceId: ws, username: hostileName });
    const group = await createGroup(db, { workspaceId: ws, name: '@SUM(1+1), "g"' });
    await addMember(db, group, hostile.id);
    const plain = await memberOf(t, { workspaceId: ws });
    const folderGrant = await grantAsSite(t, { path: '-Reports', group_id: group, permission: 'readonly' }, ws);
    await grantAsSite(t, { path: '-Reports/Deep', user_id: plain.id, permission: 'full' }, ws);
    const response = await exportCsv(ws, admin.key);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="effective-access-workspace-${ws}.csv"`);
    const [header, ...rows] = parseCsv(response.text);
    expect(header).toEqual(['path', 'user_id', 'username', 'workspace_id', 'permission', 'capabilities', 'role', 'permission_ids', 'because']);
    for (const row of rows) expect(row).toHaveLength(9);
    const keyOf = (row: string[]) => `${row[0]}|${row[1]}`;
    // The root (its administrator), then each granted path in order; users by id within a path.
    expect(rows.map(keyOf)).toEqual([
      `|${admin.id}`,
      `'-Reports|${admin.id}`, `'-Reports|${hostile.id}`,
      `'-Reports/Deep|${admin.id}`, `'-Reports/Deep|${hostile.id}`, `'-Reports/Deep|${plain.id}`,
    ]);
    const hostileRow = rows.find((row) => row[0] === `'-Reports` && row[1] === String(hostile.id)) as string[];
    expect(hostileRow).toEqual([
      `'-Reports`, String(hostile.id), `'${hostileName}`, String(ws), 'readonly', 'list read', '', String(folderGrant),
      `permission ${folderGrant} on "-Reports": readonly, recursive, group ${group} "@SUM(1+1), "g""`,
    ]);
    expect(rows[0]).toEqual(['', String(admin.id), expect.any(String), String(ws), 'admin', 'list read write delete history share manage', 'workspace_admin', '', `Workspace Administrator of Workspace ${ws} by flag`]);
  });

  it('agrees with the reach listing path by path, through more paths than one batch', async () => {
    const db = t.database.db;
    const ws = await createWorkspace(db);
    const users = await Promise.all(Array.from({ length: 3 }, () => createUser(db, { workspaceId: ws })));
    const paths = Array.from({ length: 130 }, (_, i) => `p${String(i).padStart(3, '0')}`);
    for (const [i, path] of paths.entries()) {
      const user = users[i % users.length] as { id: number };
      await db.insertInto('permissions').values({
        workspace_id: ws, path: `_/Workspaces/${ws}/${path}`, path_key: `_/workspaces/${ws}/${path}`, user_id: user.id, group_id: null,
        permission: 'readonly', recursive: true, created_at: 0,
      }).execute();
    }
    const response = await exportCsv(ws);
    expect(response.status).toBe(200);
    const rows = parseCsv(response.text).slice(1);
    const siteAdmins = (await db.selectFrom('users').select('id').where('site_admin', '=', true).execute()).length;
    expect(rows).toHaveLength((1 + paths.length) * siteAdmins + paths.length);
    for (const path of ['', ...paths.filter((_, i) => i % 37 === 0)]) {
      const listed = await t.api.get(`/permissions/reach?path=${path}&type=directory`, { key: BOOTSTRAP_KEY, workspace: ws });
      const exported = rows.filter((row) => row[0] === path);
      expect(exported.map((row) => [row[1], row[4], row[6], row[7]])).toEqual(
        listed.body.map((r: any) => [String(r.user_id), r.permission, r.role ?? '', r.because.flatMap((c: any) => (c.permission_id === null ? [] : [c.permission_id])).join(' ')]),
      );
    }
  });

  it('is for administrators of the context only', async () => {
    const db = t.database.db;
    const ws = await createWorkspace(db);
    const folderAdmin = await memberOf(t, { workspaceId: ws });
    await grantAsSite(t, { path: 'Plans', user_id: folderAdmin.id, permission: 'admin' }, ws);
    const regular: Member = await memberOf(t, { workspaceId: ws });
    const rootAdmin = await memberOf(t, { workspaceId: ws });
    await grantAsSite(t, { path: '', user_id: rootAdmin.id, permission: 'admin' }, ws);
    for (const key of [folderAdmin.key, regular.key]) {
      const refused = await exportCsv(ws, key);
      expectError(refused, 403, 'not-authorized/site-admin-or-workspace-admin-permission-required');
      expect(refused.headers.get('content-type')).toContain('application/json');
    }
    expect((await exportCsv(ws, rootAdmin.key)).status).toBe(200);
    // A Workspace Administrator of another Workspace cannot select this one.
    const other = await createWorkspace(db);
    const otherAdmin = await memberOf(t, { workspaceId: other, workspaceAdmin: true });
    expectError(await exportCsv(ws, otherAdmin.key), 400, 'bad-request/invalid-workspace-id-header');
    // Context 0 is the Site Administrator's: a Workspace 0 user with a root grant elsewhere is refused there.
    const delegate = await memberOf(t);
    await grantAsSite(t, { path: '', user_id: delegate.id, permission: 'admin' }, ws);
    expectError(await exportCsv(0, delegate.key), 403, 'not-authorized/site-admin-or-workspace-admin-permission-required');
    const delegated = await exportCsv(ws, delegate.key);
    expect(delegated.status).toBe(200);
    // Its rows are the selected Workspace's users: a Workspace 0 user's own grants show, no other Workspace 0 user.
    const rows = parseCsv(delegated.text).slice(1);
    const listedUsers = new Set(rows.map((row) => Number(row[1])));
    const workspaces = await db.selectFrom('users').select(['id', 'workspace_id']).where('id', 'in', [...listedUsers]).execute();
    expect(workspaces.every((u) => u.workspace_id === ws || u.id === delegate.id)).toBe(true);
    expect(listedUsers.has(delegate.id)).toBe(true);
  });
});
