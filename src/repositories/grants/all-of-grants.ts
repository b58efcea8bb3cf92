import type { Db } from '../../db/database.js';
import { GRANT_COLUMNS, toGrantRecords, type GrantRecord } from './grant-record.js';

/**
 * ALL-of grants that name at least one of `groupIds`, with their full group sets: the only ALL-of
 * grants a member of exactly those groups can satisfy (the engine decides which it does).
 */
export async function allOfGrantsNamingAny(db: Db, groupIds: readonly number[]): Promise<GrantRecord[]> {
  const ids = await allOfGrantIdsNamingAny(db, groupIds);
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('permissions').select(GRANT_COLUMNS).where('id', 'in', ids).execute();
  return toGrantRecords(db, rows);
}

/**
 * Ids of the ALL-of grants naming any of `groupIds`, read from permission_groups alone (its
 * (group_id, permission_id) index covers the query): only ALL-of grants have rows there. Asking
 * permissions for "user_id is null and group_id is null" instead would walk every such row.
 */
export async function allOfGrantIdsNamingAny(db: Db, groupIds: readonly number[]): Promise<number[]> {
  if (groupIds.length === 0) return [];
  const rows = await db.selectFrom('permission_groups').select('permission_id').where('group_id', 'in', groupIds).execute();
  return [...new Set(rows.map((row) => row.permission_id))];
}
