import type { Db } from '../../db/database.js';
import { cachedRead, rowsPolicy } from '../../db/read-cache.js';

/** An ALL-of grant as far as matching it needs: its id and the groups a member must all be in. */
export interface AllOfGrantee {
  id: number;
  grantee: { kind: 'groups'; groupIds: readonly number[] };
}

/**
 * ALL-of grants that name at least one of `groupIds`, with their full group sets: the only ALL-of
 * grants a member of exactly those groups can satisfy (the engine decides which it does). Read from
 * permission_groups alone, whose primary key (permission_id, group_id) covers the query: which of
 * them a user satisfies needs no row of `permissions`, most of them being other people's grants.
 * Every grant listing and reach asks this for the caller and for the user listed, so it is cached
 * until the data changes, like the ids it starts from.
 */
export async function allOfGrantsNamingAny(db: Db, groupIds: readonly number[]): Promise<readonly AllOfGrantee[]> {
  if (groupIds.length === 0) return [];
  return cachedRead(db, 'all-of-grantees', groupIds.join(','), async () => Object.freeze(await loadAllOfGrantees(db, groupIds)), ALL_OF_GRANTEES_POLICY);
}

/** Cached ALL-of grantees hold at most this many grants in all. */
const ALL_OF_GRANTEES_POLICY = rowsPolicy<readonly AllOfGrantee[]>(100_000);

async function loadAllOfGrantees(db: Db, groupIds: readonly number[]): Promise<AllOfGrantee[]> {
  const ids = await allOfGrantIdsNamingAny(db, groupIds);
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('permission_groups').select(['permission_id', 'group_id']).where('permission_id', 'in', ids).orderBy('permission_id').orderBy('group_id').execute();
  const grantees: AllOfGrantee[] = [];
  for (const row of rows) {
    const last = grantees[grantees.length - 1];
    if (last?.id === row.permission_id) (last.grantee.groupIds as number[]).push(row.group_id);
    else grantees.push({ id: row.permission_id, grantee: { kind: 'groups', groupIds: [row.group_id] } });
  }
  return grantees;
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
const ALL_OF_IDS_POLICY = rowsPolicy<readonly number[]>(200_000);

async function loadAllOfGrantIds(db: Db, groupIds: readonly number[]): Promise<number[]> {
  const rows = await db.selectFrom('permission_groups').select('permission_id').where('group_id', 'in', groupIds).execute();
  return [...new Set(rows.map((row) => row.permission_id))];
}
