import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, createWorkspace, unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const PASSWORD = 'a perfectly good passphrase';
const HISTORY_FIELDS = ['action', 'automation_id', 'automation_name', 'destination', 'display', 'failure_type', 'id', 'interface', 'ip', 'path', 'source', 'targets', 'user_id', 'user_is_from_parent_site', 'username', 'when'];

/**
 * The History read side (docs/history.md): Files.com's five lists with their parameters, paging
 * and sorting, and the exports. Who sees which records is in history-visibility.test.ts.
 */
describe.each(testDatabaseTargets())('history lists and exports [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  const admin = { key: BOOTSTRAP_KEY };
  const ids = (body: { id: number }[]) => body.map((record) => record.id);

  it('answers Files.com History objects, newest first, with paths as the context names them', async () => {
    const ws = await createWorkspace(t.database.db);
    const user = await createUser(t.database.db, { workspaceId: ws });
    expect((await t.api.post('/permissions', { path: 'Reports', user_id: user.id, permission: 'readonly' }, { ...admin, workspace: ws })).status).toBe(201);
    const site = await t.api.get('/history', admin);
    expect(site.status).toBe(200);
    const grant = site.body.find((record: any) => record.action === 'permission_create' && record.targets?.user_id === user.id);
    expect(Object.keys(grant).sort()).toEqual(HISTORY_FIELDS);
    expect(grant).toMatchObject({ path: `_/Workspaces/${ws}/Reports`, interface: 'restapi', failure_type: 'none', user_is_from_parent_site: false, user_id: null });
    // Whole seconds, as every other date of the API.
    expect(grant.when).toBe(new Date(Math.floor(t.clock.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z'));
    expect(ids(site.body)).toEqual([...ids(site.body)].sort((a, b) => b - a));
    // In the Workspace's context the same record shows the path as that context writes it.
    const inWorkspace = await t.api.get('/history', { ...admin, workspace: ws });
    expect(inWorkspace.body.find((record: any) => record.id === grant.id)).toMatchObject({ path: 'Reports' });
  });

  it('pages with per_page and the cursor, in either order, and refuses a cursor of the other order', async () => {
    for (let i = 0; i < 5; i += 1) await createUserThroughApi();
    const all = (await t.api.get('/history?sort_by[created_at]=asc', admin)).body as { id: number }[];
    expect(ids(all)).toEqual([...ids(all)].sort((a, b) => a - b));
    const seen: number[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: any = await t.api.get(`/history?sort_by[created_at]=asc&per_page=2${cursor === '' ? '' : `&cursor=${cursor}`}`, admin);
      expect(page.status).toBe(200);
      expect(page.body.length).toBeLessThanOrEqual(2);
      seen.push(...ids(page.body));
      cursor = page.headers.get('x-service-cursor-next');
      if (cursor !== null) {
        const wrongOrder = await t.api.get(`/history?per_page=2&cursor=${cursor}`, admin);
        expect(wrongOrder.status).toBe(400);
        expect(wrongOrder.body.type).toBe('bad-request/invalid-cursor');
      }
    }
    expect(seen).toEqual(ids(all));
  });

  it('filters by time, action, user, interface and path, and refuses what it cannot read', async () => {
    const before = new Date(t.clock.now()).toISOString();
    t.clock.advanceMinutes(10);
    const from = new Date(t.clock.now()).toISOString();
    const created = await createUserThroughApi();
    t.clock.advanceMinutes(10);
    const later = await t.api.get(`/history?start_at=${from}`, admin);
    // `when` is in whole seconds: compared as times, not as strings.
    expect(later.body.every((record: any) => Date.parse(record.when) >= Math.floor(Date.parse(from) / 1000) * 1000)).toBe(true);
    expect(later.body.some((record: any) => record.targets?.id === created)).toBe(true);
    const earlier = await t.api.get(`/history?end_at=${from}`, admin);
    expect(earlier.body.some((record: any) => record.targets?.id === created)).toBe(false);
    expect(earlier.body.every((record: any) => Date.parse(record.when) < Date.parse(from) && Date.parse(record.when) <= Date.parse(before))).toBe(true);

    const byAction = await t.api.get('/history?filter[action]=user_create', admin);
    expect(byAction.body.length).toBeGreaterThan(0);
    expect(byAction.body.every((record: any) => record.action === 'user_create')).toBe(true);
    const byInterface = await t.api.get('/history?filter[interface]=web', admin);
    expect(byInterface.body.every((record: any) => record.interface === 'web')).toBe(true);

    for (const [query, type] of [
      ['start_at=yesterday', 'bad-request/request-params-invalid'],
      ['sort_by[path]=asc', 'bad-request/invalid-sort-field'],
      ['sort_by[created_at]=up', 'bad-request/request-params-invalid'],
      ['filter[action]=launch', 'bad-request/request-params-invalid'],
      // A filter History has no field for is refused by name, never dropped (it would answer every record).
      ['filter[colour]=red', 'bad-request/invalid-filter-field'],
      ['filter_prefix[username]=a', 'bad-request/invalid-filter-field'],
      ['filter_gt[created_at]=2026-01-01T00:00:00Z', 'bad-request/invalid-filter-field'],
      ['cursor=not-a-cursor', 'bad-request/invalid-cursor'],
      ['per_page=10001', 'bad-request/request-params-invalid'],
    ] as const) {
      const refused = await t.api.get(`/history?${query}`, admin);
      expect([refused.status, refused.body.type], query).toEqual([400, type]);
    }
    // Refused by the same list-parameter reading as every listing, naming the parameter (and, for a
    // time range, how History narrows times instead).
    const range = await t.api.get('/history?filter_gt[created_at]=2026-01-01T00:00:00Z', admin);
    expect(range.body.error).toMatch(/^filter_gt\[created_at\] is not a filter of the History records \(narrow times with start_at and end_at\)/);
    expect((await t.api.get('/history?filter[colour]=red', admin)).body.error).toContain('filter[colour]');
    expect((await t.api.get('/history?sort_by[path]=asc', admin)).body.error).toContain('"path"');
    const noUser = await t.api.get('/history?filter[user_id]=0', admin);
    expect([noUser.status, noUser.body.type]).toEqual([400, 'bad-request/request-params-invalid']);
  });

  it('lists sign-ins, one user, one folder and one file', async () => {
    const ws = await createWorkspace(t.database.db);
    const user = await createUser(t.database.db, { workspaceId: ws, password: PASSWORD });
    expect((await t.api.post('/sessions', { username: user.username, password: PASSWORD })).status).toBe(201);
    expect((await t.api.post('/sessions', { username: user.username, password: 'not the password' })).status).toBe(401);
    const logins = await t.api.get('/history/login', admin);
    expect(logins.body.every((record: any) => ['login', 'failedlogin', 'logout', 'failedreauth'].includes(record.action))).toBe(true);
    expect(logins.body.filter((record: any) => record.user_id === user.id).map((record: any) => [record.action, record.failure_type]))
      .toEqual([['failedlogin', 'password_mismatch'], ['login', 'none']]);

    const ofUser = await t.api.get(`/history/users/${user.id}`, admin);
    expect(ofUser.body.length).toBe(2);
    expect(ofUser.body.every((record: any) => record.user_id === user.id)).toBe(true);

    await t.api.post('/permissions', { path: 'Plans/2027', user_id: user.id, permission: 'full' }, { ...admin, workspace: ws });
    await t.api.post('/permissions', { path: 'Plans', user_id: user.id, permission: 'readonly' }, { ...admin, workspace: ws });
    await t.api.post('/permissions', { path: 'Plansandmore', user_id: user.id, permission: 'readonly' }, { ...admin, workspace: ws });
    const folder = await t.api.get('/history/folders/Plans', { ...admin, workspace: ws });
    expect(folder.body.map((record: any) => record.path).sort()).toEqual(['Plans', 'Plans/2027']);
    const file = await t.api.get('/history/files/Plans%2F2027', { ...admin, workspace: ws });
    expect(file.body.map((record: any) => record.path)).toEqual(['Plans/2027']);
    const prefix = await t.api.get('/history?filter_prefix[path]=plans', { ...admin, workspace: ws });
    expect(prefix.body.map((record: any) => record.path).sort()).toEqual(['Plans', 'Plans/2027', 'Plansandmore']);
  });

  it('exports a filtered range as CSV and JSON Lines, frozen at its creation, to its maker only', async () => {
    const ws = await createWorkspace(t.database.db);
    const made = [await createUserThroughApi(ws), await createUserThroughApi(ws)];
    const created = await t.api.post('/history_exports', { query_action: 'user_create', start_at: '2000-01-01T00:00:00Z' }, { ...admin, workspace: ws });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'ready', query_action: 'user_create', start_at: '2000-01-01T00:00:00Z', end_at: null });
    expect(created.body.results_url).toBe(`${t.baseUrl}/api/rest/v1/history_exports/${created.body.id}/results.csv`);
    await createUserThroughApi(ws); // after the export: not in it

    const shown = await t.api.get(`/history_exports/${created.body.id}`, admin);
    expect(shown.body).toEqual(created.body);
    const results = await t.api.get(`/history_export_results?history_export_id=${created.body.id}`, admin);
    expect(results.status).toBe(200);
    expect(results.body.map((row: any) => row.target_id)).toEqual(made);
    expect(results.body[0]).toMatchObject({ action: 'user_create', interface: 'restapi', file_id: null, target_name: expect.any(String) });
    expect(results.body[0].created_at).toBe(Math.floor(Date.parse(results.body[0].created_at_iso8601) / 1000));
    expect(results.body[0].created_at_iso8601).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const csv = await t.api.get(created.body.results_url.slice(t.baseUrl.length), admin);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]?.split(',').slice(0, 4)).toEqual(['id', 'created_at', 'created_at_iso8601', 'user_id']);
    expect(lines).toHaveLength(3);
    const jsonl = await t.api.get(created.body.results_url.slice(t.baseUrl.length).replace(/\.csv$/, '.jsonl'), admin);
    expect(jsonl.text.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(results.body);

    // Someone else's export does not exist for them.
    const other = await createUser(t.database.db, { siteAdmin: true });
    const otherKey = await createApiKey(t.database.db, { userId: other.id });
    for (const url of [`/history_exports/${created.body.id}`, `/history_export_results?history_export_id=${created.body.id}`, created.body.results_url.slice(t.baseUrl.length)]) {
      const refused = await t.api.get(url, { key: otherKey });
      expect([refused.status, refused.body.type], url).toEqual([404, 'not-found']);
    }
    const unsupported = await t.api.post('/history_exports', { query_target_platform: 'windows' }, admin);
    expect([unsupported.status, unsupported.body.type]).toEqual([400, 'bad-request/request-params-invalid']);
  });

  it('defuses a spreadsheet formula in an exported name', async () => {
    const username = `=HYPERLINK("x")${unique('')}`;
    const made = await t.api.post('/users', { username }, admin);
    expect(made.status).toBe(201);
    const created = await t.api.post('/history_exports', { query_action: 'user_create', query_username: undefined }, admin);
    const csv = await t.api.get(created.body.results_url.slice(t.baseUrl.length), admin);
    expect(csv.text).toContain(`"'=HYPERLINK(""x"")`);
  });

  async function createUserThroughApi(workspace?: number): Promise<number> {
    const response = await t.api.post('/users', { username: unique('made') }, { ...admin, ...(workspace === undefined ? {} : { workspace }) });
    expect(response.status).toBe(201);
    return response.body.id as number;
  }
});
