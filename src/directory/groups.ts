import { findVisibleGroup, groupVisibility, isAdministratorOf, membershipWorkspace, type Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import { deleteGroupAndGrants, findGroupById, type Group, groupNameTaken, insertGroup, listGroupsInScope, renameGroup, setGroupExternalId } from '../repositories/groups.js';
import { deleteMembership, type GroupMember, insertMembership, membersOfGroups, setMembershipAdmin } from '../repositories/memberships.js';
import { groupEvent, type MemberChange } from './directory-history.js';
import { checkMayJoin } from './group-member-rules.js';
import { checkExternalId, checkText } from './user-fields.js';

export interface GroupWithMembers {
  group: Group;
  members: GroupMember[];
}

export async function listGroups(
  a: Call,
  filter: { name?: string; workspaceId?: number; ids?: readonly number[]; externalId?: string },
  page: { afterId: number; limit: number },
): Promise<GroupWithMembers[]> {
  const visibility = await groupVisibility(a.db, a.caller, a.requestWorkspaceId);
  return withMembers(a.db, await listGroupsInScope(a.db, visibility.scope, visibility, filter, page));
}

/**
 * The names of those of `ids` the caller may see in the request context, for showing a user's
 * groups by name (SCIM `groups[].display`); a group it may not see has no name here, as it has no
 * entry in the caller's list of groups.
 */
export async function visibleGroupNames(a: Call, ids: readonly number[]): Promise<ReadonlyMap<number, string>> {
  const distinct = [...new Set(ids)];
  if (distinct.length === 0) return new Map();
  const visibility = await groupVisibility(a.db, a.caller, a.requestWorkspaceId);
  const groups = await listGroupsInScope(a.db, visibility.scope, visibility, { ids: distinct }, { afterId: 0, limit: distinct.length });
  return new Map(groups.map((group) => [group.id, group.name]));
}

export async function getGroup(a: Call, id: number): Promise<GroupWithMembers> {
  const [found] = await withMembers(a.db, [await findVisibleGroup(a.db, a.caller, a.requestWorkspaceId, id)]);
  return found as GroupWithMembers;
}

export interface GroupInput {
  name?: string;
  workspaceId?: number;
  /** Members; an admin listed only in `adminIds` is a member too. */
  userIds?: number[];
  adminIds?: number[];
  /** The identifier an identity provider gave the group (SCIM externalId); null removes it. */
  externalId?: string | null;
}

export async function createGroup(a: Call, input: GroupInput & { name: string }): Promise<GroupWithMembers> {
  if (!(await isAdministratorOf(a.db, a.caller, a.requestWorkspaceId))) throw errors.workspaceAdminRequired();
  const workspaceId = await membershipWorkspace(a.db, a.caller, a.requestWorkspaceId, input.workspaceId);
  const name = checkGroupName(input.name);
  if (await groupNameTaken(a.db, workspaceId, name)) throw errors.modelSaveError({ name: ['has already been taken'] });
  const members = desiredMembers(input.userIds ?? [], input.adminIds ?? []);
  const externalId = checkExternalId(input.externalId);
  const draft: Group = { id: 0, workspaceId, name, createdAt: a.now, externalId, updatedAt: a.now };
  for (const userId of members.keys()) await checkMayJoin(a, draft, userId);
  const group = await inTransaction(a.db, async (tx) => {
    const created = await insertGroup(tx, { workspaceId, name, now: a.now, externalId });
    for (const [userId, admin] of members) await insertMembership(tx, { groupId: created.id, userId, admin, now: a.now });
    const added = [...members].map(([userId, admin]) => ({ userId, admin }));
    await recordHistory(tx, a, [groupEvent('group_create', created, { members: { added, removed: [], adminChanged: [] } })]);
    return created;
  });
  return getGroupUnchecked(a.db, group);
}

/**
 * PUT/PATCH /groups/<id>. `user_ids`, when sent, is the whole member list; `admin_ids`, when
 * sent, the whole admin list (its users become members). Members not named keep their admin flag.
 */
export async function updateGroup(a: Call, id: number, input: GroupInput): Promise<GroupWithMembers> {
  const group = await findVisibleGroup(a.db, a.caller, a.requestWorkspaceId, id);
  if (!(await isAdministratorOf(a.db, a.caller, group.workspaceId))) throw errors.workspaceAdminRequired();
  const name = input.name === undefined ? undefined : checkGroupName(input.name);
  if (name !== undefined && name !== group.name && (await groupNameTaken(a.db, group.workspaceId, name, group.id))) {
    throw errors.modelSaveError({ name: ['has already been taken'] });
  }
  const externalId = input.externalId === undefined ? undefined : checkExternalId(input.externalId);
  const current = await membersOfGroups(a.db, [group.id]);
  const target = targetMembership(current, input.userIds, input.adminIds);
  for (const userId of target.keys()) {
    if (!current.some((m) => m.userId === userId)) await checkMayJoin(a, group, userId);
  }
  await inTransaction(a.db, async (tx) => {
    const change: { added: MemberChange['added'][number][]; removed: MemberChange['removed'][number][]; adminChanged: MemberChange['adminChanged'][number][] } = { added: [], removed: [], adminChanged: [] };
    const renamed = name !== undefined && name !== group.name;
    if (renamed) await renameGroup(tx, group.id, name, a.now);
    const newExternalId = externalId !== undefined && externalId !== group.externalId;
    if (newExternalId) await setGroupExternalId(tx, group.id, externalId, a.now);
    for (const member of current) {
      const admin = target.get(member.userId);
      if (admin === undefined) {
        await deleteMembership(tx, member.membershipId, a.now);
        change.removed.push(member);
      } else if (admin !== member.admin) {
        await setMembershipAdmin(tx, member.membershipId, admin, a.now);
        change.adminChanged.push({ userId: member.userId, username: member.username, admin });
      }
    }
    for (const [userId, admin] of target) {
      if (current.some((m) => m.userId === userId)) continue;
      await insertMembership(tx, { groupId: group.id, userId, admin, now: a.now });
      change.added.push({ userId, admin });
    }
    const changed = renamed || newExternalId || change.added.length + change.removed.length + change.adminChanged.length > 0;
    if (changed) await recordHistory(tx, a, [groupEvent('group_update', { ...group, name: name ?? group.name }, { before: group, members: change })]);
  });
  // Read again: the change time (and anything the change set) is the database's now.
  return getGroupUnchecked(a.db, (await findGroupById(a.db, group.id)) ?? group);
}

/** DELETE /groups/<id>: its memberships and every grant naming it go too (contract 7). */
export async function deleteGroup(a: Call, id: number): Promise<void> {
  const group = await findVisibleGroup(a.db, a.caller, a.requestWorkspaceId, id);
  if (!(await isAdministratorOf(a.db, a.caller, group.workspaceId))) throw errors.workspaceAdminRequired();
  await inTransaction(a.db, async (tx) => {
    await deleteGroupAndGrants(tx, group.id);
    await recordHistory(tx, a, [groupEvent('group_destroy', group)]);
  });
}

function checkGroupName(raw: string): string {
  const name = checkText('name', raw);
  if (name === '') throw errors.modelSaveError({ name: ["can't be blank"] });
  return name;
}

function desiredMembers(userIds: readonly number[], adminIds: readonly number[]): Map<number, boolean> {
  const members = new Map<number, boolean>(userIds.map((id) => [id, false]));
  for (const id of adminIds) members.set(id, true);
  return members;
}

function targetMembership(current: readonly GroupMember[], userIds: number[] | undefined, adminIds: number[] | undefined): Map<number, boolean> {
  const currentAdmin = new Map(current.map((m) => [m.userId, m.admin]));
  const memberIds = userIds ?? current.map((m) => m.userId);
  const target = new Map<number, boolean>();
  for (const id of memberIds) target.set(id, adminIds === undefined ? (currentAdmin.get(id) ?? false) : adminIds.includes(id));
  for (const id of adminIds ?? []) target.set(id, true);
  return target;
}

async function getGroupUnchecked(db: Db, group: Group): Promise<GroupWithMembers> {
  const [found] = await withMembers(db, [group]);
  return found as GroupWithMembers;
}

async function withMembers(db: Db, groups: Group[]): Promise<GroupWithMembers[]> {
  const byGroup = new Map<number, GroupMember[]>(groups.map((g) => [g.id, []]));
  for (const member of await membersOfGroups(db, groups.map((g) => g.id))) byGroup.get(member.groupId)?.push(member);
  return groups.map((group) => ({ group, members: byGroup.get(group.id) ?? [] }));
}
