import type { Db } from '../../db/database.js';

// The reads behind "who can reach these paths" (grants/reach/): the users a path's grants can
// name, the administrators by flag, and the paths of a Workspace that carry grants. Each is an
// indexed lookup whose cost follows the grants on the paths asked about, never the site's grants.

/** IN lists are cut to this many values: PostgreSQL takes at most 65,535 parameters a statement. */
const CHUNK = 5_000;

function chunks<T>(values: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(values.slice(i, i + CHUNK));
  return out;
}

export interface GroupMembershipPair {
  userId: number;
  groupId: number;
}

/** Every (member, group) pair of the given groups (the group_users unique index finds them). */
export async function membershipPairsOfGroups(db: Db, groupIds: readonly number[]): Promise<GroupMembershipPair[]> {
  const pairs: GroupMembershipPair[] = [];
  for (const part of chunks([...new Set(groupIds)])) {
    const rows = await db.selectFrom('group_users').select(['user_id', 'group_id']).where('group_id', 'in', part).execute();
    for (const row of rows) pairs.push({ userId: row.user_id, groupId: row.group_id });
  }
  return pairs;
}

/**
 * Ids of the users whose own flags give them authority on paths of these Workspaces: every Site
 * Administrator (only Workspace 0 users hold the flag), and the users of each Custom Workspace
 * among `workspaceIds` that hold its workspace_admin flag (users_workspace index). Disabled users
 * are included: the caller decides what a disabled user reaches.
 */
export async function administratorIdsByFlag(db: Db, workspaceIds: readonly number[]): Promise<number[]> {
  const ids = new Set<number>();
  for (const row of await db.selectFrom('users').select('id').where('site_admin', '=', true).execute()) ids.add(row.id);
  const custom = [...new Set(workspaceIds)].filter((id) => id >= 1);
  for (const part of chunks(custom)) {
    const rows = await db.selectFrom('users').select('id').where('workspace_id', 'in', part).where('workspace_admin', '=', true).execute();
    for (const row of rows) ids.add(row.id);
  }
  return [...ids];
}

/** A path that carries at least one grant: its key and the spelling its grants show. */
export interface GrantedPath {
  key: string;
  path: string;
}

/**
 * One page of the distinct paths that carry a grant in a Workspace, in path key order after
 * `afterKey` (exclusive; undefined for the first page). The (path_key, id) index gives the order,
 * so a page costs its own rows, however many grants the Workspace has.
 */
export async function grantedPathsPage(db: Db, workspaceId: number, afterKey: string | undefined, limit: number): Promise<GrantedPath[]> {
  let query = db
    .selectFrom('permissions')
    .select((eb) => ['path_key', eb.fn.min('path').as('path')])
    .where('workspace_id', '=', workspaceId);
  if (afterKey !== undefined) query = query.where('path_key', '>', afterKey);
  const rows = await query.groupBy('path_key').orderBy('path_key').limit(limit).execute();
  return rows.map((row) => ({ key: row.path_key, path: String(row.path) }));
}
