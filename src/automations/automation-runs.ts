import { type Call, findVisibleAutomation } from '../access/index.js';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import { AtriumError } from '../errors/atrium-error.js';
import { errors } from '../errors/catalogue.js';
import { enqueueJob } from '../jobs/index.js';
import type { SortedPageRequest } from '../lib/sorted-page.js';
import {
  type AutomationRun, type AutomationRunFilter, type AutomationRunStatus, countAutomationRunsByStatus, deleteAutomationRun, type AutomationRunSortField, automationRunLog, findAutomationRunById, insertAutomationRun, listAutomationRuns,
} from '../repositories/automation-runs.js';
import type { Automation } from '../repositories/automations.js';
import type { AutomationRunCause } from './run-cause.js';

// The runs of an automation (docs/automations.md#runs). A run is seen by whoever sees its
// automation, and is not found by anyone else. A manual run is queued here as a run `queued` and
// a job of kind `automation_run` naming it; the job's handler runs it.

/** The job kind whose payload `{ runId }` names the run to carry out. */
export const AUTOMATION_RUN_JOB = 'automation_run';

/**
 * POST /automations/<id>/manual_run: queues a run now. An automation triggered by file actions
 * runs only on them (Files.com's rule). The run and its job are written together: neither is
 * ever left without the other.
 */
export async function runAutomationManually(a: Call, id: number): Promise<AutomationRun> {
  const automation = await findVisibleAutomation(a.db, a.caller, a.requestWorkspaceId, id);
  if (automation.settings.trigger === 'action') throw errors.automationCannotBeRunManually();
  return inTransaction(a.db, async (tx) => (await queueAutomationRun(tx, automation, { kind: 'manual' }, a.now)) as AutomationRun);
}

/**
 * Queues a run of `automation` for `cause`: the run, `queued`, and the job that carries it out,
 * due at `runAt` (now by default). Call it inside a transaction, so that neither is ever written
 * without the other. With a `dedupeKey` already used (a schedule's due time that another node
 * queued), nothing is written and undefined is the answer.
 */
export async function queueAutomationRun(
  tx: Db,
  automation: Pick<Automation, 'id' | 'workspaceId'>,
  cause: AutomationRunCause,
  now: number,
  options: { dedupeKey?: string; runAt?: number; retryOfRunId?: number } = {},
): Promise<AutomationRun | undefined> {
  const run = await insertAutomationRun(tx, {
    automationId: automation.id, workspaceId: automation.workspaceId, status: 'queued', log: '', now, cause: JSON.stringify(cause),
    ...(options.retryOfRunId === undefined ? {} : { retryOfRunId: options.retryOfRunId }),
  });
  const { created } = await enqueueJob(tx, {
    kind: AUTOMATION_RUN_JOB, payload: { runId: run.id }, runAt: options.runAt ?? now,
    ...(options.dedupeKey === undefined ? {} : { dedupeKey: options.dedupeKey }),
  }, now);
  if (created) return run;
  // Another node queued this due time first: this run was never to be.
  await deleteAutomationRun(tx, run.id);
  return undefined;
}

/** GET /automation_runs?automation_id=: the runs of an automation the caller sees. */
export async function listRunsOfAutomation(a: Call, filter: AutomationRunFilter, page: SortedPageRequest<AutomationRunSortField>): Promise<AutomationRun[]> {
  await findVisibleAutomation(a.db, a.caller, a.requestWorkspaceId, filter.automationId);
  return listAutomationRuns(a.db, filter, page);
}

export async function getAutomationRun(a: Call, id: number): Promise<AutomationRun> {
  const run = await findAutomationRunById(a.db, id);
  if (run === undefined) throw errors.automationRunNotFound();
  await visibleRunAutomation(a, run.automationId);
  return run;
}

/** A run's log text, to those who see its automation. */
export async function getAutomationRunLog(a: Call, id: number): Promise<string> {
  const run = await getAutomationRun(a, id);
  return (await automationRunLog(a.db, run.id)) ?? '';
}

/** The run's automation, seen by the caller; a run of one it does not see is itself not found. */
async function visibleRunAutomation(a: Call, automationId: number): Promise<void> {
  try {
    await findVisibleAutomation(a.db, a.caller, a.requestWorkspaceId, automationId);
  } catch (error) {
    if (error instanceof AtriumError && error.type === 'not-found') throw errors.automationRunNotFound();
    throw error;
  }
}

/** The number of runs in each status, for the metrics. */
export function automationRunCounts(db: Db): Promise<Record<AutomationRunStatus, number>> {
  return countAutomationRunsByStatus(db);
}
