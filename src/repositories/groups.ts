import type { Db } from '../db/database.js';
import type { Scope } from './scope.js';

export interface Group {
  id: number;
  workspaceId: number;
  name: string;
  createdAt: number;
}

export interface GroupMember {
  membershipId: number;
  groupId: number;
  userId: number;
  admin: boolean;
  username: string;
  groupName: string;
}

export function groupNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

export async function findGroupById(db: Db, id: number): Promise<Group | undefined> {
  const row = await db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : { id: row.id, workspaceId: row.workspace_id, name: row.name, createdAt: row.created_at };
}

/** Groups in `scope`: all of them when `everyone`, otherwise only `alsoIds`. One page by id. */
export async function listGroupsInScope(
  db: Db,
  scope: Scope,
  visibility: { everyone: boolean; alsoIds: readonly number[] },
  filter: { name?: string; workspaceId?: number; ids?: readonly number[] },
  page: { afterId: number; limit: number },
): Promise<Group[]> {
  if (!visibility.everyone && visibility.alsoIds.length === 0) return [];
  if (filter.ids !== undefined && filter.ids.length === 0) return [];
  let query = db.selectFrom('groups').selectAll().where('id', '>', page.afterId).orderBy('id').limit(page.limit);
  if (scope.kind === 'workspace') query = query.where('workspace_id', '=', scope.workspaceId);
  if (!visibility.everyone) query = query.where('id', 'in', visibility.alsoIds);
  if (filter.name !== undefined) query = query.where('name_key', '=', groupNameKey(filter.name));
  if (filter.workspaceId !== undefined) query = query.where('workspace_id', '=', filter.workspaceId);
  if (filter.ids !== undefined) query = query.where('id', 'in', filter.ids);
  const rows = await query.execute();
  return rows.map((row) => ({ id: row.id, workspaceId: row.workspace_id, name: row.name, createdAt: row.created_at }));
}

export async function groupNameTaken(db: Db, workspaceId: number, name: string, exceptGroupId?: number): Promise<boolean> {
  let query = db.selectFrom('groups').select('id').where('workspace_id', '=', workspaceId).where('name_key', '=', groupNameKey(name));
  if (exceptGroupId !== undefined) query = query.where('id', '!=', exceptGroupId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertGroup(db: Db, group: { workspaceId: number; name: string; now: number }): Promise<Group> {
  const row = await db
    .insertInto('groups')
    .values({ workspace_id: group.workspaceId, name: group.name, name_key: groupNameKey(group.name), created_at: group.now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { id: row.id, workspaceId: row.workspace_id, name: row.name, createdAt: row.created_at };
}

export async function renameGroup(db: Db, id: number, name: string): Promise<void> {
  await db.updateTable('groups').set({ name, name_key: groupNameKey(name) }).where('id', '=', id).execute();
}

/**
 * Deletes a group with every grant that names it: its own grants (cascade) and ALL-of grants
 * listing it, which must go whole, since dropping one group from an ALL-of set would widen it.
 */
export async function deleteGroupAndGrants(db: Db, id: number): Promise<void> {
  await db
    .deleteFrom('permissions')
    .where('id', 'in', (eb) => eb.selectFrom('permission_groups').select('permission_id').where('group_id', '=', id))
    .execute();
  await db.deleteFrom('groups').where('id', '=', id).execute();
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
  return row.id;
}

export async function setMembershipAdmin(db: Db, id: number, admin: boolean): Promise<void> {
  await db.updateTable('group_users').set({ admin }).where('id', '=', id).execute();
}

export async function deleteMembership(db: Db, id: number): Promise<void> {
  await db.deleteFrom('group_users').where('id', '=', id).execute();
}

/** Ids of the groups in which the user is a Group Admin. */
export async function groupsAdministeredBy(db: Db, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('group_users').select('group_id').where('user_id', '=', userId).where('admin', '=', true).execute();
  return rows.map((r) => r.group_id);
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
