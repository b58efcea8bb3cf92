import { assertOpensOnlyOwnDoors, findVisibleGroup, groupVisibility, isAdministratorOf, membershipWorkspace, type Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import { refusingDuplicates } from '../repositories/constraint-errors.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import type { IdPageRequest, SortedPageRequest } from '../lib/sorted-page.js';
import { DEFAULT_GROUP_PROFILE, deleteGroupAndGrants, findGroupById, type Group, type GroupFilter, type GroupProfile, groupNameTaken, type GroupSortField, insertGroup, listGroupsInScope, renameGroup, setGroupExternalId, updateGroupProfile } from '../repositories/groups.js';
import { deleteMembership, type GroupMember, membersOfGroups, setMembershipAdmin } from '../repositories/memberships.js';
import { groupEvent } from './directory-history.js';
import { checkMayJoin, joinGroup } from './group-member-rules.js';
import { lockedGroup } from './locked-rows.js';
import { checkAllowedIps, checkExternalId, checkNotes, checkText } from './user-fields.js';

export interface GroupWithMembers {
  group: Group;
  members: GroupMember[];
}

export async function listGroups(
  a: Call,
  filter: GroupFilter,
  page: IdPageRequest | SortedPageRequest<GroupSortField>,
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
  /** Notes and protocol flags; what is left out stays (on creation: none, no flag). */
  profile?: Partial<GroupProfile>;
}

export async function createGroup(a: Call, input: GroupInput & { name: string }): Promise<GroupWithMembers> {
  if (!(await isAdministratorOf(a.db, a.caller, a.requestWorkspaceId))) throw errors.workspaceAdminRequired();
  const workspaceId = await membershipWorkspace(a.db, a.caller, a.requestWorkspaceId, input.workspaceId);
  const name = checkGroupName(input.name);
  if (await groupNameTaken(a.db, workspaceId, name)) throw groupNameTakenError();
  const members = desiredMembers(input.userIds ?? [], input.adminIds ?? []);
  const externalId = checkExternalId(input.externalId);
  const profile = checkGroupProfile(input.profile ?? {});
  await assertOpensOnlyOwnDoors(a.db, a.caller, profile);
  const draft: Group = { id: 0, workspaceId, name, createdAt: a.now, externalId, updatedAt: a.now, profile: { ...DEFAULT_GROUP_PROFILE, ...profile } };
  for (const userId of members.keys()) await checkMayJoin(a, draft, userId, 'administrator');
  // Another request creating the same name at the same moment: the unique key decides.
  const group = await refusingDuplicates(() => inTransaction(a.db, async (tx) => {
    const created = await insertGroup(tx, { workspaceId, name, now: a.now, externalId, profile });
    for (const [userId, admin] of members) await joinGroup(tx, { groupId: created.id, userId, admin, now: a.now });
    const added = [...members].map(([userId, admin]) => ({ userId, admin }));
    await recordHistory(tx, a, [groupEvent('group_create', created, { members: { added, removed: [], adminChanged: [] } })]);
    return created;
  }), groupNameTakenError);
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
  if (name !== undefined && name !== group.name && (await groupNameTaken(a.db, group.workspaceId, name, group.id))) throw groupNameTakenError();
  const wanted = {
    ...input, name, externalId: input.externalId === undefined ? undefined : checkExternalId(input.externalId),
    ...(input.profile === undefined ? {} : { profile: checkGroupProfile(input.profile) }),
  };
  // Nothing to change (a provider sending the group back as it is): no write at all.
  if (!planGroupChange(group, await membersOfGroups(a.db, [group.id]), wanted).changed) return getGroupUnchecked(a.db, group);
  await refusingDuplicates(() => inTransaction(a.db, async (tx) => {
    // Planned again on the group and its members as they are now, locked: the change and its
    // record are made against them, not against what a request just before this one changed.
    const before = await lockedGroup(tx, group.id);
    const plan = planGroupChange(before, await membersOfGroups(tx, [group.id]), wanted);
    await assertOpensOnlyOwnDoors(tx, a.caller, plan.profile);
    const after = { ...before, profile: { ...before.profile, ...plan.profile } };
    for (const { userId } of plan.added) await checkMayJoin({ ...a, db: tx }, after, userId, 'administrator');
    if (plan.name !== undefined) await renameGroup(tx, group.id, plan.name, a.now);
    if (plan.externalId !== undefined) await setGroupExternalId(tx, group.id, plan.externalId, a.now);
    await updateGroupProfile(tx, group.id, plan.profile, a.now);
    for (const member of plan.removed) await deleteMembership(tx, member.membershipId, a.now);
    for (const member of plan.adminChanged) await setMembershipAdmin(tx, member.membershipId, member.admin, a.now);
    for (const { userId, admin } of plan.added) await joinGroup(tx, { groupId: group.id, userId, admin, now: a.now });
    if (plan.changed) await recordHistory(tx, a, [groupEvent('group_update', { ...before, name: plan.name ?? before.name }, { before, members: plan, profileChanged: Object.keys(plan.profile).map(snakeCase) })]);
  }), groupNameTakenError);
  // Read again: the change time (and anything the change set) is the database's now.
  return getGroupUnchecked(a.db, (await findGroupById(a.db, group.id)) ?? group);
}

interface GroupChangePlan {
  /** The new name, or undefined when it stays. */
  name: string | undefined;
  /** The new external id (null: removed), or undefined when it stays. */
  externalId: string | null | undefined;
  /** The notes and flags that differ from the group's. */
  profile: Partial<GroupProfile>;
  added: { userId: number; admin: boolean }[];
  removed: GroupMember[];
  adminChanged: (GroupMember & { admin: boolean })[];
  changed: boolean;
}

/** What an update asks of a group with these members: only what differs from them. */
function planGroupChange(group: Group, current: readonly GroupMember[], input: GroupInput): GroupChangePlan {
  const target = targetMembership(current, input.userIds, input.adminIds);
  const removed = current.filter((m) => !target.has(m.userId));
  const adminChanged = current.flatMap((m) => {
    const admin = target.get(m.userId);
    return admin === undefined || admin === m.admin ? [] : [{ ...m, admin }];
  });
  const added = [...target].filter(([userId]) => !current.some((m) => m.userId === userId)).map(([userId, admin]) => ({ userId, admin }));
  const name = input.name !== undefined && input.name !== group.name ? input.name : undefined;
  const externalId = input.externalId !== undefined && input.externalId !== group.externalId ? input.externalId : undefined;
  const profile = Object.fromEntries(Object.entries(input.profile ?? {})
    .filter(([field, value]) => value !== undefined && group.profile[field as keyof GroupProfile] !== value)) as Partial<GroupProfile>;
  const changed = name !== undefined || externalId !== undefined || Object.keys(profile).length > 0 || added.length + removed.length + adminChanged.length > 0;
  return { name, externalId, profile, added, removed, adminChanged, changed };
}

/** DELETE /groups/<id>: its memberships and every grant naming it go too (contract 7). */
export async function deleteGroup(a: Call, id: number): Promise<void> {
  const group = await findVisibleGroup(a.db, a.caller, a.requestWorkspaceId, id);
  if (!(await isAdministratorOf(a.db, a.caller, group.workspaceId))) throw errors.workspaceAdminRequired();
  await inTransaction(a.db, async (tx) => {
    const current = await lockedGroup(tx, group.id);
    await deleteGroupAndGrants(tx, group.id);
    await recordHistory(tx, a, [groupEvent('group_destroy', current)]);
  });
}

function groupNameTakenError(): Error {
  return errors.modelSaveError({ name: ['has already been taken'] });
}

function checkGroupName(raw: string): string {
  const name = checkText('name', raw);
  if (name === '') throw errors.modelSaveError({ name: ["can't be blank"] });
  return name;
}

function snakeCase(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function checkGroupProfile(profile: Partial<GroupProfile>): Partial<GroupProfile> {
  return {
    ...profile,
    ...(profile.notes === undefined ? {} : { notes: checkNotes('notes', profile.notes) }),
    ...(profile.allowedIps === undefined ? {} : { allowedIps: checkAllowedIps(profile.allowedIps) }),
  };
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
