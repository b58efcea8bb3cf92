import { PostgresAdapter, type ExpressionBuilder, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { JobsTable, Tables } from '../db/tables.js';

/** The queue of background work (docs/background-jobs.md): one row per job, kept when it ends. */
export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'canceled';

export const JOB_STATUSES: readonly JobStatus[] = ['queued', 'running', 'done', 'failed', 'canceled'];

export interface Job {
  id: number;
  kind: string;
  payload: unknown;
  /** When it is due (epoch ms); after a failed attempt, when it is tried again. */
  runAt: number;
  status: JobStatus;
  /** Attempts begun so far, the one running included. */
  attempts: number;
  maxAttempts: number;
  /** The node running it, or, once it ended, the node that ran its last attempt; null while queued. */
  lockedBy: string | null;
  /** The end of the running attempt's lease; null unless running. */
  lockedUntil: number | null;
  lastError: string | null;
  dedupeKey: string | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

/** One attempt of a job as its runner holds it: a later attempt (another node's) is not this one. */
export interface HeldJob {
  id: number;
  attempts: number;
  /** The node that claimed it. */
  lockedBy: string;
}

export interface NewJob {
  kind: string;
  payload: unknown;
  runAt: number;
  maxAttempts: number;
  dedupeKey: string | null;
}

function toJob(row: Selectable<JobsTable>): Job {
  return {
    id: Number(row.id),
    kind: row.kind,
    payload: JSON.parse(row.payload) as unknown,
    runAt: Number(row.run_at),
    status: row.status,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    lockedBy: row.locked_by,
    lockedUntil: row.locked_until === null ? null : Number(row.locked_until),
    lastError: row.last_error,
    dedupeKey: row.dedupe_key,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
  };
}

/**
 * Queues a job, or, when one with its dedupe key exists already, answers that one unchanged.
 * `on conflict do nothing` makes two racing inserts of one key end with one row on both
 * databases (PostgreSQL's loser waits for the winner's commit, SQLite has one writer), and the
 * loser then reads the winner's row.
 */
export async function insertJob(db: Db, job: NewJob, now: number): Promise<{ job: Job; created: boolean }> {
  const inserted = await db.insertInto('jobs')
    .values({
      kind: job.kind,
      payload: JSON.stringify(job.payload ?? null),
      run_at: job.runAt,
      status: 'queued',
      max_attempts: job.maxAttempts,
      dedupe_key: job.dedupeKey,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column('dedupe_key').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted !== undefined) return { job: toJob(inserted), created: true };
  const existing = await db.selectFrom('jobs').selectAll().where('dedupe_key', '=', job.dedupeKey).executeTakeFirstOrThrow();
  return { job: toJob(existing), created: false };
}

export async function findJob(db: Db, id: number): Promise<Job | undefined> {
  const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toJob(row);
}

/**
 * Whether a job is due: queued with its time come, or running on a lease that has ended (its node
 * stopped mid-job). A read, so a poll that finds nothing writes nothing.
 */
export async function hasDueJob(db: Db, now: number): Promise<boolean> {
  const row = await db.selectFrom('jobs').select('id').where((eb) => dueAt(eb, now)).limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes the oldest due job for `nodeId` until `lockedUntil`, counting an attempt, in one
 * statement: on PostgreSQL the row is locked by `for update skip locked`, so concurrent claimers
 * each take a different job without waiting for each other; on SQLite the statement runs under
 * the database's one write lock, also against other processes sharing the file. Undefined when
 * nothing is due.
 */
export async function claimJob(db: Db, nodeId: string, now: number, lockedUntil: number): Promise<Job | undefined> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const row = await db.updateTable('jobs')
    .set((eb) => ({
      status: 'running',
      attempts: eb('attempts', '+', 1),
      locked_by: nodeId,
      locked_until: lockedUntil,
      updated_at: now,
    }))
    .where('id', '=', (eb) => {
      const oldest = eb.selectFrom('jobs').select('id').where((inner) => dueAt(inner, now)).orderBy('run_at').orderBy('id').limit(1);
      return postgres ? oldest.forUpdate().skipLocked() : oldest;
    })
    .returningAll()
    .executeTakeFirst();
  return row === undefined ? undefined : toJob(row);
}

function dueAt(eb: ExpressionBuilder<Tables, 'jobs'>, now: number) {
  return eb.or([
    eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)]),
    eb.and([eb('status', '=', 'running'), eb('locked_until', '<=', now)]),
  ]);
}

/** The changes `held` may make: only while it is still running under this very attempt. */
function whileHeld(db: Db, held: HeldJob) {
  return db.updateTable('jobs')
    .where('id', '=', held.id)
    .where('status', '=', 'running')
    .where('attempts', '=', held.attempts)
    .where('locked_by', '=', held.lockedBy);
}

/** Moves the lease of a job still held to `lockedUntil`; false when it is no longer this attempt's. */
export async function extendJobLease(db: Db, held: HeldJob, lockedUntil: number, now: number): Promise<boolean> {
  const result = await whileHeld(db, held).set({ locked_until: lockedUntil, updated_at: now }).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends a held job as done; false when it is no longer this attempt's (canceled, or taken again). */
export async function markJobDone(db: Db, held: HeldJob, now: number): Promise<boolean> {
  const result = await whileHeld(db, held)
    .set({ status: 'done', locked_until: null, updated_at: now, finished_at: now })
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Queues a held job again for `runAt` after a failed attempt, keeping the error. */
export async function requeueJob(db: Db, held: HeldJob, runAt: number, error: string, now: number): Promise<boolean> {
  const result = await whileHeld(db, held)
    .set({ status: 'queued', run_at: runAt, locked_by: null, locked_until: null, last_error: error, updated_at: now })
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends a held job as failed for good, keeping the error. */
export async function markJobFailed(db: Db, held: HeldJob, error: string, now: number): Promise<boolean> {
  const result = await whileHeld(db, held)
    .set({ status: 'failed', locked_until: null, last_error: error, updated_at: now, finished_at: now })
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Cancels a job that has not ended: a queued one never runs; a running one runs on, but its end is
 * no longer recorded. False when it had ended (or does not exist).
 */
export async function markJobCanceled(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db.updateTable('jobs')
    .set({ status: 'canceled', locked_by: null, locked_until: null, updated_at: now, finished_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** How many jobs are in each status (all statuses present, zero included). */
export async function countJobsByStatus(db: Db): Promise<Record<JobStatus, number>> {
  const rows = await db.selectFrom('jobs').select((eb) => ['status', eb.fn.countAll<number | string>().as('count')]).groupBy('status').execute();
  const counts = Object.fromEntries(JOB_STATUSES.map((status) => [status, 0])) as Record<JobStatus, number>;
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}
