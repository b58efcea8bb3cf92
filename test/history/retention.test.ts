import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvents, pruneHistory, PRUNE_BATCH, verifyHistoryChain } from '../../src/history/index.js';
import { testDatabaseTargets } from '../support/databases.js';
import { unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Retention (docs/history.md): records older than `history_retention_days` go, oldest first, in
 * bounded batches, and what is left still verifies from where the cut was made.
 */
describe.each(testDatabaseTargets())('history retention [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  const admin = { key: BOOTSTRAP_KEY };
  const retentionDays = async () => (await t.api.get('/site', admin)).body.history_retention_days as number;

  it('keeps a year by default, and takes another period from PATCH /site within its bounds', async () => {
    expect(await retentionDays()).toBe(365);
    for (const refused of [0, 36_501, 1.5]) {
      const answer = await t.api.patch('/site', { history_retention_days: refused }, admin);
      expect([answer.status, answer.body.type]).toEqual([400, 'bad-request/request-params-invalid']);
    }
    expect((await t.api.patch('/site', { history_retention_days: 30 }, admin)).body.history_retention_days).toBe(30);
    expect((await t.api.get('/history?filter[action]=site_update', admin)).body[0].targets).toEqual({ before: { history_retention_days: 365 }, after: { history_retention_days: 30 } });
  });

  it('removes only records older than the period, in batches, and the rest still verifies', async () => {
    // More old records than one batch holds, written as the recording core writes them.
    const old = PRUNE_BATCH * 2 + 17;
    const events = Array.from({ length: old }, (_, i) => ({ action: 'user_update' as const, workspaceId: null, display: `old change ${i}` }));
    await t.database.db.transaction().execute((tx) => appendEvents(tx, { now: t.clock.now(), origin: { interface: 'restapi', ip: '127.0.0.1' }, actor: { userId: null, username: null, apiKeyId: null } }, events));
    t.clock.advance(31 * DAY);
    const recent = await t.api.post('/users', { username: unique('recent') }, admin);
    expect(recent.status).toBe(201);

    const removed = await pruneHistory(t.database.db, t.clock.now(), await retentionDays());
    expect(removed).toBeGreaterThanOrEqual(old);
    const left = (await t.api.get('/history?per_page=10000', admin)).body as { when: string; targets: { id?: number } | null }[];
    const cutoff = new Date(t.clock.now() - 30 * DAY).toISOString();
    expect(left.every((record) => Date.parse(record.when) >= Math.floor(Date.parse(cutoff) / 1000) * 1000)).toBe(true);
    expect(left.some((record) => record.targets?.id === recent.body.id)).toBe(true);
    expect(await verifyHistoryChain(t.database.db)).toMatchObject({ intact: true });

    // Nothing more is old: a second pass removes nothing, and new records chain on.
    expect(await pruneHistory(t.database.db, t.clock.now(), 30)).toBe(0);
    await t.api.post('/users', { username: unique('after') }, admin);
    expect(await verifyHistoryChain(t.database.db)).toMatchObject({ intact: true });
  });
});
