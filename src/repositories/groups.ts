import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { cachedRead } from '../db/read-cache.js';
import { startsWith } from './like-patterns.js';
import { equalsText } from '../db/text-equality.js';
import { asSortedPage, type IdPageRequest, type SortedPageRequest } from '../lib/sorted-page.js';
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
  /** Files.com's group notes and protocol flags (docs/workspaces-users-groups.md). */
  profile: GroupProfile;
}

/** A protocol flag true lets every member use that protocol whatever the member's own flag says. */
export interface GroupProfile {
  notes: string;
  sftpPermission: boolean;
  davPermission: boolean;
  ftpPermission: boolean;
  restapiPermission: boolean;
  /** Canonical newline-separated addresses and CIDR ranges its members may come from; empty adds none. */
  allowedIps: string;
}

export const DEFAULT_GROUP_PROFILE: GroupProfile = Object.freeze({ notes: '', sftpPermission: false, davPermission: false, ftpPermission: false, restapiPermission: false, allowedIps: '' });

const GROUP_PROFILE_COLUMNS = {
  notes: 'notes', sftpPermission: 'sftp_permission', davPermission: 'dav_permission', ftpPermission: 'ftp_permission', restapiPermission: 'restapi_permission',
  allowedIps: 'allowed_ips',
} as const;

function groupProfileColumns(profile: Partial<GroupProfile>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(profile).filter(([, v]) => v !== undefined).map(([k, v]) => [GROUP_PROFILE_COLUMNS[k as keyof GroupProfile], v]));
}

interface GroupRow {
  id: number; workspace_id: number; name: string; created_at: number; external_id?: string | null; updated_at?: number | null;
  notes?: string | null; sftp_permission?: boolean | number | null; dav_permission?: boolean | number | null;
  ftp_permission?: boolean | number | null; restapi_permission?: boolean | number | null; allowed_ips?: string | null;
}

function toGroup(row: GroupRow): Group {
  return {
    id: row.id, workspaceId: row.workspace_id, name: row.name, createdAt: row.created_at, externalId: row.external_id ?? null, updatedAt: row.updated_at ?? row.created_at,
    profile: {
      notes: row.notes ?? '',
      sftpPermission: Boolean(row.sftp_permission),
      davPermission: Boolean(row.dav_permission),
      ftpPermission: Boolean(row.ftp_permission),
      restapiPermission: Boolean(row.restapi_permission),
      allowedIps: row.allowed_ips ?? '',
    },
  };
}

export function groupNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

export async function findGroupById(db: Db, id: number): Promise<Group | undefined> {
  const row = await db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toGroup(row);
}

/** The groups of these ids that exist, by id, in one query. */
export async function findGroupsByIds(db: Db, ids: readonly number[]): Promise<Group[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('groups').selectAll().where('id', 'in', [...new Set(ids)]).orderBy('id').execute();
  return rows.map(toGroup);
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
  page: IdPageRequest | SortedPageRequest<GroupSortField>,
): Promise<Group[]> {
  if (!visibility.everyone && visibility.alsoIds.length === 0) return [];
  if (filter.ids !== undefined && filter.ids.length === 0) return [];
  const sorted = asSortedPage(page);
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

export async function insertGroup(db: Db, group: { workspaceId: number; name: string; now: number; externalId?: string | null; profile?: Partial<GroupProfile> }): Promise<Group> {
  const row = await db
    .insertInto('groups')
    .values({
      workspace_id: group.workspaceId, name: group.name, name_key: groupNameKey(group.name), created_at: group.now, external_id: group.externalId ?? null,
      ...groupProfileColumns(group.profile ?? {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toGroup(row);
}

export async function setGroupExternalId(db: Db, id: number, externalId: string | null, now: number): Promise<void> {
  await db.updateTable('groups').set({ external_id: externalId, updated_at: now }).where('id', '=', id).execute();
}

/** Changes a group's notes and protocol flags; nothing given, nothing written. */
export async function updateGroupProfile(db: Db, id: number, profile: Partial<GroupProfile>, now: number): Promise<void> {
  const values = groupProfileColumns(profile);
  if (Object.keys(values).length === 0) return;
  await db.updateTable('groups').set({ ...values, updated_at: now }).where('id', '=', id).execute();
}

/**
 * Whether any group of the user's own Workspace that it is a member of has `flag` true: such a
 * group lets its members use the protocol whatever their own flag says (Files.com's group
 * semantics). Only a group of the user's Workspace counts: a Workspace 0 user may belong to a
 * Custom Workspace's group, whose administrators do not administer that user and so may not open a
 * door the user's own administrators closed.
 */
export async function anyGroupAllows(db: Db, user: { id: number; workspaceId: number }, flag: 'sftp_permission' | 'dav_permission' | 'restapi_permission' | 'ftp_permission'): Promise<boolean> {
  const row = await db
    .selectFrom('group_users as gu')
    .innerJoin('groups as g', 'g.id', 'gu.group_id')
    .select('g.id')
    .where('gu.user_id', '=', user.id)
    .where('g.workspace_id', '=', user.workspaceId)
    .where(`g.${flag}`, '=', true)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The address lists of the groups of the user's own Workspace that it is a member of, those that
 * have one (a group of another Workspace does not govern the user, as for the protocol flags).
 * Read on every request of the user through the read cache: it changes only with a write.
 */
export function groupAddressListsOf(db: Db, user: { id: number; workspaceId: number }): Promise<readonly string[]> {
  return cachedRead(db, 'group-address-lists', `${user.id}:${user.workspaceId}`, async () => {
    const rows = await db
      .selectFrom('group_users as gu')
      .innerJoin('groups as g', 'g.id', 'gu.group_id')
      .select('g.allowed_ips')
      .where('gu.user_id', '=', user.id)
      .where('g.workspace_id', '=', user.workspaceId)
      .where('g.allowed_ips', '!=', '')
      .execute();
    return Object.freeze(rows.map((row) => row.allowed_ips));
  });
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
