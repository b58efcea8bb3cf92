import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { cancelJob, claimDueJob, enqueueJob, findJob, JobRunner, type JobContext, type JobHandler } from '../../src/jobs/index.js';
import { testDatabaseTargets } from '../support/databases.js';
import { ManualTimer } from '../support/manual-timer.js';
import { TestClock } from '../support/test-clock.js';
import { openAsTwoNodes } from './jobs-database.js';

const LEASE_MS = 60_000;

/** A promise and the function that resolves it: a handler that runs until a test lets it end. */
function gate(): { opened: Promise<void>; open(): void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * Lets the event loop run until `condition` holds (other promises of the test settle meanwhile); no
 * timer is fired. The bound only keeps a broken build from hanging: a database round trip on a
 * loaded machine can take many turns, so it is generous real time, never a measure of speed.
 */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  const giveUpAt = Date.now() + 20_000;
  while (Date.now() < giveUpAt) {
    if (await condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('the condition never held');
}

/** The runner on two nodes of a real database, their time moved by a TestClock and their waits fired by hand. */
describe.each(testDatabaseTargets())('the job runner [$name]', (target) => {
  let first: Database;
  let second: Database;
  let close: () => Promise<void>;
  const clock = new TestClock();
  let timer: ManualTimer;
  const runners: JobRunner[] = [];
  beforeAll(async () => {
    ({ first, second, close } = await openAsTwoNodes(target));
  });
  afterAll(async () => {
    await Promise.all(runners.map((runner) => runner.stop()));
    await close();
  });
  beforeEach(async () => {
    // Each test's runners know only its own kinds: what earlier tests left queued is ended here.
    await first.db.updateTable('jobs').set({ status: 'done', locked_until: null }).where('status', 'in', ['queued', 'running']).execute();
    timer = new ManualTimer();
  });

  function runner(database: Database, nodeId: string, handlers: Record<string, JobHandler> = {}): JobRunner {
    const made = new JobRunner({ db: database.db, clock, timer, nodeId, leaseMs: LEASE_MS });
    for (const [kind, handler] of Object.entries(handlers)) made.register(kind, handler);
    runners.push(made);
    return made;
  }

  const enqueue = (kind: string, payload: unknown, options: { runAt?: number; maxAttempts?: number } = {}) =>
    enqueueJob(first.db, { kind, payload, runAt: options.runAt ?? clock.now(), maxAttempts: options.maxAttempts }, clock.now()).then((answer) => answer.job);

  it('runs every due job by its kind\'s handler, with its payload, its attempt and the runner\'s clock, then records it done', async () => {
    const seen: { payload: unknown; attempts: number; at: number; nodeId: string }[] = [];
    const node = runner(first, 'node-a', {
      greet: (payload, job, context: JobContext) => {
        seen.push({ payload, attempts: job.attempts, at: context.now(), nodeId: context.nodeId });
      },
    });
    const one = await enqueue('greet', { name: 'one' });
    const two = await enqueue('greet', { name: 'two' });
    const later = await enqueue('greet', { name: 'later' }, { runAt: clock.now() + 1_000 });
    expect(await node.runDue()).toBe(2);
    expect(seen).toEqual([
      { payload: { name: 'one' }, attempts: 1, at: clock.now(), nodeId: 'node-a' },
      { payload: { name: 'two' }, attempts: 1, at: clock.now(), nodeId: 'node-a' },
    ]);
    expect(await findJob(first.db, one.id)).toMatchObject({ status: 'done', attempts: 1, lockedBy: 'node-a', finishedAt: clock.now() });
    expect((await findJob(first.db, two.id))?.status).toBe('done');
    expect((await findJob(first.db, later.id))?.status).toBe('queued');
    clock.advance(1_000);
    expect(await node.runDue()).toBe(1);
    expect((await findJob(first.db, later.id))?.status).toBe('done');
    expect(await node.runDue()).toBe(0);
  });

  it('runs each of 200 jobs exactly once when two nodes run the queue at the same time', async () => {
    const runs = new Map<number, number>();
    const count: JobHandler = async (payload) => {
      const index = payload as number;
      runs.set(index, (runs.get(index) ?? 0) + 1);
      // Gives the other node its turn between claims.
      await new Promise((resolve) => setImmediate(resolve));
    };
    const ids: number[] = [];
    for (let index = 0; index < 200; index += 1) ids.push((await enqueue('count', index)).id);
    const [a, b] = await Promise.all([runner(first, 'node-a', { count }).runDue(), runner(second, 'node-b', { count }).runDue()]);
    expect(a + b).toBe(200);
    // Both took part: the claims really raced.
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    expect([...runs.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: 200 }, (_, index) => index));
    expect([...runs.values()].every((times) => times === 1)).toBe(true);
    const rows = await first.db.selectFrom('jobs').select(['status', 'attempts']).where('id', 'in', ids).execute();
    expect(rows.every((row) => row.status === 'done' && Number(row.attempts) === 1)).toBe(true);
  });

  it('finishes on another node a job whose node died mid-job, once its lease has run out, counting both attempts', async () => {
    const attempts: number[] = [];
    const survivor = runner(second, 'node-b', { copy: (_payload, job) => void attempts.push(job.attempts) });
    const job = await enqueue('copy', { from: 'a.txt' });
    // node-a takes the job and is killed before it ends: it never records anything again.
    expect((await claimDueJob(first.db, 'node-a', clock.now(), LEASE_MS))?.id).toBe(job.id);
    expect(await survivor.runDue()).toBe(0);
    clock.advance(LEASE_MS - 1);
    expect(await survivor.runDue()).toBe(0);
    clock.advance(1);
    expect(await survivor.runDue()).toBe(1);
    expect(attempts).toEqual([2]);
    expect(await findJob(first.db, job.id)).toMatchObject({ status: 'done', attempts: 2, lockedBy: 'node-b' });
  });

  it('fails for good, without running it, a job whose node died during its last attempt', async () => {
    let ran = false;
    const survivor = runner(second, 'node-b', { once: () => void (ran = true) });
    const job = await enqueue('once', null, { maxAttempts: 1 });
    await claimDueJob(first.db, 'node-a', clock.now(), LEASE_MS);
    clock.advance(LEASE_MS);
    expect(await survivor.runDue()).toBe(1);
    expect(ran).toBe(false);
    expect(await findJob(first.db, job.id)).toMatchObject({ status: 'failed', lastError: 'the node running its last attempt stopped before it ended (1 of 1 attempts)' });
  });

  it('tries a failing job again after 10 s and 40 s, then records it failed with the last error', async () => {
    const attempts: number[] = [];
    const node = runner(first, 'node-a', {
      flaky: (_payload, job) => {
        attempts.push(job.attempts);
        throw new Error(`target unreachable (attempt ${job.attempts})`);
      },
    });
    const job = await enqueue('flaky', null);
    expect(await node.runDue()).toBe(1);
    expect(await findJob(first.db, job.id)).toMatchObject({ status: 'queued', attempts: 1, runAt: clock.now() + 10_000, lastError: 'target unreachable (attempt 1)' });
    clock.advance(9_999);
    expect(await node.runDue()).toBe(0);
    clock.advance(1);
    expect(await node.runDue()).toBe(1);
    expect(await findJob(first.db, job.id)).toMatchObject({ status: 'queued', attempts: 2, runAt: clock.now() + 40_000 });
    clock.advance(40_000);
    expect(await node.runDue()).toBe(1);
    expect(await findJob(first.db, job.id)).toMatchObject({ status: 'failed', attempts: 3, lastError: 'target unreachable (attempt 3)', finishedAt: clock.now() });
    clock.advance(24 * 60 * 60 * 1000);
    expect(await node.runDue()).toBe(0);
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('tells the kind\'s onGivenUp, once, with the last error, when a job fails for good (and not before)', async () => {
    const givenUp: unknown[] = [];
    const node = runner(first, 'node-a');
    node.register('doomed', () => {
      throw new Error('still unreachable');
    }, async (payload, error) => void givenUp.push({ payload, error }));
    await enqueue('doomed', { n: 7 }, { maxAttempts: 2 });
    await node.runDue();
    expect(givenUp).toEqual([]);
    clock.advance(10_000);
    await node.runDue();
    expect(givenUp).toEqual([{ payload: { n: 7 }, error: 'still unreachable' }]);
    clock.advance(24 * 60 * 60 * 1000);
    await node.runDue();
    expect(givenUp).toHaveLength(1);
  });

  it('records a job done when a later attempt succeeds', async () => {
    const node = runner(first, 'node-a', {
      second: (_payload, job) => {
        if (job.attempts === 1) throw new Error('not yet');
      },
    });
    const job = await enqueue('second', null);
    await node.runDue();
    clock.advance(10_000);
    await node.runDue();
    expect(await findJob(first.db, job.id)).toMatchObject({ status: 'done', attempts: 2, lastError: 'not yet' });
  });

  it('fails a job of a kind it has no handler for at once, with the reason, and runs the next', async () => {
    let ran = 0;
    const node = runner(first, 'node-a', { known: () => void (ran += 1) });
    const unknown = await enqueue('no-such-kind', null);
    const known = await enqueue('known', null);
    expect(await node.runDue()).toBe(2);
    expect(await findJob(first.db, unknown.id)).toMatchObject({ status: 'failed', attempts: 1, lastError: 'no handler for job kind "no-such-kind" on node node-a' });
    expect((await findJob(first.db, known.id))?.status).toBe('done');
    expect(ran).toBe(1);
  });

  it('never runs a canceled job, and lets a running one know by its signal at the next heartbeat that it was canceled', async () => {
    let ran = false;
    const release = gate();
    let signal: AbortSignal | undefined;
    const node = runner(first, 'node-a', {
      skipped: () => void (ran = true),
      long: async (_payload, _job, context) => {
        signal = context.signal;
        await release.opened;
      },
    });
    const skipped = await enqueue('skipped', null);
    await cancelJob(first.db, skipped.id, clock.now());
    const long = await enqueue('long', null);
    const running = node.runDue();
    try {
      await until(() => signal !== undefined);
      await cancelJob(second.db, long.id, clock.now());
      expect(signal?.aborted).toBe(false);
      timer.fire();
      await until(() => signal?.aborted === true);
    } finally {
      release.open();
    }
    expect(await running).toBe(1);
    expect(ran).toBe(false);
    expect((await findJob(first.db, long.id))?.status).toBe('canceled');
  });

  it('keeps a long job\'s lease by a heartbeat while it runs, so no other node takes it', async () => {
    const release = gate();
    let started = false;
    const node = runner(first, 'node-a', {
      long: async () => {
        started = true;
        await release.opened;
      },
    });
    const other = runner(second, 'node-b', { long: () => undefined });
    const job = await enqueue('long', null);
    const running = node.runDue();
    try {
      await until(() => started);
      expect(timer.pending()).toEqual([LEASE_MS / 3]);
      for (let beat = 1; beat <= 3; beat += 1) {
        // The next beat is set once the last one's answer is in.
        await until(() => timer.pending().length === 1);
        clock.advance(LEASE_MS / 3);
        timer.fire();
        const expected = clock.now() + LEASE_MS;
        await until(async () => (await findJob(first.db, job.id))?.lockedUntil === expected);
      }
      // Past its first lease's end, and still node-a's.
      expect(await other.runDue()).toBe(0);
    } finally {
      release.open();
    }
    expect(await running).toBe(1);
    expect(await findJob(first.db, job.id)).toMatchObject({ status: 'done', attempts: 1, lockedBy: 'node-a' });
    expect(timer.pending()).toEqual([]);
  });

  it('runs what is due when it starts, then at each poll; stopping waits for the job running then and polls no more', async () => {
    const release = gate();
    const done: string[] = [];
    const node = new JobRunner({ db: first.db, clock, timer, nodeId: 'node-a', leaseMs: LEASE_MS, pollIntervalMs: 5_000 });
    node.register('note', async (payload) => {
      if (payload === 'slow') await release.opened;
      done.push(payload as string);
    });
    // Due while the node was down: run as it starts.
    await enqueue('note', 'waiting since before the start');
    node.start();
    await until(() => done.length === 1);
    await until(() => timer.pending().includes(5_000));
    await enqueue('note', 'slow');
    timer.fire();
    await until(() => timer.pending().includes(LEASE_MS / 3));
    let stopped = false;
    const stopping = node.stop().then(() => {
      stopped = true;
    });
    try {
      // A hundred turns of the event loop: the stop's queries have long answered, and it still waits.
      let turns = 0;
      await until(() => (turns += 1) > 100);
      expect(stopped).toBe(false);
    } finally {
      release.open();
    }
    await stopping;
    expect(done).toEqual(['waiting since before the start', 'slow']);
    expect(timer.pending()).toEqual([]);
    const after = await enqueue('note', 'after the stop');
    timer.fire();
    expect((await findJob(first.db, after.id))?.status).toBe('queued');
  });
});
