import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { allPages } from '../support/all-pages.js';

/**
 * GET /users's filters, search and sorts as the Files.com SDKs send them: each one honoured
 * changes the answer to exactly the users it names; each one the SDK documents and Atrium does
 * not keep is refused with its name, never ignored (an ignored filter answers everyone).
 */
describe.each(testDatabaseTargets())('GET /users list parameters [$name]', (target) => {
  let t: TestApp;
  let workspace: number;
  const people = [
    { username: 'ann-lee', name: 'Ann Lee', email: 'Ann.Lee@Example.com' },
    { username: 'bob_ross', name: 'Bob Ross', email: 'bob@paint.example' },
    { username: 'cleo', name: 'Éloïse Cléo', email: 'cleo@example.com' },
    { username: 'dan%', name: 'ann marie dan', email: 'dan@other.example' },
    { username: 'eve', name: 'Bob Ross', email: 'eve@example.com' },
  ];
  const idOf = new Map<string, number>();
  const get = (query: string) => t.api.get(`/users?${query}`, { key: BOOTSTRAP_KEY, workspace });
  const usernames = (body: { username: string }[]) => body.map((u) => u.username);

  beforeAll(async () => {
    t = await startTestApp(target);
    workspace = (await t.api.post('/workspaces', { name: unique('lists') }, { key: BOOTSTRAP_KEY })).body.id;
    for (const person of people) {
      const created = await t.api.post('/users', { ...person, workspace_id: workspace, password: 'a long enough password' }, { key: BOOTSTRAP_KEY });
      expect(created.status).toBe(201);
      idOf.set(person.username, created.body.id);
    }
  });
  afterAll(() => t.close());

  it('filters by email, name and username without regard to case, exactly', async () => {
    expect(usernames((await get('filter[email]=ann.lee%40example.COM')).body)).toEqual(['ann-lee']);
    expect(usernames((await get('filter[email]=ann%40example.com')).body)).toEqual([]);
    expect(usernames((await get('filter[name]=bob%20ross')).body)).toEqual(['bob_ross', 'eve']);
    expect(usernames((await get('filter[name]=%C3%A9LO%C3%8FSE%20CL%C3%89O')).body)).toEqual(['cleo']);
    expect(usernames((await get('filter[username]=BOB_ROSS')).body)).toEqual(['bob_ross']);
  });

  it('filters by prefix, reading % and _ as themselves', async () => {
    expect(usernames((await get('filter_prefix[username]=dan%25')).body)).toEqual(['dan%']);
    expect(usernames((await get('filter_prefix[username]=bob_')).body)).toEqual(['bob_ross']);
    expect(usernames((await get('filter_prefix[username]=b%25')).body)).toEqual([]);
    expect(usernames((await get('filter_prefix[name]=ANN')).body)).toEqual(['ann-lee', 'dan%']);
    expect(usernames((await get('filter_prefix[email]=bob%40')).body)).toEqual(['bob_ross']);
  });

  it('searches the username, the name and the email for a part of any', async () => {
    expect(usernames((await get('search=ann')).body)).toEqual(['ann-lee', 'dan%']);
    expect(usernames((await get('search=PAINT')).body)).toEqual(['bob_ross']);
    expect(usernames((await get('search=%C3%8FSE')).body)).toEqual(['cleo']);
    expect(usernames((await get('search=_')).body)).toEqual(['bob_ross']);
    expect(usernames((await get('search=nobody-has-this')).body)).toEqual([]);
    // Combined with a filter: both must hold.
    expect(usernames((await get('search=ross&filter[email]=eve%40example.com')).body)).toEqual(['eve']);
  });

  it('filters by the flags, not_site_admin included', async () => {
    const admin = await t.api.post('/users', { username: unique('siteadmin'), site_admin: true }, { key: BOOTSTRAP_KEY });
    const zero = (query: string) => t.api.get(`/users?${query}`, { key: BOOTSTRAP_KEY });
    expect((await zero('filter[site_admin]=true')).body.map((u: { id: number }) => u.id)).toContain(admin.body.id);
    expect((await zero('filter[site_admin]=true')).body.every((u: { site_admin: boolean }) => u.site_admin)).toBe(true);
    expect((await zero('filter[not_site_admin]=true')).body.some((u: { site_admin: boolean }) => u.site_admin)).toBe(false);
    expect((await zero('filter[site_admin]=true&filter[not_site_admin]=true')).body).toEqual([]);
    await t.api.patch(`/users/${idOf.get('eve')}`, { disabled: true }, { key: BOOTSTRAP_KEY });
    expect(usernames((await get('filter[disabled]=true')).body)).toEqual(['eve']);
    await t.api.patch(`/users/${idOf.get('eve')}`, { disabled: false }, { key: BOOTSTRAP_KEY });
  });

  it('filters by the last sign-in, before, after and within its second', async () => {
    const before = new Date(t.clock.now() - 1000).toISOString().replace(/\.\d{3}/, '');
    const signedIn = await t.api.post('/sessions', { username: 'cleo', password: 'a long enough password' });
    expect(signedIn.status).toBe(201);
    const shown = (await t.api.get(`/users/${idOf.get('cleo')}`, { key: BOOTSTRAP_KEY, workspace })).body.last_login_at as string;
    expect(usernames((await get(`filter_gt[last_login_at]=${before}`)).body)).toEqual(['cleo']);
    expect(usernames((await get(`filter_gteq[last_login_at]=${shown}`)).body)).toEqual(['cleo']);
    expect(usernames((await get(`filter[last_login_at]=${shown}`)).body)).toEqual(['cleo']);
    expect(usernames((await get(`filter_lt[last_login_at]=${before}`)).body)).toEqual([]);
    expect(usernames((await get(`filter_lteq[last_login_at]=${shown}&filter_gt[last_login_at]=${before}`)).body)).toEqual(['cleo']);
  });

  it('sorts by name, email, username and the flags in either direction, ties by id, and pages through the order exactly', async () => {
    const all = people.map((p) => ({ ...p, id: idOf.get(p.username) as number }));
    const key = (text: string) => text.normalize('NFC').toLowerCase();
    const byName = [...all].sort((a, b) => (key(a.name) < key(b.name) ? -1 : key(a.name) > key(b.name) ? 1 : a.id - b.id));
    expect(usernames((await get('sort_by[name]=asc')).body)).toEqual(byName.map((p) => p.username));
    expect(usernames((await get('sort_by[name]=DESC')).body)).toEqual([...byName].reverse().map((p) => p.username));
    const byEmail = [...all].sort((a, b) => (key(a.email) < key(b.email) ? -1 : 1));
    expect(usernames((await get('sort_by[email]=asc')).body)).toEqual(byEmail.map((p) => p.username));
    expect(usernames((await get('sort_by[username]=desc')).body)).toEqual([...all].sort((a, b) => (a.username < b.username ? 1 : -1)).map((p) => p.username));
    expect(usernames((await get('sort_by[site_id]=asc')).body)).toEqual([...all].sort((a, b) => a.id - b.id).map((p) => p.username));

    // Two a page, following the cursor: every user once, in the order of the whole list.
    for (const direction of ['asc', 'desc']) {
      const seen = usernames(await allPages(get, `sort_by[name]=${direction}&per_page=2`));
      expect(seen).toEqual((direction === 'asc' ? byName : [...byName].reverse()).map((p) => p.username));
    }
  });

  it('filters and sorts by company (without regard to case), ssl_required and authenticate_until (no end date last)', async () => {
    const set = (username: string, fields: Record<string, unknown>) => t.api.patch(`/users/${idOf.get(username)}`, fields, { key: BOOTSTRAP_KEY });
    await set('ann-lee', { company: 'Acme Rockets', ssl_required: 'always_require', authenticate_until: '2030-01-01T00:00:00Z' });
    await set('bob_ross', { company: 'acme', authenticate_until: '2029-06-01T00:00:00Z' });
    await set('cleo', { company: 'Zeta', ssl_required: 'never_require' });
    expect(usernames((await get('filter[company]=ACME')).body)).toEqual(['bob_ross']);
    expect(usernames((await get('filter_prefix[company]=acme')).body)).toEqual(['ann-lee', 'bob_ross']);
    expect(usernames((await get('filter[ssl_required]=always_require')).body)).toEqual(['ann-lee']);
    expect(usernames((await get('filter[ssl_required]=no_such_value')).body)).toEqual([]);
    expect(usernames((await get('filter_lt[authenticate_until]=2029-12-31T00:00:00Z')).body)).toEqual(['bob_ross']);
    expect(usernames((await get('filter_gteq[authenticate_until]=2029-01-01T00:00:00Z')).body)).toEqual(['ann-lee', 'bob_ross']);
    expect(usernames((await get('filter[authenticate_until]=2030-01-01T00:00:00Z')).body)).toEqual(['ann-lee']);
    // No company sorts first (empty), no end date last; two a page follows the same order.
    const byCompany = ['dan%', 'eve', 'bob_ross', 'ann-lee', 'cleo'];
    expect(usernames((await get('sort_by[company]=asc')).body)).toEqual(byCompany);
    expect(usernames(await allPages(get, 'sort_by[company]=desc&per_page=2'))).toEqual([...byCompany].reverse());
    expect(usernames(await allPages(get, 'sort_by[authenticate_until]=asc&per_page=2'))).toEqual(['bob_ross', 'ann-lee', 'cleo', 'dan%', 'eve']);
    expect(usernames((await get('sort_by[ssl_required]=desc')).body)).toEqual(['eve', 'dan%', 'bob_ross', 'cleo', 'ann-lee']);
    for (const username of ['ann-lee', 'bob_ross', 'cleo']) await set(username, { company: '', ssl_required: 'use_system_setting', authenticate_until: null });
  });

  it('refuses a cursor made in another order, either way', async () => {
    const sorted = await get('sort_by[name]=asc&per_page=1');
    const sortedCursor = encodeURIComponent(sorted.headers.get('x-service-cursor') as string);
    const plain = await get('per_page=1');
    const plainCursor = encodeURIComponent(plain.headers.get('x-service-cursor') as string);
    const refused = async (query: string) => {
      const response = await get(query);
      expect({ query, status: response.status, type: response.body.type }).toEqual({ query, status: 400, type: 'bad-request/invalid-cursor-type-for-sort' });
    };
    await refused(`sort_by[name]=desc&cursor=${sortedCursor}`);
    await refused(`sort_by[email]=asc&cursor=${sortedCursor}`);
    await refused(`cursor=${sortedCursor}`);
    await refused(`sort_by[name]=asc&cursor=${plainCursor}`);
    expect((await get(`sort_by[name]=asc&cursor=${sortedCursor}`)).status).toBe(200);
  });

  it('refuses what it cannot filter or sort on, naming it, instead of answering everyone', async () => {
    const cases: [string, string, RegExp][] = [
      ['filter[password_validity_days]=30', 'bad-request/invalid-filter-field', /filter\[password_validity_days\].*no password expiry/],
      ['filter[favourite_colour]=blue', 'bad-request/invalid-filter-field', /filter\[favourite_colour\]/],
      ['filter_gt[company]=Ac', 'bad-request/invalid-filter-field', /filter_gt\[company\]/],
      ['filter_gt[username]=a', 'bad-request/invalid-filter-field', /filter_gt\[username\]/],
      ['filter_lt[authenticate_until]=soon', 'bad-request/request-params-invalid', /authenticate_until/],
      ['sort_by[password_validity_days]=asc', 'bad-request/invalid-sort-field', /no password expiry/],
      ['sort_by[last_desktop_login_at]=asc', 'bad-request/invalid-sort-field', /desktop/],
      ['sort_by[name]=up', 'bad-request/request-params-invalid', /sort_by\[name\]/],
      ['sort_by[name]=asc&sort_by[email]=asc', 'bad-request/multiple-sort-params-not-allowed', /one field/],
      ['filter[site_admin]=maybe', 'bad-request/request-params-invalid', /filter\[site_admin\]/],
      ['filter_gt[last_login_at]=yesterday', 'bad-request/request-params-invalid', /filter_gt\[last_login_at\]/],
      ['filter[workspace_id]=-1', 'bad-request/request-params-invalid', /filter\[workspace_id\]/],
    ];
    for (const [query, type, message] of cases) {
      const response = await get(query);
      expect({ query, status: response.status, type: response.body.type }).toEqual({ query, status: 400, type });
      expect(response.body.error).toMatch(message);
    }
    // The SDK's include_parent_site_users: a site of Atrium has no parent, so the answer is the same.
    expect(usernames((await get('include_parent_site_users=true&filter_prefix[username]=ann')).body)).toEqual(['ann-lee']);
  });

  it('never widens what the caller may see', async () => {
    const member = await createUser(t.database.db, { workspaceId: workspace });
    const key = await createApiKey(t.database.db, { userId: member.id, workspaceId: workspace });
    for (const query of ['search=ann', 'filter_prefix[username]=', 'sort_by[name]=asc', `filter[username]=ann-lee`]) {
      const response = await t.api.get(`/users?${query}`, { key, workspace });
      expect({ query, ids: response.body.map((u: { id: number }) => u.id) }).toEqual({ query, ids: query.includes('ann-lee') || query.includes('search') ? [] : [member.id] });
    }
  });
});
