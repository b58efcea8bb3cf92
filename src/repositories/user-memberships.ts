import type { Db } from '../db/database.js';
import { cachedRead } from '../db/read-cache.js';

export interface UserGroupIds {
  readonly groupIds: readonly number[];
  readonly adminGroupIds: readonly number[];
}

/**
 * For each user, the groups it belongs to and those it administers, in one query, cached until
 * the data changes (db/read-cache.ts). The answer is shared: callers must not mutate it.
 */
export function groupIdsOfUsers(db: Db, userIds: readonly number[]): Promise<ReadonlyMap<number, UserGroupIds>> {
  return cachedRead(db, 'group-ids-of-users', userIds.join(','), () => loadGroupIdsOfUsers(db, userIds), { weigh: () => userIds.length, maxWeight: 50_000 });
}

async function loadGroupIdsOfUsers(db: Db, userIds: readonly number[]): Promise<Map<number, UserGroupIds>> {
  const result = new Map<number, { groupIds: number[]; adminGroupIds: number[] }>(userIds.map((id) => [id, { groupIds: [], adminGroupIds: [] }]));
  if (userIds.length === 0) return result;
  const rows = await db
    .selectFrom('group_users')
    .select(['user_id', 'group_id', 'admin'])
    .where('user_id', 'in', userIds)
    .orderBy('group_id')
    .execute();
  for (const row of rows) {
    const entry = result.get(row.user_id);
    if (entry === undefined) continue;
    entry.groupIds.push(row.group_id);
    if (row.admin) entry.adminGroupIds.push(row.group_id);
  }
  // Shared by every request until the data changes: frozen all the way down.
  for (const entry of result.values()) Object.freeze(Object.assign(entry, { groupIds: Object.freeze(entry.groupIds), adminGroupIds: Object.freeze(entry.adminGroupIds) }));
  return result;
}
