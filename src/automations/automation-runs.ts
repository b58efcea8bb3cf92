import { type Call, findVisibleAutomation } from '../access/index.js';
import { inTransaction } from '../db/transaction.js';
import { AtriumError } from '../errors/atrium-error.js';
import { errors } from '../errors/catalogue.js';
import { enqueueJob } from '../jobs/index.js';
import type { SortedPageRequest } from '../lib/sorted-page.js';
import {
  type AutomationRun, type AutomationRunFilter, type AutomationRunSortField, automationRunLog, findAutomationRunById, insertAutomationRun, listAutomationRuns,
} from '../repositories/automation-runs.js';

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
  return inTransaction(a.db, async (tx) => {
    const run = await insertAutomationRun(tx, {
      automationId: automation.id, workspaceId: automation.workspaceId, status: 'queued', log: '', now: a.now,
    });
    await enqueueJob(tx, { kind: AUTOMATION_RUN_JOB, payload: { runId: run.id }, runAt: a.now }, a.now);
    return run;
  });
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
