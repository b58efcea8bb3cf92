import type { Db } from '../db/database.js';
import { cachedRead } from '../db/read-cache.js';

/** Ids of the groups a user is a member of: every authority decision starts here, so cached until the data changes. */
export async function groupIdsOfUser(db: Db, userId: number): Promise<number[]> {
  const ids = await cachedRead(db, 'group-ids-of-user', String(userId), async () => {
    const rows = await db.selectFrom('group_users').select('group_id').where('user_id', '=', userId).execute();
    return Object.freeze(rows.map((row) => row.group_id));
  });
  return [...ids];
}
