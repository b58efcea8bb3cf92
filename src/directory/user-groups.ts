import { assertJoiningOpensOnlyOwnDoors, findVisibleGroup, isAdministratorOf, type Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import type { HistoryEvent } from '../history/index.js';
import { findGroupById, findGroupsByIds, type Group } from '../repositories/groups.js';
import { deleteMembership, membershipsOfUser, type GroupMember } from '../repositories/memberships.js';
import type { User } from '../repositories/users.js';
import { groupEvent } from './directory-history.js';
import { joinGroup } from './group-member-rules.js';
import { lockAndRead } from '../db/serialise.js';
import { findUserById } from '../repositories/users.js';
import { lockGroup } from './locked-rows.js';

/** The memberships a `group_ids` list changes: the groups the user joins, and the memberships it leaves. */
export interface UserGroupChange {
  joining: readonly Group[];
  leaving: readonly { group: Group; membership: GroupMember }[];
}

export const NO_GROUP_CHANGE: UserGroupChange = { joining: [], leaving: [] };

/**
 * `group_ids` on an update of a user: the whole list of the groups the user is to belong to, as
 * the user is shown with it, so a client that sends every field back (the Files.com SDK's save)
 * changes nothing. A group already listed keeps its membership and Group Admin flag; a group newly
 * named must be one of the user's own Workspace, as on creation, and one the caller may see
 * (`not-found/group-not-found` otherwise, exactly as for an id that does not exist); a group left
 * out is left. Joining or leaving a group needs an administrator of the group's Workspace (a Group
 * Admin changes its groups' members through /group_users).
 */
export async function planUserGroups(a: Call, user: User, groupIds: readonly number[]): Promise<UserGroupChange> {
  const current = await membershipsOfUser(a.db, user.id);
  const joining: Group[] = [];
  for (const groupId of new Set(groupIds)) {
    if (current.some((m) => m.groupId === groupId)) continue;
    const group = await findVisibleGroup(a.db, a.caller, a.requestWorkspaceId, groupId);
    // A user joins only its own Workspace's groups through this field, as on creation.
    if (group.workspaceId !== user.workspaceId) throw errors.groupNotFound();
    joining.push(group);
  }
  const leaving: { group: Group; membership: GroupMember }[] = [];
  for (const membership of current.filter((m) => !groupIds.includes(m.groupId))) {
    const group = await findGroupById(a.db, membership.groupId);
    if (group !== undefined) leaving.push({ group, membership });
  }
  for (const group of [...joining, ...leaving.map((l) => l.group)]) {
    if (!(await isAdministratorOf(a.db, a.caller, group.workspaceId))) {
      throw errors.insufficientPermissionForParams("Only an administrator of a group's Workspace may change group_ids.");
    }
  }
  for (const group of joining) await assertJoiningOpensOnlyOwnDoors(a.db, a.caller, group, user);
  return { joining, leaving };
}

/**
 * Locks every group a `group_ids` change may touch (those named and those the user is in now), in
 * id order, until the transaction ends. It must come before the user's own lock: a change of a
 * group's members takes the group first and the user's row after it (the membership refers to
 * it), so taking them the other way round could make two such changes wait on each other.
 */
export async function lockGroupsOfUserChange(tx: Db, userId: number, groupIds: readonly number[]): Promise<void> {
  const current = await membershipsOfUser(tx, userId);
  const touched = [...new Set([...groupIds, ...current.map((m) => m.groupId)])].sort((x, y) => x - y);
  for (const groupId of touched) await lockGroup(tx, groupId);
}

/**
 * Makes a `group_ids` change inside the update's transaction, with its groups locked
 * (lockGroupsOfUserChange): planned again on the memberships as they are now, and checked again,
 * so that changes at once end as one after another would, each on what the one before it left.
 * Answers the History records of the groups it changed.
 */
export async function applyUserGroups(tx: Db, a: Call, user: User, groupIds: readonly number[]): Promise<HistoryEvent[]> {
  const change = await planUserGroups({ ...a, db: tx }, user, groupIds);
  const events: HistoryEvent[] = [];
  for (const group of change.joining) events.push(await joinAsMember(tx, group, user, a.now));
  for (const { group, membership } of change.leaving) events.push(await leaveGroup(tx, group, membership, user, a.now));
  return events;
}

/** The user joins the group (locked), not as a Group Admin; answers the group's History record. */
async function joinAsMember(tx: Db, group: Group, user: User, now: number): Promise<HistoryEvent> {
  await joinGroup(tx, { groupId: group.id, userId: user.id, admin: false, now });
  return groupEvent('group_update', group, { members: { added: [{ userId: user.id, admin: false }], removed: [], adminChanged: [] } });
}

/** The user leaves the group (locked); answers the group's History record. */
async function leaveGroup(tx: Db, group: Group, membership: GroupMember, user: User, now: number): Promise<HistoryEvent> {
  await deleteMembership(tx, membership.membershipId, now);
  return groupEvent('group_update', group, { members: { added: [], removed: [{ userId: user.id, username: user.username }], adminChanged: [] } });
}

/**
 * An identity provider's group claim at sign-in (sso/): the user's memberships of the `mapped`
 * groups made to follow `wanted`, the groups of the claim's values. A mapped group of another
 * Workspace is never touched, and a Partner's user joins no group. The groups whose membership
 * changes are locked first, in id order, and the user's row after them, as every change of a
 * group's members takes them (lockGroupsOfUserChange); the memberships are read again under the
 * locks. Answers the user as it is now, locked until the transaction ends (undefined when it is
 * gone), and the History records of the groups it changed.
 */
export async function followGroupClaim(tx: Db, user: User, mapped: readonly number[], wanted: ReadonlySet<number>, now: number): Promise<{ user: User | undefined; events: HistoryEvent[] }> {
  const groups = user.partnerId !== null ? [] : (await findGroupsByIds(tx, mapped)).filter((group) => group.workspaceId === user.workspaceId);
  const isMember = new Set((await membershipsOfUser(tx, user.id)).map((m) => m.groupId));
  // Most sign-ins change nothing: only the groups a membership changes in are locked.
  const touched = groups.filter((group) => wanted.has(group.id) !== isMember.has(group.id));
  const locked: Group[] = [];
  for (const group of touched) {
    // A group deleted meanwhile is left alone, as one never mapped.
    const current = await lockGroup(tx, group.id);
    if (current !== undefined) locked.push(current);
  }
  const current = await lockAndRead(tx, 'users', user.id, findUserById);
  if (current === undefined || current.partnerId !== null || locked.length === 0) return { user: current, events: [] };
  const memberships = new Map((await membershipsOfUser(tx, user.id)).map((m) => [m.groupId, m]));
  const events: HistoryEvent[] = [];
  for (const group of locked) {
    const membership = memberships.get(group.id);
    if (wanted.has(group.id) && membership === undefined) events.push(await joinAsMember(tx, group, current, now));
    else if (!wanted.has(group.id) && membership !== undefined) events.push(await leaveGroup(tx, group, membership, current, now));
  }
  return { user: current, events };
}
