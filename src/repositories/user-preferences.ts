import type { Db } from '../db/database.js';

/** The Workspace the user last chose to work in, null when none (or the user is gone). */
export async function readLastWorkspaceId(db: Db, userId: number): Promise<number | null> {
  const row = await db.selectFrom('users').select('last_workspace_id').where('id', '=', userId).executeTakeFirst();
  return row?.last_workspace_id ?? null;
}

export async function writeLastWorkspaceId(db: Db, userId: number, workspaceId: number | null): Promise<void> {
  await db.updateTable('users').set({ last_workspace_id: workspaceId }).where('id', '=', userId).execute();
}
