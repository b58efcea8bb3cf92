import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { allPages } from '../support/all-pages.js';

interface Shown { id: number; path: string; user_id: number | null; group_id: number | null }

/** GET /permissions's filters and sorts as the Files.com SDKs send them: honoured, or refused by name. */
describe.each(testDatabaseTargets())('GET /permissions list parameters [$name]', (target) => {
  let t: TestApp;
  let workspace: number;
  let users: number[];
  let group: number;
  const grants: Shown[] = [];
  const get = (query: string) => t.api.get(`/permissions?${query}`, { key: BOOTSTRAP_KEY, workspace });
  const ids = (body: Shown[]) => body.map((g) => g.id);

  beforeAll(async () => {
    t = await startTestApp(target);
    workspace = (await t.api.post('/workspaces', { name: unique('grants') }, { key: BOOTSTRAP_KEY })).body.id;
    users = [];
    for (const name of ['u1', 'u2']) {
      users.push((await t.api.post('/users', { username: unique(name), workspace_id: workspace }, { key: BOOTSTRAP_KEY })).body.id);
    }
    group = (await t.api.post('/groups', { name: unique('g'), workspace_id: workspace }, { key: BOOTSTRAP_KEY })).body.id;
    for (const folder of ['Plans', 'Plans/2026', 'Places', 'Other']) {
      expect((await t.api.post(`/folders/${folder}`, {}, { key: BOOTSTRAP_KEY, workspace })).status).toBe(201);
    }
    const made: [string, Record<string, unknown>][] = [
      ['Plans', { user_id: users[0], permission: 'full' }],
      ['Plans/2026', { user_id: users[1], permission: 'readonly' }],
      ['Places', { group_id: group, permission: 'list' }],
      ['', { user_id: users[1], permission: 'list', recursive: false }],
      ['Other', { user_id: users[0], permission: 'readonly' }],
      ['Plans', { group_id: group, permission: 'readonly' }],
    ];
    for (const [path, fields] of made) {
      const created = await t.api.post('/permissions', { path, ...fields }, { key: BOOTSTRAP_KEY, workspace });
      expect(created.status).toBe(201);
      grants.push({ id: created.body.id, path, user_id: created.body.user_id, group_id: created.body.group_id });
    }
  });
  afterAll(() => t.close());

  const where = (keep: (g: Shown) => boolean) => grants.filter(keep).map((g) => g.id);

  it('filters by the exact path, unlike the plain path parameter, which also finds the grants above that reach it', async () => {
    expect(ids((await get('filter[path]=plans')).body)).toEqual(where((g) => g.path === 'Plans'));
    expect(ids((await get('filter[path]=Plans/2026')).body)).toEqual(where((g) => g.path === 'Plans/2026'));
    expect(ids((await get('path=Plans/2026')).body)).toEqual(where((g) => g.path === 'Plans/2026' || g.path === 'Plans'));
    expect(ids((await get('filter[path]=Nowhere')).body)).toEqual([]);
  });

  it('filters by a prefix of the path, a trailing slash meaning what is inside', async () => {
    expect(ids((await get('filter_prefix[path]=PLA')).body)).toEqual(where((g) => g.path.startsWith('Pla')));
    expect(ids((await get('filter_prefix[path]=Plans/')).body)).toEqual(where((g) => g.path.startsWith('Plans/')));
    expect(ids((await get('filter_prefix[path]=')).body)).toEqual(grants.map((g) => g.id));
    expect(ids((await get(`filter_prefix[path]=Pl&filter[user_id]=${users[0]}`)).body)).toEqual(where((g) => g.path.startsWith('Pl') && g.user_id === users[0]));
  });

  it('sorts by path, user and group either way, ties by id, and pages through the order exactly', async () => {
    const byPath = [...grants].sort((a, b) => (a.path.toLowerCase() < b.path.toLowerCase() ? -1 : a.path.toLowerCase() > b.path.toLowerCase() ? 1 : a.id - b.id));
    expect(ids((await get('sort_by[path]=asc')).body)).toEqual(byPath.map((g) => g.id));
    expect(ids((await get('sort_by[path]=desc')).body)).toEqual([...byPath].reverse().map((g) => g.id));
    const byUser = [...grants].sort((a, b) => (a.user_id ?? -1) - (b.user_id ?? -1) || a.id - b.id);
    expect(ids((await get('sort_by[user_id]=asc')).body)).toEqual(byUser.map((g) => g.id));
    const byGroup = [...grants].sort((a, b) => (b.group_id ?? -1) - (a.group_id ?? -1) || b.id - a.id);
    expect(ids((await get('sort_by[group_id]=desc')).body)).toEqual(byGroup.map((g) => g.id));
    expect(ids((await get('sort_by[id]=desc')).body)).toEqual(grants.map((g) => g.id).reverse());
    expect(ids(await allPages(get, 'sort_by[path]=desc&per_page=4'))).toEqual([...byPath].reverse().map((g) => g.id));
  });

  it('refuses what it cannot filter or sort on, naming it', async () => {
    const cases: [string, string][] = [
      ['filter[permission]=full', 'bad-request/invalid-filter-field'],
      ['filter_prefix[user_id]=1', 'bad-request/invalid-filter-field'],
      ['sort_by[permission]=asc', 'bad-request/invalid-sort-field'],
      ['filter[user_id]=0', 'bad-request/request-params-invalid'],
      ['filter[group_id]=abc', 'bad-request/request-params-invalid'],
    ];
    for (const [query, type] of cases) {
      const response = await get(query);
      expect({ query, status: response.status, type: response.body.type }).toEqual({ query, status: 400, type });
    }
  });
});
