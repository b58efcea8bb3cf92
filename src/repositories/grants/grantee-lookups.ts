import type { Db } from '../../db/database.js';
import { cachedRead, type CachePolicy } from '../../db/read-cache.js';
import { groupNameKey } from '../groups.js';
import { toUser, usernameKey, type User } from '../users.js';

/** A group as a grant sees it: who it is and which Workspace it belongs to. */
export interface GranteeGroup {
  id: number;
  workspaceId: number;
  name: string;
}

export async function findGranteeUserByUsername(db: Db, username: string): Promise<User | undefined> {
  const row = await db.selectFrom('users').selectAll().where('username_key', '=', usernameKey(username)).executeTakeFirst();
  return row === undefined ? undefined : toUser(row);
}

export async function findGranteeGroups(db: Db, ids: readonly number[]): Promise<GranteeGroup[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('groups').select(['id', 'workspace_id', 'name']).where('id', 'in', ids).orderBy('id').execute();
  return rows.map((row) => ({ id: row.id, workspaceId: row.workspace_id, name: row.name }));
}

/** Group names are unique within a Workspace, case-insensitively. */
export async function findGranteeGroupByName(db: Db, workspaceId: number, name: string): Promise<GranteeGroup | undefined> {
  const row = await db
    .selectFrom('groups')
    .select(['id', 'workspace_id', 'name'])
    .where('workspace_id', '=', workspaceId)
    .where('name_key', '=', groupNameKey(name))
    .executeTakeFirst();
  return row === undefined ? undefined : { id: row.id, workspaceId: row.workspace_id, name: row.name };
}

/**
 * Names for responses, in one query per table. A listing of grants names the same users and groups
 * on every read of a page, so the names are cached until the data changes (a rename is a write).
 * The maps are shared between requests: callers only read them.
 */
export async function usernamesOf(db: Db, ids: ReadonlySet<number>): Promise<ReadonlyMap<number, string>> {
  if (ids.size === 0) return new Map();
  const sorted = [...ids].sort((a, b) => a - b);
  return cachedRead(db, 'usernames-of', sorted.join(','), async () => {
    const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', sorted).execute();
    return new Map(rows.map((row) => [row.id, row.username]));
  }, NAMES_POLICY);
}

export async function groupNamesOf(db: Db, ids: ReadonlySet<number>): Promise<ReadonlyMap<number, string>> {
  if (ids.size === 0) return new Map();
  const sorted = [...ids].sort((a, b) => a - b);
  return cachedRead(db, 'group-names-of', sorted.join(','), async () => {
    const rows = await db.selectFrom('groups').select(['id', 'name']).where('id', 'in', sorted).execute();
    return new Map(rows.map((row) => [row.id, row.name]));
  }, NAMES_POLICY);
}

/** Cached name maps hold at most this many names in all. */
const NAMES_POLICY: CachePolicy<ReadonlyMap<number, string>> = { weigh: (names) => names.size + 1, maxWeight: 100_000 };
