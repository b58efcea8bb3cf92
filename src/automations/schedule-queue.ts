import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import { advanceScheduledUntil, listScheduledAutomations, type ScheduledAutomation } from '../repositories/automation-schedules.js';
import { scheduleOf } from './automation-fields.js';
import { queueAutomationRun } from './automation-runs.js';
import { dueTimesBetween } from './schedule.js';

// Queues the runs of automations on a schedule (docs/automations.md#schedules-and-missed-times).
// Every node looks at each poll of its job runner; each automation keeps the time up to which its
// due times are queued (`scheduled_until`), and the node that moves that mark is the one that
// queues, so each due time is queued once however many nodes look at the same moment. The job's
// dedupe key (`automation:<id>@<due time>`) holds the same even if two marks were ever moved alike.

/**
 * Due times that passed while no node was running stand for one run, at the latest of them: a
 * nightly clean-up missed for three nights runs once, not three times in a row. The run's cause
 * says how many it stands for. Reading at most this many due times bounds the work of a look.
 */
const MISSED_TIMES_READ = 1000;

/** Queues a run for each scheduled automation with a due time since its mark; answers how many. */
export async function queueDueScheduledRuns(db: Db, now: number): Promise<number> {
  let queued = 0;
  for (const scheduled of await listScheduledAutomations(db)) {
    if (await queueIfDue(db, scheduled, now)) queued += 1;
  }
  return queued;
}

async function queueIfDue(db: Db, { automation, scheduledUntil }: ScheduledAutomation, now: number): Promise<boolean> {
  const schedule = scheduleOf(automation.settings);
  if (schedule === null) return false;
  const from = scheduledUntil ?? automation.createdAt;
  if (from >= now) return false;
  let due: Date[];
  try {
    due = dueTimesBetween(schedule, new Date(from), new Date(now), MISSED_TIMES_READ);
  } catch {
    // A schedule saved before a rule refused it (a zone the server no longer knows) never runs;
    // its automation still shows it, and saving it again says why.
    return false;
  }
  const last = due.at(-1);
  // Nothing due: nothing is written, so a look that finds nothing costs one read, and moves no
  // data version that would empty the read caches.
  if (last === undefined) return false;
  return inTransaction(db, async (tx) => {
    if (!(await advanceScheduledUntil(tx, automation.id, scheduledUntil, now))) return false;
    const run = await queueAutomationRun(tx, automation, { kind: 'schedule', dueAt: last.getTime(), missed: due.length - 1 }, now, {
      dedupeKey: `automation:${automation.id}@${last.getTime()}`,
    });
    return run !== undefined;
  });
}
