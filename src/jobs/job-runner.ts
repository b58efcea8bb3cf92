import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Db } from '../db/database.js';
import { workBegins } from '../db/read-cache.js';
import type { Clock } from '../lib/time.js';
import type { Timer } from '../lib/timer.js';
import { hasDueJob } from '../repositories/jobs.js';
import { claimDueJob, completeJob, extendLease, failJob, failJobForGood, type ClaimedJob } from './job-queue.js';

/** What a handler gets besides its payload and job. */
export interface JobContext {
  /** The runner's clock: the time to use for anything the handler records. */
  now(): number;
  /** The node running it (the job's `locked_by`). */
  readonly nodeId: string;
  /**
   * Aborted when this attempt no longer holds the job (it was canceled, or its lease ran out and
   * another node took it): a long handler stops there, since its end would not be recorded.
   */
  readonly signal: AbortSignal;
}

/**
 * Does one job's work. It may run more than once for one job (docs/background-jobs.md: a node
 * that dies after the work but before recording it leaves it to be done again), so it must be
 * idempotent: finding its work already done counts as done. Throwing fails the attempt.
 */
export type JobHandler = (payload: unknown, job: ClaimedJob, context: JobContext) => Promise<void> | void;

/**
 * Called once a job of the kind has failed for good (its last attempt threw, or the node running
 * its last attempt died), with the last error: for what the feature records of the work itself (an
 * automation run's status), which would otherwise say it is still running. Its own failure is
 * reported like the runner's.
 */
export type JobGivenUp = (payload: unknown, error: string) => Promise<void>;

export interface JobRunnerOptions {
  db: Db;
  /** The server's clock; tests pass one they move. */
  clock: Clock;
  /** Waits for the polls and heartbeats; tests pass one they fire. */
  timer: Timer;
  /** Names this runner in `locked_by`; unique per process by default. */
  nodeId?: string;
  /** How long a claimed job is held without a heartbeat: a node that dies loses its job this long after its last one. */
  leaseMs?: number;
  /** How often start() looks for due jobs. */
  pollIntervalMs?: number;
  /** A failure of the runner itself (the database away), reported; the next poll tries again. A handler's failure is the job's. */
  onError?: (error: unknown) => void;
}

export const DEFAULT_LEASE_MS = 60_000;
export const DEFAULT_POLL_INTERVAL_MS = 5_000;
/** The heartbeat comes three times per lease, so one late or lost beat never lets a lease run out. */
const BEATS_PER_LEASE = 3;

/**
 * Runs the queue's due jobs on this node, one at a time, by their kind's handler. Every node may
 * run one: each job is taken by exactly one of them at a time (repositories/jobs.ts), and one
 * whose node dies is taken again once its lease runs out.
 */
export class JobRunner {
  readonly nodeId: string;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly givenUp = new Map<string, JobGivenUp>();
  private readonly duties: ((now: number) => Promise<unknown>)[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly leaseMs: number;
  private readonly pollIntervalMs: number;
  private readonly onError: (error: unknown) => void;
  private stopping = false;
  private polling = false;
  private cancelPoll: () => void = () => undefined;

  constructor(private readonly options: JobRunnerOptions) {
    this.nodeId = options.nodeId ?? `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.onError = options.onError ?? (() => undefined);
  }

  /** Makes `handler` run the jobs of `kind`; one handler per kind. `onGivenUp`: see JobGivenUp. */
  register(kind: string, handler: JobHandler, onGivenUp?: JobGivenUp): void {
    if (this.handlers.has(kind)) throw new Error(`job kind "${kind}" has a handler already`);
    this.handlers.set(kind, handler);
    if (onGivenUp !== undefined) this.givenUp.set(kind, onGivenUp);
  }

  /**
   * Makes `duty` run at each look for due jobs, before the look: for work that queues jobs when
   * their time comes (a schedule's due times). Every node runs it, so it must queue each job once
   * however many nodes run it at the same moment (a dedupe key, a conditional write). Its failure
   * is reported like the runner's own, and the look goes on.
   */
  everyPoll(duty: (now: number) => Promise<unknown>): void {
    this.duties.push(duty);
  }

  /**
   * Claims and runs due jobs, one after the other, until none is due (or stop() is called);
   * answers how many it ran. A database failure rejects it; a handler's failure is the job's.
   */
  runDue(): Promise<number> {
    return this.track(this.runUntilNoneDue());
  }

  /** Looks for due jobs now (a restart runs what came due while it was down), then every poll interval. */
  start(): void {
    if (this.polling) return;
    this.polling = true;
    this.stopping = false;
    const poll = () => {
      void this.runDue().catch(this.onError).then(() => {
        if (!this.stopping) this.cancelPoll = this.options.timer.after(this.pollIntervalMs, poll);
      });
    };
    poll();
  }

  /**
   * Stops polling and waits for the job running now to end. A process killed before then leaves
   * that job to its lease: another node (or this one, restarted) takes it when the lease runs out.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.cancelPoll();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    this.polling = false;
  }

  private async runUntilNoneDue(): Promise<number> {
    const { db, clock } = this.options;
    for (const duty of this.duties) {
      workBegins(db);
      await duty(clock.now()).catch(this.onError);
    }
    let ran = 0;
    // Looking before claiming: a poll that finds nothing only reads.
    while (!this.stopping && (await hasDueJob(db, clock.now()))) {
      const job = await claimDueJob(db, this.nodeId, clock.now(), this.leaseMs);
      // Another node took it between the look and the claim: look again.
      if (job === undefined) continue;
      await this.run(job);
      ran += 1;
    }
    return ran;
  }

  private async run(job: ClaimedJob): Promise<void> {
    const { db, clock } = this.options;
    const handler = this.handlers.get(job.kind);
    if (handler === undefined) {
      await failJobForGood(db, job, `no handler for job kind "${job.kind}" on node ${this.nodeId}`, clock.now());
      return;
    }
    if (job.attempts > job.maxAttempts) {
      // Its last attempt's node stopped mid-job (the lease ran out): it has no attempt left.
      const error = `the node running its last attempt stopped before it ended (${job.attempts - 1} of ${job.maxAttempts} attempts)`;
      if (await failJobForGood(db, job, error, clock.now())) await this.giveUp(job, error);
      return;
    }
    const lost = new AbortController();
    const stopBeating = this.beat(job, lost);
    let failure: string | undefined;
    try {
      // The change that queued the job may have been committed by another process a moment ago.
      workBegins(db);
      await handler(job.payload, job, { now: () => clock.now(), nodeId: this.nodeId, signal: lost.signal });
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    } finally {
      stopBeating();
    }
    if (failure === undefined) await completeJob(db, job, clock.now());
    else if ((await failJob(db, job, failure, clock.now())) && job.attempts >= job.maxAttempts) await this.giveUp(job, failure);
  }

  private async giveUp(job: ClaimedJob, error: string): Promise<void> {
    await this.givenUp.get(job.kind)?.(job.payload, error).catch(this.onError);
  }

  /** Keeps the job's lease while its handler runs; aborts `lost` when the job is no longer this attempt's. */
  private beat(job: ClaimedJob, lost: AbortController): () => void {
    const { db, clock, timer } = this.options;
    let stopped = false;
    let cancel: () => void = () => undefined;
    const next = () => {
      cancel = timer.after(Math.floor(this.leaseMs / BEATS_PER_LEASE), () => {
        const beating = extendLease(db, job, clock.now(), this.leaseMs).then(
          (held) => {
            if (!held) lost.abort(new Error('the job is no longer held by this attempt'));
            else if (!stopped) next();
          },
          (error: unknown) => {
            this.onError(error);
            if (!stopped) next();
          },
        );
        void this.track(beating);
      });
    };
    next();
    return () => {
      stopped = true;
      cancel();
    };
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const forget = () => this.inFlight.delete(work);
    work.then(forget, forget);
    return work;
  }
}
