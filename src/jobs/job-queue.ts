import type { Db } from '../db/database.js';
import {
  claimJob,
  countJobsByStatus,
  extendJobLease,
  findJob,
  insertJob,
  markJobCanceled,
  markJobDone,
  markJobFailed,
  requeueJob,
  type HeldJob,
  type Job,
  type JobStatus,
} from '../repositories/jobs.js';
import { retryDelayMs } from './retry-delay.js';

export type { Job, JobStatus } from '../repositories/jobs.js';

/** Each job is tried this often, unless its enqueuer says otherwise, before it counts as failed. */
export const DEFAULT_MAX_ATTEMPTS = 3;

/** A job as the node that claimed it holds it: it names that node, and its lease's end. */
export type ClaimedJob = Job & { lockedBy: string; lockedUntil: number };

export interface JobRequest {
  /** What to do: the runner's handler registered for this kind runs it. */
  kind: string;
  /** The handler's input, kept as JSON: plain data only. */
  payload: unknown;
  /** When it is due (epoch ms); now or earlier runs at the next poll. */
  runAt: number;
  maxAttempts?: number;
  /**
   * At most one job ever has this key: a second enqueue with it answers the first job. A schedule
   * names each due time by one (`<schedule>@<due time>`), so every node may enqueue it and it runs once.
   */
  dedupeKey?: string;
}

/** Queues a job; with a dedupe key already used, answers that job instead (`created` false). */
export async function enqueueJob(db: Db, request: JobRequest, now: number): Promise<{ job: Job; created: boolean }> {
  const maxAttempts = request.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  // Callers are Atrium's own code, so a wrong request is a programming error, thrown as such.
  if (request.kind === '') throw new TypeError('a job needs a kind');
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new TypeError(`a job's maxAttempts must be a whole number of at least 1, not ${maxAttempts}`);
  if (!Number.isFinite(request.runAt)) throw new TypeError(`a job's runAt must be a time in epoch milliseconds, not ${request.runAt}`);
  return insertJob(db, { kind: request.kind, payload: request.payload, runAt: request.runAt, maxAttempts, dedupeKey: request.dedupeKey ?? null }, now);
}

/**
 * Takes one due job for `nodeId` (repositories/jobs.ts: exactly one claimer gets each) and holds
 * it for `leaseMs`, counting an attempt. Undefined when nothing is due.
 */
export async function claimDueJob(db: Db, nodeId: string, now: number, leaseMs: number): Promise<ClaimedJob | undefined> {
  return (await claimJob(db, nodeId, now, now + leaseMs)) as ClaimedJob | undefined;
}

/** Records a held job as done. False when this attempt no longer holds it (canceled, or its lease ran out and another node took it). */
export async function completeJob(db: Db, job: ClaimedJob, now: number): Promise<boolean> {
  return markJobDone(db, held(job), now);
}

/**
 * Records a failed attempt: the job is queued again after retryDelayMs(attempts) while it has
 * attempts left, else it is failed for good. The error is kept either way.
 */
export async function failJob(db: Db, job: ClaimedJob, error: string, now: number): Promise<boolean> {
  if (job.attempts < job.maxAttempts) return requeueJob(db, held(job), now + retryDelayMs(job.attempts), error, now);
  return markJobFailed(db, held(job), error, now);
}

/** Fails a held job at once, whatever attempts it has left: retrying could not help (no handler for its kind). */
export async function failJobForGood(db: Db, job: ClaimedJob, error: string, now: number): Promise<boolean> {
  return markJobFailed(db, held(job), error, now);
}

/** The heartbeat of a long job: its lease ends `leaseMs` from now. False when this attempt no longer holds it. */
export async function extendLease(db: Db, job: ClaimedJob, now: number, leaseMs: number): Promise<boolean> {
  return extendJobLease(db, held(job), now + leaseMs, now);
}

/** Cancels a job that has not ended (see markJobCanceled); false when it had. */
export async function cancelJob(db: Db, id: number, now: number): Promise<boolean> {
  return markJobCanceled(db, id, now);
}

/** The number of jobs in each status: `queued` is the queue's depth. */
export async function jobCounts(db: Db): Promise<Record<JobStatus, number>> {
  return countJobsByStatus(db);
}

export { findJob };

function held(job: ClaimedJob): HeldJob {
  return { id: job.id, attempts: job.attempts, lockedBy: job.lockedBy };
}
