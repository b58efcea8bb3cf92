import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { allPages } from '../support/all-pages.js';

/** GET /groups's filters and sorts as the Files.com SDKs send them: honoured, or refused by name. */
describe.each(testDatabaseTargets())('GET /groups list parameters [$name]', (target) => {
  let t: TestApp;
  let workspace: number;
  const names = ['Zeta team', 'alpha_team', 'Alpha%crew', 'Ärzte', 'beta'];
  const idOf = new Map<string, number>();
  const get = (query: string) => t.api.get(`/groups?${query}`, { key: BOOTSTRAP_KEY, workspace });
  const shown = (body: { name: string }[]) => body.map((g) => g.name);
  const key = (text: string) => text.normalize('NFC').toLowerCase();

  beforeAll(async () => {
    t = await startTestApp(target);
    workspace = (await t.api.post('/workspaces', { name: unique('groups') }, { key: BOOTSTRAP_KEY })).body.id;
    for (const name of names) {
      const created = await t.api.post('/groups', { name, workspace_id: workspace }, { key: BOOTSTRAP_KEY });
      expect(created.status).toBe(201);
      idOf.set(name, created.body.id);
    }
  });
  afterAll(() => t.close());

  it('filters by name and by prefix without regard to case, reading % and _ as themselves', async () => {
    expect(shown((await get('filter[name]=ZETA%20TEAM')).body)).toEqual(['Zeta team']);
    expect(shown((await get('filter_prefix[name]=alpha')).body)).toEqual(['alpha_team', 'Alpha%crew']);
    expect(shown((await get('filter_prefix[name]=alpha_')).body)).toEqual(['alpha_team']);
    expect(shown((await get('filter_prefix[name]=alpha%25')).body)).toEqual(['Alpha%crew']);
    expect(shown((await get('filter_prefix[name]=%C3%A4')).body)).toEqual(['Ärzte']);
    expect(shown((await get(`filter[workspace_id]=${workspace}&filter_prefix[name]=b`)).body)).toEqual(['beta']);
  });

  it('sorts by name either way, and pages through the order exactly', async () => {
    const byName = [...names].sort((a, b) => (key(a) < key(b) ? -1 : 1));
    expect(shown((await get('sort_by[name]=asc')).body)).toEqual(byName);
    expect(shown((await get('sort_by[name]=desc')).body)).toEqual([...byName].reverse());
    expect(shown((await get('sort_by[site_id]=asc')).body)).toEqual(names);
    expect(shown(await allPages(get, 'sort_by[name]=desc&per_page=2'))).toEqual([...byName].reverse());
    const first = await get('sort_by[name]=asc&per_page=2');
    const refused = await get(`per_page=2&cursor=${encodeURIComponent(first.headers.get('x-service-cursor') as string)}`);
    expect([refused.status, refused.body.type]).toEqual([400, 'bad-request/invalid-cursor-type-for-sort']);
  });

  it('refuses what it cannot filter or sort on, naming it', async () => {
    const cases: [string, string][] = [
      ['filter[notes]=x', 'bad-request/invalid-filter-field'],
      ['filter_prefix[workspace_id]=1', 'bad-request/invalid-filter-field'],
      ['filter_gt[name]=a', 'bad-request/invalid-filter-field'],
      ['sort_by[user_ids]=asc', 'bad-request/invalid-sort-field'],
      ['sort_by[name]=sideways', 'bad-request/request-params-invalid'],
    ];
    for (const [query, type] of cases) {
      const response = await get(query);
      expect({ query, status: response.status, type: response.body.type }).toEqual({ query, status: 400, type });
    }
    expect(shown((await get('include_parent_site_groups=true&filter[name]=beta')).body)).toEqual(['beta']);
  });
});
