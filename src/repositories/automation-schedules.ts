import type { Db } from '../db/database.js';
import { type Automation, type AutomationRow, toAutomation } from './automations.js';

// The queries of the schedule queuer (automations/schedule-queue.ts): which automations run on a
// schedule, and the mark up to which each one's due times are queued.

export interface ScheduledAutomation {
  automation: Automation;
  /** Due times up to this (epoch ms) are queued; null for a row from before the mark was kept. */
  scheduledUntil: number | null;
}

/** The enabled automations whose trigger is a schedule. */
export async function listScheduledAutomations(db: Db): Promise<ScheduledAutomation[]> {
  const rows = await db.selectFrom('automations').selectAll()
    .where('trigger', 'in', ['daily', 'custom_schedule']).where('disabled', '=', false).orderBy('id').execute();
  return rows.map((row) => ({
    automation: toAutomation(row as unknown as AutomationRow),
    scheduledUntil: row.scheduled_until === null ? null : Number(row.scheduled_until),
  }));
}

/**
 * Moves an automation's mark from `expected` to `until`, only if it is still `expected`: of the
 * nodes that find the same due time, exactly one moves the mark, and only that one queues it.
 */
export async function advanceScheduledUntil(tx: Db, id: number, expected: number | null, until: number): Promise<boolean> {
  let query = tx.updateTable('automations').set({ scheduled_until: until }).where('id', '=', id);
  query = expected === null ? query.where('scheduled_until', 'is', null) : query.where('scheduled_until', '=', expected);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
