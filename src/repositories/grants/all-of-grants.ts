import type { Db } from '../../db/database.js';
import { cachedRead, type CachePolicy } from '../../db/read-cache.js';
import { GRANT_COLUMNS, toGrantRecords, type GrantRecord } from './grant-record.js';

/**
 * ALL-of grants that name at least one of `groupIds`, with their full group sets: the only ALL-of
 * grants a member of exactly those groups can satisfy (the engine decides which it does). Every
 * grant listing and reach asks this for the caller, and for the user listed, so it is cached until
 * the data changes, like the ids it starts from.
 */
export async function allOfGrantsNamingAny(db: Db, groupIds: readonly number[]): Promise<readonly GrantRecord[]> {
  if (groupIds.length === 0) return [];
  return cachedRead(db, 'all-of-grants', groupIds.join(','), async () => Object.freeze(await loadAllOfGrants(db, groupIds)), ALL_OF_RECORDS_POLICY);
}

/** Cached ALL-of grants hold at most this many grants in all. */
const ALL_OF_RECORDS_POLICY: CachePolicy<readonly GrantRecord[]> = { weigh: (records) => records.length + 1, maxWeight: 100_000 };

async function loadAllOfGrants(db: Db, groupIds: readonly number[]): Promise<GrantRecord[]> {
  const ids = await allOfGrantIdsNamingAny(db, groupIds);
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('permissions').select(GRANT_COLUMNS).where('id', 'in', ids).execute();
  return toGrantRecords(db, rows);
}

/**
 * Ids of the ALL-of grants naming any of `groupIds`, read from permission_groups alone (its
 * (group_id, permission_id) index covers the query): only ALL-of grants have rows there. Asking
 * permissions for "user_id is null and group_id is null" instead would walk every such row.
 * A folder listing asks this up to three times (the grants on the path, on the children, below
 * the folder), so the answer is cached until the data changes (db/read-cache.ts).
 */
export async function allOfGrantIdsNamingAny(db: Db, groupIds: readonly number[]): Promise<number[]> {
  if (groupIds.length === 0) return [];
  const ids = await cachedRead(db, 'all-of-grant-ids', groupIds.join(','), async () => Object.freeze(await loadAllOfGrantIds(db, groupIds)), ALL_OF_IDS_POLICY);
  return [...ids];
}

/** Cached id lists hold at most this many ids in all. */
const ALL_OF_IDS_POLICY: CachePolicy<readonly number[]> = { weigh: (ids) => ids.length + 1, maxWeight: 200_000 };

async function loadAllOfGrantIds(db: Db, groupIds: readonly number[]): Promise<number[]> {
  const rows = await db.selectFrom('permission_groups').select('permission_id').where('group_id', 'in', groupIds).execute();
  return [...new Set(rows.map((row) => row.permission_id))];
}
