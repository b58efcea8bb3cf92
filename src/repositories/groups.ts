import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { startsWith } from '../db/like-patterns.js';
import { equalsText } from '../db/text-equality.js';
import type { SortedPageRequest } from '../lib/sorted-page.js';
import { afterInOrder } from './keyset-order.js';
import type { Scope } from './scope.js';

export interface Group {
  id: number;
  workspaceId: number;
  name: string;
  createdAt: number;
  externalId: string | null;
  /** The last change of the group's name, external id or members; its creation until then. */
  updatedAt: number;
}

function toGroup(row: { id: number; workspace_id: number; name: string; created_at: number; external_id?: string | null; updated_at?: number | null }): Group {
  return { id: row.id, workspaceId: row.workspace_id, name: row.name, createdAt: row.created_at, externalId: row.external_id ?? null, updatedAt: row.updated_at ?? row.created_at };
}

export function groupNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

export async function findGroupById(db: Db, id: number): Promise<Group | undefined> {
  const row = await db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toGroup(row);
}

/** The fields a list of groups can be sorted by. */
export type GroupSortField = 'id' | 'name' | 'workspace_id';

export interface GroupFilter {
  /** Equal without regard to case. */
  name?: string;
  /** Starts with, without regard to case. */
  namePrefix?: string;
  workspaceId?: number;
  ids?: readonly number[];
  externalId?: string;
}

const GROUPS_SORTED_BY: Readonly<Record<GroupSortField, () => RawBuilder<unknown>>> = {
  id: () => sql.ref('id'),
  name: () => sql.ref('name_key'),
  workspace_id: () => sql.ref('workspace_id'),
};

/** The value `group` has in the order by `field`, as a cursor keeps it. */
export function groupSortValue(group: Group, field: GroupSortField): string | number {
  switch (field) {
    case 'id': return group.id;
    case 'name': return groupNameKey(group.name);
    case 'workspace_id': return group.workspaceId;
  }
}

/**
 * Groups in `scope`: all of them when `everyone`, otherwise only `alsoIds`. One page of up to
 * `limit` rows, by id after `afterId` or in the order a sorted page asks for.
 */
export async function listGroupsInScope(
  db: Db,
  scope: Scope,
  visibility: { everyone: boolean; alsoIds: readonly number[] },
  filter: GroupFilter,
  page: { afterId: number; limit: number } | SortedPageRequest<GroupSortField>,
): Promise<Group[]> {
  if (!visibility.everyone && visibility.alsoIds.length === 0) return [];
  if (filter.ids !== undefined && filter.ids.length === 0) return [];
  const sorted: SortedPageRequest<GroupSortField> = 'sort' in page
    ? page
    : { sort: { field: 'id', direction: 'asc' }, after: page.afterId === 0 ? undefined : { value: page.afterId, id: page.afterId }, limit: page.limit };
  const sortedBy = GROUPS_SORTED_BY[sorted.sort.field]();
  const direction = sorted.sort.direction;
  let query = db.selectFrom('groups').selectAll().limit(sorted.limit);
  query = sorted.sort.field === 'id' ? query.orderBy('id', direction) : query.orderBy(sortedBy, direction).orderBy('id', direction);
  if (sorted.after !== undefined) query = query.where(afterInOrder(sortedBy, sql.ref('id'), direction, sorted.after));
  if (scope.kind === 'workspace') query = query.where('workspace_id', '=', scope.workspaceId);
  if (!visibility.everyone) query = query.where('id', 'in', visibility.alsoIds);
  if (filter.name !== undefined) query = query.where(equalsText('name_key', groupNameKey(filter.name)));
  if (filter.namePrefix !== undefined) query = query.where(startsWith('name_key', groupNameKey(filter.namePrefix)));
  if (filter.workspaceId !== undefined) query = query.where('workspace_id', '=', filter.workspaceId);
  if (filter.ids !== undefined) query = query.where('id', 'in', filter.ids);
  if (filter.externalId !== undefined) query = query.where(equalsText('external_id', filter.externalId));
  const rows = await query.execute();
  return rows.map(toGroup);
}

export async function groupNameTaken(db: Db, workspaceId: number, name: string, exceptGroupId?: number): Promise<boolean> {
  let query = db.selectFrom('groups').select('id').where('workspace_id', '=', workspaceId).where('name_key', '=', groupNameKey(name));
  if (exceptGroupId !== undefined) query = query.where('id', '!=', exceptGroupId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertGroup(db: Db, group: { workspaceId: number; name: string; now: number; externalId?: string | null }): Promise<Group> {
  const row = await db
    .insertInto('groups')
    .values({ workspace_id: group.workspaceId, name: group.name, name_key: groupNameKey(group.name), created_at: group.now, external_id: group.externalId ?? null })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toGroup(row);
}

export async function setGroupExternalId(db: Db, id: number, externalId: string | null, now: number): Promise<void> {
  await db.updateTable('groups').set({ external_id: externalId, updated_at: now }).where('id', '=', id).execute();
}

export async function renameGroup(db: Db, id: number, name: string, now: number): Promise<void> {
  await db.updateTable('groups').set({ name, name_key: groupNameKey(name), updated_at: now }).where('id', '=', id).execute();
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
