import type { Db } from '../db/database.js';

/** Ids of the groups a user is a member of. */
export async function groupIdsOfUser(db: Db, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('group_users').select('group_id').where('user_id', '=', userId).execute();
  return rows.map((row) => row.group_id);
}
