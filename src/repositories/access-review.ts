import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { startsWith } from './like-patterns.js';
import { allOfGrantIdsNamingAny } from './grants/index.js';
import { GRANT_COLUMNS, toGrantRecords, type GrantRecord, type GrantRow } from './grants/grant-record.js';
import { toUser, type User } from './users.js';

// The reads an access review needs in bulk: many users at once, never one query per user.

/** IN lists are cut to this many values: PostgreSQL takes at most 65,535 parameters a statement. */
const CHUNK = 5_000;

function chunks<T>(values: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(values.slice(i, i + CHUNK));
  return out;
}

export async function usersByIds(db: Db, ids: readonly number[]): Promise<User[]> {
  const users: User[] = [];
  for (const part of chunks(ids)) users.push(...(await db.selectFrom('users').selectAll().where('id', 'in', part).execute()).map(toUser));
  return users;
}

/** Each user's group ids, for many users. */
export async function groupIdsOfUsers(db: Db, userIds: readonly number[]): Promise<Map<number, number[]>> {
  const byUser = new Map<number, number[]>(userIds.map((id) => [id, []]));
  for (const part of chunks(userIds)) {
    const rows = await db.selectFrom('group_users').select(['user_id', 'group_id']).where('user_id', 'in', part).execute();
    for (const row of rows) byUser.get(row.user_id)?.push(row.group_id);
  }
  return byUser;
}

/** Ids of the members of a group. */
export async function memberIdsOf(db: Db, groupId: number): Promise<number[]> {
  const rows = await db.selectFrom('group_users').select('user_id').where('group_id', '=', groupId).execute();
  return rows.map((row) => row.user_id);
}

/** A grant as an access review scopes by it: where it lies and whom it names. */
export interface NamingGrant {
  key: string;
  path: string;
  userId: number | null;
  groupId: number | null;
  /** The groups of an ALL-of grant; empty otherwise. */
  allOf: number[];
}

/**
 * The grants that name any of these users or groups, or are ALL-of grants listing one of the
 * groups; only at or below `underKey` when given. Each branch starts from its own index (the
 * ALL-of grants as a list of ids read from permission_groups first), so the cost follows these
 * grantees' grants, never the site's.
 */
export async function grantsNaming(db: Db, names: { userIds: readonly number[]; groupIds: readonly number[] }, underKey?: string): Promise<NamingGrant[]> {
  const allOfIds = await allOfGrantIdsNamingAny(db, names.groupIds);
  const found: NamingGrant[] = [];
  const branches: [column: 'user_id' | 'group_id' | 'id', values: readonly number[]][] = [['user_id', names.userIds], ['group_id', names.groupIds], ['id', allOfIds]];
  for (const [column, values] of branches) {
    for (const part of chunks(values)) {
      let query = db.selectFrom('permissions').select(['id', 'path_key', 'path', 'user_id', 'group_id']).where(column, 'in', part);
      if (underKey !== undefined && underKey !== '') query = query.where((eb) => eb.or([eb('path_key', '=', underKey), startsWith('path_key', `${underKey}/`)]));
      for (const row of await query.execute()) found.push({ key: row.path_key, path: row.path, userId: row.user_id, groupId: row.group_id, allOf: column === 'id' ? [row.id] : [] });
    }
  }
  // The ALL-of rows carry their grant id until their group sets are read, in one query.
  const allOf = found.filter((grant) => grant.allOf.length > 0);
  const sets = new Map<number, number[]>();
  for (const part of chunks(allOf.map((grant) => grant.allOf[0] as number))) {
    for (const row of await db.selectFrom('permission_groups').select(['permission_id', 'group_id']).where('permission_id', 'in', part).execute()) {
      sets.set(row.permission_id, [...(sets.get(row.permission_id) ?? []), row.group_id]);
    }
  }
  for (const grant of allOf) grant.allOf = sets.get(grant.allOf[0] as number) ?? [];
  return found;
}

/**
 * The grants on any of `pathKeys` that can match one of these users: naming one of them, one of
 * `groupIds` (their groups), or an ALL-of set listing one of those groups. What deciding those
 * users on those paths needs, and no grant more.
 */
export async function grantsOnPathsNaming(db: Db, pathKeys: readonly string[], names: { userIds: readonly number[]; groupIds: readonly number[]; partnerIds: readonly number[] }): Promise<GrantRecord[]> {
  const allOfIds = await allOfGrantIdsNamingAny(db, names.groupIds);
  const rows: GrantRow[] = [];
  for (const keys of chunks(pathKeys)) {
    const branches: [column: 'user_id' | 'group_id' | 'partner_id' | 'id', values: readonly number[]][] = [
      ['user_id', names.userIds], ['group_id', names.groupIds], ['partner_id', names.partnerIds], ['id', allOfIds],
    ];
    for (const [column, values] of branches) {
      for (const part of chunks(values)) {
        // The grantee's index finds the rows; left indexable, the path test would tempt SQLite (which
        // has no statistics) to walk every grant on the paths instead. `|| ''` keeps its meaning.
        const onPaths = sql<string>`${sql.ref('path_key')} || ''`;
        rows.push(...(await db.selectFrom('permissions').select(GRANT_COLUMNS).where(column, 'in', part).where(onPaths, 'in', keys).execute()));
      }
    }
  }
  return toGrantRecords(db, rows);
}
