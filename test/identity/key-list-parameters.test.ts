import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOpenSshKeyPairSync } from '../../src/lib/openssh-key-pair.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { allPages } from '../support/all-pages.js';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * GET /api_keys (`expires_at`) and GET /public_keys (`created_at`): the Files.com SDKs' filters and
 * sorts, honoured; any other field refused by name.
 */
describe.each(testDatabaseTargets())('key list parameters [$name]', (target) => {
  let t: TestApp;
  let userId: number;
  const keyIds: { id: number; expires: number | null }[] = [];
  const sshKeyIds: { id: number; created: number }[] = [];

  beforeAll(async () => {
    t = await startTestApp(target);
    userId = (await createUser(t.database.db)).id;
    const now = t.clock.now();
    for (const expires of [now + 3 * DAY, null, now + DAY, now + 2 * DAY, null]) {
      const created = await t.api.post('/api_keys', { name: 'k', user_id: userId, ...(expires === null ? {} : { expires_at: iso(expires) }) }, { key: BOOTSTRAP_KEY });
      expect(created.status).toBe(201);
      keyIds.push({ id: created.body.id, expires: expires === null ? null : Math.floor(expires / 1000) * 1000 });
    }
    for (let i = 0; i < 3; i += 1) {
      const line = generateOpenSshKeyPairSync('ed25519').public.trim();
      const added = await t.api.post('/public_keys', { title: `k${i}`, user_id: userId, public_key: line }, { key: BOOTSTRAP_KEY });
      expect(added.status).toBe(201);
      sshKeyIds.push({ id: added.body.id, created: t.clock.now() });
      t.clock.advance(DAY);
    }
  });
  afterAll(() => t.close());

  const keys = (query: string) => t.api.get(`/api_keys?user_id=${userId}&${query}`, { key: BOOTSTRAP_KEY });
  const ids = (body: { id: number }[]) => body.map((k) => k.id);

  it('filters API keys by when they expire; a key that never expires is in no range', async () => {
    const [, , inOneDay, inTwoDays] = keyIds;
    expect(ids((await keys(`filter[expires_at]=${iso(inOneDay?.expires as number)}`)).body)).toEqual([inOneDay?.id]);
    expect(ids((await keys(`filter_lt[expires_at]=${iso(inTwoDays?.expires as number)}`)).body)).toEqual([inOneDay?.id]);
    expect(ids((await keys(`filter_lteq[expires_at]=${iso(inTwoDays?.expires as number)}`)).body)).toEqual([inTwoDays?.id, inOneDay?.id].sort((a, b) => (a as number) - (b as number)));
    expect(ids((await keys(`filter_gt[expires_at]=${iso(inTwoDays?.expires as number)}`)).body)).toEqual([keyIds[0]?.id]);
  });

  it('sorts API keys by expiry either way, the keys that never expire last when ascending, and pages through the order', async () => {
    const order = [...keyIds].sort((a, b) => (a.expires ?? Number.MAX_SAFE_INTEGER) - (b.expires ?? Number.MAX_SAFE_INTEGER) || a.id - b.id).map((k) => k.id);
    expect(ids((await keys('sort_by[expires_at]=asc')).body)).toEqual(order);
    expect(ids((await keys('sort_by[expires_at]=desc')).body)).toEqual([...order].reverse());
    expect(ids(await allPages(keys, 'sort_by[expires_at]=asc&per_page=2'))).toEqual(order);
  });

  it('filters SSH public keys by when they were added', async () => {
    const sshKeys = (query: string) => t.api.get(`/public_keys?user_id=${userId}&${query}`, { key: BOOTSTRAP_KEY });
    const [first, second, third] = sshKeyIds;
    expect(ids((await sshKeys(`filter[created_at]=${iso(second?.created as number)}`)).body)).toEqual([second?.id]);
    expect(ids((await sshKeys(`filter_gteq[created_at]=${iso(second?.created as number)}`)).body)).toEqual([second?.id, third?.id]);
    expect(ids((await sshKeys(`filter_lt[created_at]=${iso(second?.created as number)}`)).body)).toEqual([first?.id]);
  });

  it('refuses what it cannot filter or sort on, naming it', async () => {
    const cases: [string, string][] = [
      [`/api_keys?filter[name]=k`, 'bad-request/invalid-filter-field'],
      [`/api_keys?sort_by[name]=asc`, 'bad-request/invalid-sort-field'],
      [`/api_keys?filter_gt[expires_at]=soon`, 'bad-request/request-params-invalid'],
      [`/public_keys?sort_by[created_at]=asc`, 'bad-request/invalid-sort-field'],
      [`/public_keys?filter[title]=k0`, 'bad-request/invalid-filter-field'],
      [`/public_keys?filter_prefix[title]=k`, 'bad-request/invalid-filter-field'],
    ];
    for (const [query, type] of cases) {
      const response = await t.api.get(query, { key: BOOTSTRAP_KEY });
      expect({ query, status: response.status, type: response.body.type }).toEqual({ query, status: 400, type });
    }
  });
});
