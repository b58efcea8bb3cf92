import type { JobRunner } from '../jobs/index.js';
import { AUTOMATION_RUN_JOB } from './automation-runs.js';
import { type AutomationWorkDeps, carryOutRun, giveUpRun } from './run-automation.js';
import { queueDueScheduledRuns } from './schedule-queue.js';

/**
 * Puts automations to work on a node's job runner: it carries out queued runs, and at each poll
 * queues the runs of schedules that came due (every node does both; each run is taken by one).
 */
export function registerAutomationWork(jobs: JobRunner, deps: AutomationWorkDeps): void {
  jobs.register(
    AUTOMATION_RUN_JOB,
    (payload, _job, context) => carryOutRun(deps, runIdOf(payload), context),
    (payload, error) => giveUpRun(deps, runIdOf(payload), error),
  );
  jobs.everyPoll((now) => queueDueScheduledRuns(deps.db, now));
}

function runIdOf(payload: unknown): number {
  const runId = (payload as { runId?: unknown } | null)?.runId;
  // Only queueAutomationRun writes these jobs; another payload is a programming error, and fails the job.
  if (typeof runId !== 'number' || !Number.isInteger(runId)) throw new Error(`an automation_run job names no run: ${JSON.stringify(payload)}`);
  return runId;
}
