import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const PASSWORD = 'a perfectly good passphrase';

interface Record { id: number; action: string; path: string; user_id: number | null; targets: { [name: string]: unknown } | null }

/**
 * Who sees which History records (docs/history.md): a Site Administrator all, a Workspace
 * Administrator its Workspace's and nothing of another's or of the site's, a Folder Admin the
 * file actions under its folders, everyone its own. Every list and the exports obey the same rule.
 */
describe.each(testDatabaseTargets())('who sees which history [$name]', (target) => {
  let t: TestApp;
  const admin = { key: BOOTSTRAP_KEY };
  let north: number;
  let south: number;
  let northAdminKey: string;
  let folderAdminKey: string;
  let member: { id: number; username: string; key: string };
  const seen = async (key: string, url = '/history?per_page=10000', workspace?: number): Promise<Record[]> => {
    const response = await t.api.get(url, { key, ...(workspace === undefined ? {} : { workspace }) });
    expect(response.status, url).toBe(200);
    return response.body as Record[];
  };
  const actions = (records: Record[]) => new Set(records.map((record) => record.action));

  beforeAll(async () => {
    t = await startTestApp(target);
    north = (await t.api.post('/workspaces', { name: unique('North') }, admin)).body.id;
    south = (await t.api.post('/workspaces', { name: unique('South') }, admin)).body.id;
    const northAdmin = await createUser(t.database.db, { workspaceId: north, workspaceAdmin: true });
    northAdminKey = await createApiKey(t.database.db, { userId: northAdmin.id, workspaceId: north });
    const folderAdmin = await createUser(t.database.db, { workspaceId: north });
    folderAdminKey = await createApiKey(t.database.db, { userId: folderAdmin.id, workspaceId: north });
    const memberUser = await createUser(t.database.db, { workspaceId: north, password: PASSWORD });
    member = { id: memberUser.id, username: memberUser.username, key: await createApiKey(t.database.db, { userId: memberUser.id, workspaceId: north }) };

    // In each Workspace: a user, a group, grants and folders, all recorded.
    for (const ws of [north, south]) {
      const inWs = { ...admin, workspace: ws };
      expect((await t.api.post('/users', { username: unique(`u${ws}`) }, inWs)).status).toBe(201);
      expect((await t.api.post('/groups', { name: unique(`g${ws}`) }, inWs)).status).toBe(201);
      expect((await t.api.post('/folders/Projects/Alpha', { mkdir_parents: true }, inWs)).status).toBe(201);
      expect((await t.api.post('/folders/Finance', {}, inWs)).status).toBe(201);
    }
    expect((await t.api.post('/permissions', { path: 'Projects', user_id: folderAdmin.id, permission: 'admin' }, { ...admin, workspace: north })).status).toBe(201);
    expect((await t.api.post('/folders/Projects/Beta', {}, { ...admin, workspace: north })).status).toBe(201);
    // Site-level changes.
    expect((await t.api.patch('/site', { session_expiry_minutes: 300 }, admin)).status).toBe(200);
    // The member signs in and out.
    const session = await t.api.post('/sessions', { username: member.username, password: PASSWORD });
    expect((await t.api.delete('/sessions', { session: session.body.id })).status).toBe(200);
  });
  afterAll(() => t.close());

  it('a Site Administrator sees everything, and in a Workspace context only that Workspace', async () => {
    const all = await seen(BOOTSTRAP_KEY);
    expect(actions(all)).toEqual(expect.objectContaining(new Set(['workspace_create', 'site_update', 'user_create', 'group_create', 'permission_create', 'create', 'login', 'logout'])));
    const inNorth = await seen(BOOTSTRAP_KEY, '/history?per_page=10000', north);
    expect(inNorth.length).toBeGreaterThan(0);
    expect(actions(inNorth).has('site_update')).toBe(false);
    expect(actions(inNorth).has('workspace_create')).toBe(false);
    const southIds = new Set((await seen(BOOTSTRAP_KEY, '/history?per_page=10000', south)).map((record) => record.id));
    expect(inNorth.some((record) => southIds.has(record.id))).toBe(false);
  });

  it('a Workspace Administrator sees its Workspace, nothing of another and nothing of the site', async () => {
    const records = await seen(northAdminKey, '/history?per_page=10000', north);
    expect(actions(records)).toEqual(expect.objectContaining(new Set(['user_create', 'group_create', 'permission_create', 'create', 'login', 'logout'])));
    const everything = await seen(BOOTSTRAP_KEY);
    const northIds = new Set((await seen(BOOTSTRAP_KEY, '/history?per_page=10000', north)).map((record) => record.id));
    expect(records.every((record) => northIds.has(record.id))).toBe(true);
    expect(records.length).toBe(northIds.size);
    expect(everything.length).toBeGreaterThan(records.length);
    // It cannot step out of its Workspace's context to ask the site's History.
    const fromZero = await t.api.get('/history?per_page=10000', { key: northAdminKey, workspace: 0 });
    expect([fromZero.status, fromZero.body.type]).toEqual([400, 'bad-request/invalid-workspace-id-header']);
  });

  it('the probes reach nothing across Workspaces: another Workspace\'s user, folder, file, sign-ins and exports', async () => {
    const southUser = (await t.api.get('/users?per_page=10000', { ...admin, workspace: south })).body[0] as { id: number };
    const refused = await t.api.get(`/history/users/${southUser.id}`, { key: northAdminKey, workspace: north });
    expect([refused.status, refused.body.type]).toEqual([404, 'not-found/user-not-found']);
    const southPath = `_/Workspaces/${south}/Projects`;
    // A path names a place in the caller's own Workspace, so South's paths are out of reach by construction.
    for (const url of [`/history/folders/${southPath}`, `/history/files/${encodeURIComponent(`${southPath}/Alpha`)}`, `/history?filter[folder]=${southPath}`,
      `/history?filter_prefix[path]=_/workspaces/${south}`, `/history?filter[user_id]=${southUser.id}`, `/history/folders/..%2F..%2F${south}`]) {
      const answer = await t.api.get(url, { key: northAdminKey, workspace: north });
      if (answer.status === 200) expect(answer.body, url).toEqual([]);
      else expect([answer.status, answer.body.type], url).toEqual([400, 'bad-request/invalid-path']);
    }
    const logins = await seen(northAdminKey, '/history/login', north);
    expect(logins.every((record) => record.user_id === member.id)).toBe(true);
    const exported = await t.api.post('/history_exports', {}, { key: northAdminKey, workspace: north });
    const rows = (await t.api.get(`/history_export_results?history_export_id=${exported.body.id}&per_page=10000`, { key: northAdminKey })).body as { id: number }[];
    const northIds = new Set((await seen(BOOTSTRAP_KEY, '/history?per_page=10000', north)).map((record) => record.id));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => northIds.has(row.id))).toBe(true);
  });

  it('a Folder Admin sees the file actions under its folder, and nothing else of others', async () => {
    const records = await seen(folderAdminKey, '/history?per_page=10000', north);
    // Projects itself was made as Alpha's parent (mkdir_parents): a file action on the folder.
    expect(records.filter((record) => record.action === 'create').map((record) => record.path).sort()).toEqual(['Projects', 'Projects/Alpha', 'Projects/Beta']);
    expect(records.every((record) => ['create', 'read', 'update', 'destroy', 'move', 'copy'].includes(record.action))).toBe(true);
    expect(records.some((record) => record.path === 'Finance')).toBe(false);
    expect(actions(records).has('user_create')).toBe(false);
    expect(actions(records).has('permission_create')).toBe(false);
    const folder = await seen(folderAdminKey, '/history/folders/Projects', north);
    expect(folder.map((record) => record.path).sort()).toEqual(['Projects', 'Projects/Alpha', 'Projects/Beta']);
  });

  it('a member sees its own sign-in and sign-out, and nothing anyone else did', async () => {
    const records = await seen(member.key, '/history?per_page=10000', north);
    expect(records.map((record) => record.action).sort()).toEqual(['login', 'logout']);
    expect(records.every((record) => record.user_id === member.id)).toBe(true);
    expect((await seen(member.key, `/history/users/${member.id}`, north)).length).toBe(2);
    const other = await t.api.get(`/history/users/${(await seen(BOOTSTRAP_KEY, '/history/login')).find((r) => r.user_id !== member.id && r.user_id !== null)?.user_id ?? 1}`, { key: member.key, workspace: north });
    expect(other.status).toBe(404);
  });
});
