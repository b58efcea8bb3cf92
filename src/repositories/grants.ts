import type { Grant, Grantee, Level } from '../authz/index.js';
import type { Expression, ExpressionBuilder, Selectable, SqlBool } from 'kysely';
import type { Db } from '../db/database.js';
import type { PermissionsTable, Tables } from '../db/tables.js';
import { cachedRead, type CachePolicy } from '../db/read-cache.js';

/** The columns a grant decision reads. */
type GrantRow = Pick<Selectable<PermissionsTable>, 'id' | 'path_key' | 'user_id' | 'group_id' | 'permission' | 'recursive'>;

/** Cached lists of grants hold at most this many grants per kind in all (about 20 MB). */
export const GRANT_LIST_POLICY: CachePolicy<readonly Grant[]> = { weigh: (grants) => grants.length, maxWeight: 100_000 };

/**
 * Grants on `pathKeys` that can match a user: its own, its groups', and ALL-of grants naming at
 * least one of its groups (the engine decides whether all are held). Every branch is an indexed
 * lookup, so the cost follows the user's grants on these paths, not the site's grant count.
 * Every permission check asks this, so the answer is cached until the data changes.
 */
export async function grantsThatCanMatch(
  db: Db,
  userId: number,
  groupIds: readonly number[],
  pathKeys: readonly string[],
): Promise<Grant[]> {
  if (pathKeys.length === 0) return [];
  // NUL cannot occur in a path key (paths refuse control characters), so the key is unambiguous.
  const key = `${userId}\u0000${groupIds.join(',')}\u0000${pathKeys.join('\u0000')}`;
  const grants = await cachedRead(db, 'grants-that-can-match', key, async () => Object.freeze(await loadGrantsThatCanMatch(db, userId, groupIds, pathKeys)), GRANT_LIST_POLICY);
  return [...grants];
}

async function loadGrantsThatCanMatch(db: Db, userId: number, groupIds: readonly number[], pathKeys: readonly string[]): Promise<Grant[]> {
  const rows = await db
    .selectFrom('permissions')
    .select(['id', 'path_key', 'user_id', 'group_id', 'permission', 'recursive'])
    .where('path_key', 'in', pathKeys)
    .where(grantCanMatchUser(userId, groupIds))
    .execute();
  return withAllOfGroups(db, rows);
}

/**
 * The condition "this grant can match the user": its own, its groups', or an ALL-of grant naming
 * one of its groups (the engine decides whether the user holds all of them). Each branch has its
 * index: permissions_user, permissions_group, permission_groups_group.
 */
export function grantCanMatchUser(userId: number, groupIds: readonly number[]) {
  return (eb: ExpressionBuilder<Tables, 'permissions'>): Expression<SqlBool> => {
    const branches = [eb('user_id', '=', userId)];
    if (groupIds.length > 0) {
      branches.push(eb('group_id', 'in', groupIds));
      branches.push(eb('id', 'in', eb.selectFrom('permission_groups').select('permission_id').where('group_id', 'in', groupIds)));
    }
    return eb.or(branches);
  };
}

/** Turns rows into engine grants, loading the group sets of ALL-of grants in one query. */
export async function withAllOfGroups(db: Db, rows: readonly GrantRow[]): Promise<Grant[]> {
  const groupSets = await allOfGroupSets(db, rows);
  return rows.map((row) => ({
    id: row.id,
    pathKey: row.path_key,
    level: row.permission as Level,
    recursive: Boolean(row.recursive),
    grantee: granteeOf(row, groupSets),
  }));
}

/** The groups of each ALL-of grant among `rows` (those naming neither a user nor a group). */
export async function allOfGroupSets(db: Db, rows: readonly Pick<GrantRow, 'id' | 'user_id' | 'group_id'>[]): Promise<Map<number, number[]>> {
  const allOfIds = rows.filter((r) => r.user_id === null && r.group_id === null).map((r) => r.id);
  const groupsByGrant = new Map<number, number[]>();
  if (allOfIds.length === 0) return groupsByGrant;
  const members = await db
    .selectFrom('permission_groups')
    .select(['permission_id', 'group_id'])
    .where('permission_id', 'in', allOfIds)
    .orderBy('group_id')
    .execute();
  for (const m of members) {
    const list = groupsByGrant.get(m.permission_id) ?? [];
    list.push(m.group_id);
    groupsByGrant.set(m.permission_id, list);
  }
  return groupsByGrant;
}

/** A stored row's grantee: a user, a group, or (neither set) the ALL-of set loaded for it. */
export function granteeOf(row: Pick<GrantRow, 'id' | 'user_id' | 'group_id'>, allOfSets: ReadonlyMap<number, number[]>): Grantee {
  if (row.user_id !== null) return { kind: 'user', userId: row.user_id };
  if (row.group_id !== null) return { kind: 'group', groupId: row.group_id };
  return { kind: 'groups', groupIds: allOfSets.get(row.id) ?? [] };
}
