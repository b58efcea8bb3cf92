import type { Db } from '../db/database.js';
import { cachedRead } from '../db/read-cache.js';
import type { Scope } from './scope.js';

// Group memberships: who belongs to which group, and who is its Group Admin.

export interface GroupMember {
  membershipId: number;
  groupId: number;
  userId: number;
  admin: boolean;
  username: string;
  groupName: string;
}

/** Ids of the groups a user is a member of: every authority decision starts here, so cached until the data changes. */
export async function groupIdsOfUser(db: Db, userId: number): Promise<number[]> {
  const ids = await cachedRead(db, 'group-ids-of-user', String(userId), async () => {
    const rows = await db.selectFrom('group_users').select('group_id').where('user_id', '=', userId).execute();
    return Object.freeze(rows.map((row) => row.group_id));
  });
  return [...ids];
}

/** Members of the given groups, with names, ordered by membership id. */
export async function membersOfGroups(db: Db, groupIds: readonly number[]): Promise<GroupMember[]> {
  if (groupIds.length === 0) return [];
  const rows = await memberships(db)
    .where('gu.group_id', 'in', groupIds)
    .orderBy('gu.id')
    .execute();
  return rows.map(toMember);
}

/** A user's memberships, with names, ordered by membership id. */
export async function membershipsOfUser(db: Db, userId: number): Promise<GroupMember[]> {
  const rows = await memberships(db).where('gu.user_id', '=', userId).orderBy('gu.id').execute();
  return rows.map(toMember);
}

export async function findMembership(db: Db, id: number): Promise<GroupMember | undefined> {
  const row = await memberships(db)
    .where('gu.id', '=', id)
    .executeTakeFirst();
  return row === undefined ? undefined : toMember(row);
}

/**
 * Memberships of the groups in `scope` (all of them when `everyone`, else only of `alsoGroupIds`),
 * optionally narrowed to one group and/or user; one page by membership id.
 */
export async function listMemberships(
  db: Db,
  scope: Scope,
  visibility: { everyone: boolean; alsoIds: readonly number[] },
  filter: { groupId?: number; userId?: number },
  page: { afterId: number; limit: number },
): Promise<GroupMember[]> {
  if (!visibility.everyone && visibility.alsoIds.length === 0) return [];
  let query = memberships(db)
    .where('gu.id', '>', page.afterId)
    .orderBy('gu.id')
    .limit(page.limit);
  if (scope.kind === 'workspace') query = query.where('g.workspace_id', '=', scope.workspaceId);
  if (!visibility.everyone) query = query.where('gu.group_id', 'in', visibility.alsoIds);
  if (filter.groupId !== undefined) query = query.where('gu.group_id', '=', filter.groupId);
  if (filter.userId !== undefined) query = query.where('gu.user_id', '=', filter.userId);
  return (await query.execute()).map(toMember);
}

export async function insertMembership(db: Db, m: { groupId: number; userId: number; admin: boolean; now: number }): Promise<number> {
  const row = await db
    .insertInto('group_users')
    .values({ group_id: m.groupId, user_id: m.userId, admin: m.admin, created_at: m.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await markChanged(db, row.id, m.now);
  return row.id;
}

export async function setMembershipAdmin(db: Db, id: number, admin: boolean, now: number): Promise<void> {
  await db.updateTable('group_users').set({ admin }).where('id', '=', id).execute();
  await markChanged(db, id, now);
}

export async function deleteMembership(db: Db, id: number, now: number): Promise<void> {
  await markChanged(db, id, now);
  await db.deleteFrom('group_users').where('id', '=', id).execute();
}

/** A membership is part of both its group and its user (SCIM `members`, `groups`): both changed. */
async function markChanged(db: Db, membershipId: number, now: number): Promise<void> {
  const ofMembership = (column: 'group_id' | 'user_id') =>
    db.selectFrom('group_users').select(column).where('id', '=', membershipId);
  await db.updateTable('groups').set({ updated_at: now }).where('id', '=', ofMembership('group_id')).execute();
  await db.updateTable('users').set({ updated_at: now }).where('id', '=', ofMembership('user_id')).execute();
}

/** Ids of the groups in which the user is a Group Admin. */
export async function groupsAdministeredBy(db: Db, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('group_users').select('group_id').where('user_id', '=', userId).where('admin', '=', true).execute();
  return rows.map((r) => r.group_id);
}

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

/** Memberships with the member's and the group's names, as every membership answer shows them. */
function memberships(db: Db) {
  return db
    .selectFrom('group_users as gu')
    .innerJoin('users as u', 'u.id', 'gu.user_id')
    .innerJoin('groups as g', 'g.id', 'gu.group_id')
    .select(['gu.id', 'gu.group_id', 'gu.user_id', 'gu.admin', 'u.username', 'g.name as group_name']);
}

function toMember(row: { id: number; group_id: number; user_id: number; admin: boolean | number; username: string; group_name: string }): GroupMember {
  return {
    membershipId: row.id,
    groupId: row.group_id,
    userId: row.user_id,
    admin: Boolean(row.admin),
    username: row.username,
    groupName: row.group_name,
  };
}
