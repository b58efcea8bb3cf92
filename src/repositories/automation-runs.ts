import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { asSortedPage, type SortedPageRequest } from '../lib/sorted-page.js';
import { afterInOrder } from './keyset-order.js';

/** Files.com's run states: a run is `queued` until a node takes it up. */
export const AUTOMATION_RUN_STATUSES = ['queued', 'running', 'success', 'partial_failure', 'failure', 'skipped', 'canceled'] as const;
export type AutomationRunStatus = (typeof AUTOMATION_RUN_STATUSES)[number];

/** One run of an automation (docs/automations.md#runs). */
export interface AutomationRun {
  id: number;
  automationId: number;
  workspaceId: number;
  status: AutomationRunStatus;
  createdAt: number;
  completedAt: number | null;
  runtime: number | null;
  successfulOperations: number;
  failedOperations: number;
  retryAt: number | null;
  retriedAt: number | null;
  retriedInRunId: number | null;
  retryOfRunId: number | null;
}

interface RunRow {
  id: number; automation_id: number; workspace_id: number; status: string; created_at: number | string; completed_at: number | string | null;
  runtime: number | null; successful_operations: number; failed_operations: number; retry_at: number | string | null; retried_at: number | string | null;
  retried_in_run_id: number | null; retry_of_run_id: number | null;
}

const time = (value: number | string | null) => (value === null ? null : Number(value));

function toRun(row: RunRow): AutomationRun {
  return {
    id: row.id, automationId: row.automation_id, workspaceId: row.workspace_id, status: row.status as AutomationRunStatus,
    createdAt: Number(row.created_at), completedAt: time(row.completed_at), runtime: row.runtime === null ? null : Number(row.runtime),
    successfulOperations: Number(row.successful_operations), failedOperations: Number(row.failed_operations),
    retryAt: time(row.retry_at), retriedAt: time(row.retried_at), retriedInRunId: row.retried_in_run_id, retryOfRunId: row.retry_of_run_id,
  };
}

const RUN_COLUMNS = [
  'id', 'automation_id', 'workspace_id', 'status', 'created_at', 'completed_at', 'runtime', 'successful_operations', 'failed_operations',
  'retry_at', 'retried_at', 'retried_in_run_id', 'retry_of_run_id',
] as const;

export async function findAutomationRunById(db: Db, id: number): Promise<AutomationRun | undefined> {
  const row = await db.selectFrom('automation_runs').select(RUN_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toRun(row);
}

/** A run's log, as its runner wrote it; undefined when the run is gone. */
export async function automationRunLog(db: Db, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('automation_runs').select('log').where('id', '=', id).executeTakeFirst();
  return row?.log;
}

export async function insertAutomationRun(
  db: Db,
  run: { automationId: number; workspaceId: number; status: AutomationRunStatus; log: string; now: number; cause: string; retryOfRunId?: number },
): Promise<AutomationRun> {
  const row = await db
    .insertInto('automation_runs')
    .values({
      automation_id: run.automationId, workspace_id: run.workspaceId, status: run.status, log: run.log, created_at: run.now, cause: run.cause,
      retry_of_run_id: run.retryOfRunId ?? null,
    })
    .returning(RUN_COLUMNS)
    .executeTakeFirstOrThrow();
  return toRun(row);
}

export type AutomationRunSortField = 'id' | 'automation_id' | 'created_at' | 'status';

export interface AutomationRunFilter {
  automationId: number;
  status?: string;
  workspaceId?: number;
}

const RUNS_SORTED_BY: Readonly<Record<AutomationRunSortField, () => RawBuilder<unknown>>> = {
  id: () => sql.ref('id'),
  automation_id: () => sql.ref('automation_id'),
  created_at: () => sql.ref('created_at'),
  status: () => sql.ref('status'),
};

export function automationRunSortValue(run: AutomationRun, field: AutomationRunSortField): string | number {
  switch (field) {
    case 'id': return run.id;
    case 'automation_id': return run.automationId;
    case 'created_at': return run.createdAt;
    case 'status': return run.status;
  }
}

/** One page of one automation's runs, in the order the page asks for (by id when none). */
export async function listAutomationRuns(db: Db, filter: AutomationRunFilter, page: SortedPageRequest<AutomationRunSortField>): Promise<AutomationRun[]> {
  const sorted = asSortedPage(page);
  const sortedBy = RUNS_SORTED_BY[sorted.sort.field]();
  const direction = sorted.sort.direction;
  let query = db.selectFrom('automation_runs').select(RUN_COLUMNS).where('automation_id', '=', filter.automationId).limit(sorted.limit);
  query = sorted.sort.field === 'id' ? query.orderBy('id', direction) : query.orderBy(sortedBy, direction).orderBy('id', direction);
  if (sorted.after !== undefined) query = query.where(afterInOrder(sortedBy, sql.ref('id'), direction, sorted.after));
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.workspaceId !== undefined) query = query.where('workspace_id', '=', filter.workspaceId);
  return (await query.execute()).map(toRun);
}

/** Why the run was queued, as stored (automations/run-cause.ts); undefined when the run is gone. */
export async function automationRunCause(db: Db, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('automation_runs').select('cause').where('id', '=', id).executeTakeFirst();
  return row?.cause;
}

/**
 * Marks a run begun (again, when a node that ran it died): its counts and log start afresh, since
 * the run is done again from the start. False when the run is gone (its automation was deleted)
 * or has ended already.
 */
export async function markAutomationRunRunning(db: Db, id: number): Promise<boolean> {
  const result = await db.updateTable('automation_runs')
    .set({ status: 'running', successful_operations: 0, failed_operations: 0, log: '' })
    .where('id', '=', id).where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records a run's end: its status, counts, log and runtime. */
export async function finishAutomationRun(
  db: Db,
  id: number,
  outcome: { status: AutomationRunStatus; successful: number; failed: number; log: string; completedAt: number; runtimeSeconds: number; retryAt: number | null },
): Promise<void> {
  await db.updateTable('automation_runs').set({
    status: outcome.status, successful_operations: outcome.successful, failed_operations: outcome.failed, log: outcome.log,
    completed_at: outcome.completedAt, runtime: outcome.runtimeSeconds, retry_at: outcome.retryAt,
  }).where('id', '=', id).execute();
}

/** Records when a failed run's retry, run `retriedInRunId`, began. */
export async function markAutomationRunRetried(db: Db, id: number, retriedInRunId: number, now: number): Promise<void> {
  await db.updateTable('automation_runs').set({ retried_at: now, retried_in_run_id: retriedInRunId }).where('id', '=', id).execute();
}

/** The number of runs in each status, for the metrics. */
export async function countAutomationRunsByStatus(db: Db): Promise<Record<AutomationRunStatus, number>> {
  const rows = await db.selectFrom('automation_runs').select(['status', (eb) => eb.fn.countAll<number | string>().as('n')]).groupBy('status').execute();
  const counts = Object.fromEntries(AUTOMATION_RUN_STATUSES.map((status) => [status, 0])) as Record<AutomationRunStatus, number>;
  for (const row of rows) if (row.status in counts) counts[row.status as AutomationRunStatus] = Number(row.n);
  return counts;
}

export async function deleteAutomationRun(db: Db, id: number): Promise<void> {
  await db.deleteFrom('automation_runs').where('id', '=', id).execute();
}

/** Records that a failed run is to be tried again, by run `retryRunId` (due at the run's `retry_at`). */
export async function setAutomationRunRetry(db: Db, id: number, retryRunId: number): Promise<void> {
  await db.updateTable('automation_runs').set({ retried_in_run_id: retryRunId }).where('id', '=', id).execute();
}
