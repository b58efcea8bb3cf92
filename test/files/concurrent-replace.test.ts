import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Many clients replacing one file at once: each write succeeds in turn (the last one wins) and is
 * recorded once, never a 500 for having lost a race to the others.
 */
describe.each(testDatabaseTargets())('concurrent replacements of one file [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  it('answers every PUT with 201 and records each', async () => {
    const put = (n: number) => fetch(`${t.baseUrl}/api/rest/v1/files/busy.bin`, {
      method: 'PUT', headers: { 'X-ServiceAPI-Key': BOOTSTRAP_KEY, 'content-type': 'application/octet-stream' }, body: String(n).repeat(1024),
    }).then((r) => r.status);
    const statuses: number[] = [];
    for (let round = 0; round < 4; round += 1) statuses.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => put(i)))));
    expect(statuses).toEqual(Array(40).fill(201));
    const records = await t.database.db.selectFrom('history').select('action').where('path_key', '=', 'busy.bin').execute();
    expect(records.map((r) => r.action).sort()).toEqual(['create', ...Array(39).fill('update')]);
    const listed = await t.api.get('/folders', { key: BOOTSTRAP_KEY });
    expect(listed.body.find((entry: { path: string }) => entry.path === 'busy.bin')?.size).toBe(1024);
  });
});
