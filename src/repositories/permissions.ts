import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Grant, Grantee, Level } from '../authz/index.js';
import type { Db } from '../db/database.js';
import { findEntry } from './entries.js';
import { startsWith } from '../db/like-prefix.js';
import type { PermissionsTable, Tables } from '../db/tables.js';
import { allOfGroupSets, granteeOf } from './grants.js';

/** A stored grant with everything a response needs besides the grantees' names. */
export interface PermissionRecord {
  id: number;
  workspaceId: number;
  /** Qualified site path, display spelling. */
  path: string;
  pathKey: string;
  grantee: Grantee;
  level: Level;
  recursive: boolean;
  createdAt: number;
}

const COLUMNS = ['id', 'workspace_id', 'path', 'path_key', 'user_id', 'group_id', 'permission', 'recursive', 'created_at'] as const;

type Row = Pick<Selectable<PermissionsTable>, (typeof COLUMNS)[number]>;

/** The engine's view of a stored grant. */
export function toEngineGrant(record: PermissionRecord): Grant {
  return { id: record.id, pathKey: record.pathKey, grantee: record.grantee, level: record.level, recursive: record.recursive };
}

/** Rows to records, loading the group sets of ALL-of grants in one query. */
async function toRecords(db: Db, rows: readonly Row[]): Promise<PermissionRecord[]> {
  const groupSets = await allOfGroupSets(db, rows);
  return rows.map((row) => ({
    id: row.id,
    workspaceId: row.workspace_id,
    path: row.path,
    pathKey: row.path_key,
    grantee: granteeOf(row, groupSets),
    // Stored levels are only ever written from the validated enum; the engine fails closed on
    // anything else should a bad row appear.
    level: row.permission as Level,
    recursive: Boolean(row.recursive),
    createdAt: row.created_at,
  }));
}

export async function findPermission(db: Db, id: number): Promise<PermissionRecord | undefined> {
  const row = await db.selectFrom('permissions').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : (await toRecords(db, [row]))[0];
}

export interface NewPermission {
  workspaceId: number;
  path: string;
  pathKey: string;
  grantee: Grantee;
  level: Level;
  recursive: boolean;
  now: number;
}

export async function insertPermission(db: Db, grant: NewPermission): Promise<PermissionRecord> {
  const row = await db
    .insertInto('permissions')
    .values({
      workspace_id: grant.workspaceId,
      path: grant.path,
      path_key: grant.pathKey,
      user_id: grant.grantee.kind === 'user' ? grant.grantee.userId : null,
      group_id: grant.grantee.kind === 'group' ? grant.grantee.groupId : null,
      permission: grant.level,
      recursive: grant.recursive,
      created_at: grant.now,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  if (grant.grantee.kind === 'groups') {
    const groupIds = [...new Set(grant.grantee.groupIds)];
    await db.insertInto('permission_groups').values(groupIds.map((groupId) => ({ permission_id: row.id, group_id: groupId }))).execute();
  }
  return (await toRecords(db, [row]))[0] as PermissionRecord;
}

export async function deletePermissions(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  // permission_groups rows go with their grant (on delete cascade).
  await db.deleteFrom('permissions').where('id', 'in', ids).execute();
}

/**
 * The grants of `grantee` on `pathKey` and, with `andBelow`, on every path under it: the only
 * grants a new grant for that grantee can replace. Each branch starts from the grantee's own
 * index (permissions_user, permissions_group, permission_groups_group), so the cost follows that
 * grantee's grants, not the site's. For an ALL-of grantee this returns every ALL-of grant naming
 * its first group; the engine's sameGrantee keeps only the identical set.
 */
export async function granteeGrantsAtOrBelow(db: Db, grantee: Grantee, pathKey: string, andBelow: boolean): Promise<PermissionRecord[]> {
  let query = db.selectFrom('permissions').select(COLUMNS);
  switch (grantee.kind) {
    case 'user':
      query = query.where('user_id', '=', grantee.userId);
      break;
    case 'group':
      query = query.where('group_id', '=', grantee.groupId);
      break;
    case 'groups': {
      const first = grantee.groupIds[0];
      if (first === undefined) return [];
      const ids = await allOfGrantIdsNamingAny(db, [first]);
      if (ids.length === 0) return [];
      query = query.where('id', 'in', ids);
      break;
    }
  }
  query = query.where((eb) => (andBelow ? atOrBelow(eb, pathKey) : eb('path_key', '=', pathKey)));
  return toRecords(db, await query.orderBy('id').execute());
}

/**
 * Ids of the ALL-of grants naming any of `groupIds`, read from permission_groups alone (its
 * (group_id, permission_id) index covers the query): only ALL-of grants have rows there. Asking
 * permissions for "user_id is null and group_id is null" instead would walk every such row.
 */
async function allOfGrantIdsNamingAny(db: Db, groupIds: readonly number[]): Promise<number[]> {
  if (groupIds.length === 0) return [];
  const rows = await db.selectFrom('permission_groups').select('permission_id').where('group_id', 'in', groupIds).execute();
  return [...new Set(rows.map((row) => row.permission_id))];
}

/**
 * ALL-of grants that name at least one of `groupIds`, with their full group sets: the only ALL-of
 * grants a member of exactly those groups can satisfy (the engine decides which it does).
 */
export async function allOfGrantsNamingAny(db: Db, groupIds: readonly number[]): Promise<PermissionRecord[]> {
  const ids = await allOfGrantIdsNamingAny(db, groupIds);
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('permissions').select(COLUMNS).where('id', 'in', ids).execute();
  return toRecords(db, rows);
}

/**
 * `admin` grants that can match a user (its own, its groups', ALL-of grants naming one of its
 * groups; the caller lets the engine decide which match), on any path or only in one Workspace:
 * where the user may hold Workspace Administrator or Folder Admin authority. Indexed by grantee,
 * so bounded by the user's grants. A caller that has already loaded the ALL-of grants naming the
 * groups passes their ids, sparing the lookup.
 */
export async function adminGrantsThatCanMatch(
  db: Db,
  userId: number,
  groupIds: readonly number[],
  options: { inWorkspace?: number; allOfGrantIds?: readonly number[] } = {},
): Promise<PermissionRecord[]> {
  const { inWorkspace } = options;
  const allOfGrantIds = options.allOfGrantIds ?? (await allOfGrantIdsNamingAny(db, groupIds));
  const rows = await rowsPerGranteeBranch({ userId, groupIds, allOfGrantIds }, (branch) => {
    const query = db.selectFrom('permissions').select(COLUMNS).where(branch).where('permission', '=', 'admin');
    return (inWorkspace === undefined ? query : query.where('workspace_id', '=', inWorkspace)).execute();
  });
  return toRecords(db, rows);
}

/**
 * Runs `query` once for each branch of a grantee set (the user's grants, its groups', the ALL-of
 * grants naming its groups) and concatenates the rows. One OR over the three, next to other
 * conditions, is served by no index and scans every grant of the site; alone, each branch starts
 * from its own index (permissions_user, permissions_group, the primary key), so the cost follows
 * the user's grants. The branches name disjoint grantee kinds, so no row comes twice.
 */
async function rowsPerGranteeBranch<R>(
  set: GranteeSet,
  query: (branch: (eb: PermissionsEb) => Expression<SqlBool>) => Promise<R[]>,
): Promise<R[]> {
  const branches: ((eb: PermissionsEb) => Expression<SqlBool>)[] = [];
  if (set.userId !== null) { const userId = set.userId; branches.push((eb) => eb('user_id', '=', userId)); }
  if (set.groupIds.length > 0) branches.push((eb) => eb('group_id', 'in', set.groupIds));
  if (set.allOfGrantIds.length > 0) branches.push((eb) => eb('id', 'in', set.allOfGrantIds));
  return (await Promise.all(branches.map((branch) => query(branch)))).flat();
}

/** Every grant on the given paths, whoever it names (for explanations). */
export async function permissionsOnPaths(db: Db, pathKeys: readonly string[]): Promise<PermissionRecord[]> {
  if (pathKeys.length === 0) return [];
  const rows = await db.selectFrom('permissions').select(COLUMNS).where('path_key', 'in', pathKeys).orderBy('id').execute();
  return toRecords(db, rows);
}

/** The display spelling already in use for a path: its entry's, or an existing grant's. */
export async function existingSpelling(db: Db, pathKey: string): Promise<string | undefined> {
  const entry = await findEntry(db, pathKey);
  if (entry !== undefined) return entry.path;
  const grant = await db.selectFrom('permissions').select('path').where('path_key', '=', pathKey).orderBy('id').limit(1).executeTakeFirst();
  return grant?.path;
}

export async function entryTypeAt(db: Db, pathKey: string): Promise<'file' | 'directory' | undefined> {
  return (await findEntry(db, pathKey))?.type;
}

/** Grants that name a grantee: a user id, any of some group ids, or some ALL-of grant ids. */
export interface GranteeSet {
  userId: number | null;
  groupIds: readonly number[];
  allOfGrantIds: readonly number[];
}

/** A subtree of Folder Admin authority: the grants on `key` (and below it when recursive) in `workspaceId`. */
export interface Subtree {
  key: string;
  recursive: boolean;
  workspaceId: number;
}

/** What a caller may list, beyond the Workspaces it administers in full. */
export interface ListVisibility {
  workspaceIds: readonly number[];
  subtrees: readonly Subtree[];
  own: GranteeSet;
}

export interface PermissionListQuery {
  /** Only grants whose path lies in this Workspace (request context N), or in any (context 0). */
  workspaceId: number | null;
  /** 'all': everything in `workspaceId` (an administrator of the context). */
  visibility: 'all' | ListVisibility;
  grantees?: GranteeSet;
  groupId?: number;
  /** Grants on any of `anyKeys`, or recursive ones on `recursiveKeys`. */
  covering?: { anyKeys: readonly string[]; recursiveKeys: readonly string[] };
  afterId: number;
  limit: number;
}

/** One page of grants by id. Every filter is a WHERE clause, so the database does the paging. */
export async function listPermissions(db: Db, query: PermissionListQuery): Promise<PermissionRecord[]> {
  let select = db.selectFrom('permissions').select(COLUMNS).where('id', '>', query.afterId);
  const visibility = query.visibility;
  const grantees = query.grantees;
  const narrowed = visibility !== 'all' || grantees !== undefined || query.groupId !== undefined || query.covering !== undefined;
  if (query.workspaceId !== null) {
    // When a grantee, group, path or visibility condition narrows the rows, its own indexes
    // (permissions_user, _group, _path) find them; left indexable, the context test would tempt
    // SQLite (which has no statistics) into walking every grant of the Workspace instead. A unary
    // '+' makes the term unindexable in SQLite and PostgreSQL alike, without changing its meaning.
    select = narrowed
      ? select.where(sql<SqlBool>`+${sql.ref('workspace_id')} = ${query.workspaceId}`)
      : select.where('workspace_id', '=', query.workspaceId);
  }
  if (visibility !== 'all') select = select.where((eb) => visibleWhere(eb, visibility));
  if (query.groupId !== undefined) select = select.where('group_id', '=', query.groupId);
  const covering = query.covering;
  if (covering !== undefined) {
    select = select.where((eb) => {
      const branches: Expression<SqlBool>[] = [];
      if (covering.anyKeys.length > 0) branches.push(eb('path_key', 'in', covering.anyKeys));
      if (covering.recursiveKeys.length > 0) {
        branches.push(eb.and([eb('path_key', 'in', covering.recursiveKeys), eb('recursive', '=', true)]));
      }
      return eb.or(branches);
    });
  }
  if (grantees === undefined) return toRecords(db, await select.orderBy('id').limit(query.limit).execute());
  // A page per grantee branch, each from its own index, then the first `limit` of their union by id:
  // the same page one query over the OR would give, without scanning the site's grants.
  const rows = await rowsPerGranteeBranch(grantees, (branch) => select.where(branch).orderBy('id').limit(query.limit).execute());
  rows.sort((a, b) => a.id - b.id);
  return toRecords(db, rows.slice(0, query.limit));
}

type PermissionsEb = ExpressionBuilder<Tables, 'permissions'>;

function visibleWhere(eb: PermissionsEb, visibility: ListVisibility): Expression<SqlBool> {
  const branches: Expression<SqlBool>[] = [];
  if (visibility.workspaceIds.length > 0) branches.push(eb('workspace_id', 'in', visibility.workspaceIds));
  for (const subtree of visibility.subtrees) {
    const onPath = subtree.recursive ? atOrBelow(eb, subtree.key) : eb('path_key', '=', subtree.key);
    branches.push(eb.and([eb('workspace_id', '=', subtree.workspaceId), onPath]));
  }
  branches.push(...granteeBranches(eb, visibility.own));
  return eb.or(branches);
}

/** Branches matching a grantee set, each on its own index. */
function granteeBranches(eb: PermissionsEb, set: GranteeSet): Expression<SqlBool>[] {
  const branches: Expression<SqlBool>[] = [];
  if (set.userId !== null) branches.push(eb('user_id', '=', set.userId));
  if (set.groupIds.length > 0) branches.push(eb('group_id', 'in', set.groupIds));
  if (set.allOfGrantIds.length > 0) branches.push(eb('id', 'in', set.allOfGrantIds));
  return branches;
}

/** `path_key` is `key` or lies under it ('' is the site root, above everything). */
function atOrBelow(eb: PermissionsEb, key: string): Expression<SqlBool> {
  if (key === '') return eb.lit(true);
  return eb.or([eb('path_key', '=', key), startsWith('path_key', `${key}/`)]);
}
