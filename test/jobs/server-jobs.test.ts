import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLL_INTERVAL_MS, enqueueJob, findJob } from '../../src/jobs/index.js';
import { testDatabaseTargets } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The server's own runner: started with the core, polling on the core's timer, stopped with it. */
describe.each(testDatabaseTargets())('the server\'s background jobs [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(() => t.close());

  it('runs a job queued while the server runs at its next poll, by the handler registered on the core', async () => {
    const ran: unknown[] = [];
    t.core.jobs.register('server-test', (payload) => void ran.push(payload));
    // Started with the core, it runs what the core's own duties queued at start (the trash's
    // purge), then finds nothing due and waits for its next poll, its only timer.
    const waitingForPoll = () => t.timer.pending().length === 1 && t.timer.pending()[0] === DEFAULT_POLL_INTERVAL_MS;
    for (let turn = 0; turn < 10_000 && !waitingForPoll(); turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(t.timer.pending()).toEqual([DEFAULT_POLL_INTERVAL_MS]);
    const { job } = await enqueueJob(t.database.db, { kind: 'server-test', payload: { path: 'Reports/a.txt' }, runAt: t.clock.now() }, t.clock.now());
    t.timer.fire();
    for (let turn = 0; turn < 10_000 && (await findJob(t.database.db, job.id))?.status !== 'done'; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(await findJob(t.database.db, job.id)).toMatchObject({ status: 'done', attempts: 1, lockedBy: t.core.jobs.nodeId });
    expect(ran).toEqual([{ path: 'Reports/a.txt' }]);
  });
});
