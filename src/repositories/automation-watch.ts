import { sql } from 'kysely';
import type { Db } from '../db/database.js';

// What file actions are matched against (automations/action-watch-index.ts): the enabled `action`
// automations, and the counter that says when they last changed (migration 024).

/** What an enabled `action` automation watches. */
export interface ActionWatchRow {
  id: number;
  workspaceId: number;
  path: string | null;
  source: string | null;
  excludePattern: string | null;
  triggerActions: string[];
}

/** The enabled automations whose trigger is `action`. */
export async function listActionWatches(db: Db): Promise<ActionWatchRow[]> {
  const rows = await db
    .selectFrom('automations')
    .select(['id', 'workspace_id', 'path', 'source', 'exclude_pattern', 'trigger_actions', 'disabled'])
    .where('trigger', '=', 'action')
    .orderBy('id')
    .execute();
  return rows
    .filter((row) => !row.disabled)
    .map((row) => ({
      id: row.id, workspaceId: row.workspace_id, path: row.path, source: row.source, excludePattern: row.exclude_pattern,
      triggerActions: JSON.parse(row.trigger_actions) as string[],
    }));
}

/** The counter of changes to automations, as text (PostgreSQL's bigint comes as a string). */
export async function readAutomationWatchVersion(db: Db): Promise<string> {
  const row = await db.selectFrom('automation_watch_version').select('version').where('id', '=', 1).executeTakeFirst();
  return String(row?.version ?? '');
}

/** Moves the counter: call it in the transaction of every write of an automation. */
export async function moveAutomationWatchVersion(db: Db): Promise<void> {
  await db.updateTable('automation_watch_version').set({ version: sql`version + 1` }).where('id', '=', 1).execute();
}
