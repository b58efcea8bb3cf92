import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { cachedRead, requestArrived } from '../../src/db/read-cache.js';
import {
  cancelJob,
  claimDueJob,
  completeJob,
  enqueueJob,
  extendLease,
  failJob,
  findJob,
  jobCounts,
  retryDelayMs,
} from '../../src/jobs/index.js';
import { testDatabaseTargets } from '../support/databases.js';
import { unique } from '../support/factories.js';
import { TestClock } from '../support/test-clock.js';
import { openAsTwoNodes } from './jobs-database.js';

const LEASE_MS = 60_000;

/** The background jobs' queue on a real database, opened as two nodes: what each call changes in the jobs table. */
describe.each(testDatabaseTargets())('the jobs queue [$name]', (target) => {
  let first: Database;
  let second: Database;
  let close: () => Promise<void>;
  const clock = new TestClock();
  beforeAll(async () => {
    ({ first, second, close } = await openAsTwoNodes(target));
  });
  afterAll(() => close());

  /** Ends every job earlier tests left queued or running, so that each test claims only its own. */
  async function drain(): Promise<void> {
    await first.db.updateTable('jobs').set({ status: 'done', locked_until: null, finished_at: clock.now() }).where('status', 'in', ['queued', 'running']).execute();
  }

  it('queues a job, lets one node claim it for a lease counting an attempt, and records it done', async () => {
    await drain();
    const { job, created } = await enqueueJob(first.db, { kind: 'copy', payload: { from: 'a.txt', to: 'b/', sizes: [1, 2] }, runAt: clock.now() }, clock.now());
    expect(created).toBe(true);
    expect(job).toMatchObject({ kind: 'copy', status: 'queued', attempts: 0, maxAttempts: 3, lockedBy: null, lockedUntil: null, dedupeKey: null, finishedAt: null });

    const claimed = await claimDueJob(second.db, 'node-b', clock.now(), LEASE_MS);
    expect(claimed).toMatchObject({ id: job.id, status: 'running', attempts: 1, lockedBy: 'node-b', lockedUntil: clock.now() + LEASE_MS, payload: { from: 'a.txt', to: 'b/', sizes: [1, 2] } });
    // Held: no other node gets it, nor anything else.
    expect(await claimDueJob(first.db, 'node-a', clock.now(), LEASE_MS)).toBeUndefined();

    clock.advance(1_000);
    expect(await completeJob(second.db, claimed!, clock.now())).toBe(true);
    expect(await findJob(first.db, job.id)).toMatchObject({ status: 'done', attempts: 1, lockedBy: 'node-b', lockedUntil: null, finishedAt: clock.now(), updatedAt: clock.now() });
    // Done is final: a second completion by the same attempt changes nothing.
    expect(await completeJob(second.db, claimed!, clock.now())).toBe(false);
  });

  it('claims a job only once it is due, the earliest due first', async () => {
    await drain();
    const later = (await enqueueJob(first.db, { kind: 'k', payload: null, runAt: clock.now() + 2_000 }, clock.now())).job;
    const sooner = (await enqueueJob(first.db, { kind: 'k', payload: null, runAt: clock.now() + 1_000 }, clock.now())).job;
    expect(await claimDueJob(first.db, 'n', clock.now(), LEASE_MS)).toBeUndefined();
    clock.advance(2_000);
    expect((await claimDueJob(first.db, 'n', clock.now(), LEASE_MS))?.id).toBe(sooner.id);
    expect((await claimDueJob(first.db, 'n', clock.now(), LEASE_MS))?.id).toBe(later.id);
    expect(await claimDueJob(first.db, 'n', clock.now(), LEASE_MS)).toBeUndefined();
  });

  it('gives a job whose lease ran out (its node died) to another node, whose attempt alone counts from then on', async () => {
    await drain();
    const { job } = await enqueueJob(first.db, { kind: 'k', payload: 1, runAt: clock.now() }, clock.now());
    const dead = (await claimDueJob(first.db, 'node-a', clock.now(), LEASE_MS))!;
    clock.advance(LEASE_MS - 1);
    expect(await claimDueJob(second.db, 'node-b', clock.now(), LEASE_MS)).toBeUndefined();
    clock.advance(1);
    const retaken = (await claimDueJob(second.db, 'node-b', clock.now(), LEASE_MS))!;
    expect(retaken).toMatchObject({ id: job.id, attempts: 2, lockedBy: 'node-b' });
    // The first node, back, can no longer keep, finish or fail what is not its attempt's.
    expect(await extendLease(first.db, dead, clock.now(), LEASE_MS)).toBe(false);
    expect(await completeJob(first.db, dead, clock.now())).toBe(false);
    expect(await failJob(first.db, dead, 'late', clock.now())).toBe(false);
    expect(await findJob(first.db, job.id)).toMatchObject({ status: 'running', lockedBy: 'node-b', attempts: 2 });
    // A heartbeat keeps the lease beyond its first end.
    clock.advance(LEASE_MS / 2);
    expect(await extendLease(second.db, retaken, clock.now(), LEASE_MS)).toBe(true);
    clock.advance(LEASE_MS / 2 + 1);
    expect(await claimDueJob(first.db, 'node-a', clock.now(), LEASE_MS)).toBeUndefined();
    expect(await completeJob(second.db, retaken, clock.now())).toBe(true);
  });

  it('queues a failed attempt again after 10 s, then 40 s, and fails it for good after its last, keeping the error', async () => {
    await drain();
    expect([1, 2, 3, 4, 5, 6].map(retryDelayMs)).toEqual([10_000, 40_000, 160_000, 640_000, 2_560_000, 3_600_000]);
    const { job } = await enqueueJob(first.db, { kind: 'k', payload: null, runAt: clock.now() }, clock.now());
    let claimed = (await claimDueJob(first.db, 'n', clock.now(), LEASE_MS))!;
    expect(await failJob(first.db, claimed, 'target unreachable', clock.now())).toBe(true);
    expect(await findJob(first.db, job.id)).toMatchObject({ status: 'queued', attempts: 1, runAt: clock.now() + 10_000, lockedBy: null, lastError: 'target unreachable', finishedAt: null });
    clock.advance(9_999);
    expect(await claimDueJob(first.db, 'n', clock.now(), LEASE_MS)).toBeUndefined();
    clock.advance(1);
    claimed = (await claimDueJob(first.db, 'n', clock.now(), LEASE_MS))!;
    await failJob(first.db, claimed, 'still unreachable', clock.now());
    expect(await findJob(first.db, job.id)).toMatchObject({ status: 'queued', attempts: 2, runAt: clock.now() + 40_000 });
    clock.advance(40_000);
    claimed = (await claimDueJob(first.db, 'n', clock.now(), LEASE_MS))!;
    expect(claimed.attempts).toBe(3);
    await failJob(first.db, claimed, 'gone for good', clock.now());
    expect(await findJob(first.db, job.id)).toMatchObject({ status: 'failed', attempts: 3, lastError: 'gone for good', finishedAt: clock.now(), lockedUntil: null });
    clock.advance(3_600_000);
    expect(await claimDueJob(first.db, 'n', clock.now(), LEASE_MS)).toBeUndefined();
  });

  it('answers the existing job for a dedupe key used before, also to enqueues racing from two nodes', async () => {
    await drain();
    const key = unique('schedule-7@2026-01-01T00:00:00Z');
    const original = await enqueueJob(first.db, { kind: 'k', payload: 'first', runAt: clock.now(), dedupeKey: key }, clock.now());
    const again = await enqueueJob(second.db, { kind: 'k', payload: 'second', runAt: clock.now() + 5, dedupeKey: key }, clock.now());
    expect(original.created).toBe(true);
    expect(again).toEqual({ job: original.job, created: false });

    const raced = unique('schedule-8@2026-01-01T00:00:00Z');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      enqueueJob(i % 2 === 0 ? first.db : second.db, { kind: 'k', payload: i, runAt: clock.now(), dedupeKey: raced }, clock.now())));
    expect(answers.filter((answer) => answer.created)).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.job.id)).size).toBe(1);
    const rows = await first.db.selectFrom('jobs').select('id').where('dedupe_key', '=', raced).execute();
    expect(rows).toEqual([{ id: answers[0]!.job.id }]);
    // A key's job that has ended still answers: at most one job per key, ever.
    await drain();
    expect((await enqueueJob(first.db, { kind: 'k', payload: null, runAt: clock.now(), dedupeKey: raced }, clock.now())).job).toMatchObject({ id: rows[0]!.id, status: 'done' });
  });

  it('cancels a queued job, which then never runs, and a running one, whose end is then not recorded; an ended job stays as it was', async () => {
    await drain();
    const queued = (await enqueueJob(first.db, { kind: 'k', payload: null, runAt: clock.now() }, clock.now())).job;
    expect(await cancelJob(second.db, queued.id, clock.now())).toBe(true);
    expect(await findJob(first.db, queued.id)).toMatchObject({ status: 'canceled', finishedAt: clock.now() });
    expect(await claimDueJob(first.db, 'n', clock.now(), LEASE_MS)).toBeUndefined();
    expect(await cancelJob(second.db, queued.id, clock.now())).toBe(false);

    const running = (await enqueueJob(first.db, { kind: 'k', payload: null, runAt: clock.now() }, clock.now())).job;
    const claimed = (await claimDueJob(first.db, 'n', clock.now(), LEASE_MS))!;
    expect(await cancelJob(second.db, running.id, clock.now())).toBe(true);
    expect(await completeJob(first.db, claimed, clock.now())).toBe(false);
    expect(await extendLease(first.db, claimed, clock.now(), LEASE_MS)).toBe(false);
    expect((await findJob(first.db, running.id))?.status).toBe('canceled');
    clock.advance(LEASE_MS);
    expect(await claimDueJob(first.db, 'n', clock.now(), LEASE_MS)).toBeUndefined();

    const done = (await enqueueJob(first.db, { kind: 'k', payload: null, runAt: clock.now() }, clock.now())).job;
    await drain();
    expect(await cancelJob(first.db, done.id, clock.now())).toBe(false);
    expect((await findJob(first.db, done.id))?.status).toBe('done');
    expect(await cancelJob(first.db, 987_654_321, clock.now())).toBe(false);
  });

  it('counts the jobs in each status', async () => {
    await drain();
    const before = await jobCounts(first.db);
    await enqueueJob(first.db, { kind: 'k', payload: null, runAt: clock.now() + 60_000 }, clock.now());
    const failing = (await enqueueJob(first.db, { kind: 'k', payload: null, runAt: clock.now(), maxAttempts: 1 }, clock.now())).job;
    await failJob(first.db, (await claimDueJob(first.db, 'n', clock.now(), LEASE_MS))!, 'broken', clock.now());
    expect((await findJob(first.db, failing.id))?.status).toBe('failed');
    await enqueueJob(first.db, { kind: 'k', payload: null, runAt: clock.now() }, clock.now());
    await claimDueJob(first.db, 'n', clock.now(), LEASE_MS);
    expect(await jobCounts(second.db)).toEqual({ ...before, queued: before.queued + 1, running: before.running + 1, failed: before.failed + 1 });
  });

  it('refuses a job without a kind or with fewer than one attempt', async () => {
    await expect(enqueueJob(first.db, { kind: '', payload: null, runAt: clock.now() }, clock.now())).rejects.toThrow('a job needs a kind');
    await expect(enqueueJob(first.db, { kind: 'k', payload: null, runAt: clock.now(), maxAttempts: 0 }, clock.now())).rejects.toThrow('maxAttempts');
  });

  it('leaves cached reads alone: no cached read reads the queue, and every node writes it', async () => {
    await drain();
    let loads = 0;
    const kind = unique('test-workspace-count');
    const read = () => cachedRead(first.db, kind, '', async () => {
      loads += 1;
      return first.db.selectFrom('workspaces').select('id').execute();
    });
    await requestArrived(first.db, read);
    await requestArrived(first.db, async () => {
      const { job } = await enqueueJob(first.db, { kind: 'k', payload: null, runAt: clock.now() }, clock.now());
      const claimed = (await claimDueJob(first.db, 'n', clock.now(), LEASE_MS))!;
      expect(claimed.id).toBe(job.id);
      await extendLease(first.db, claimed, clock.now(), LEASE_MS);
      await completeJob(first.db, claimed, clock.now());
    });
    await requestArrived(first.db, read);
    expect(loads).toBe(1);
  });
});
