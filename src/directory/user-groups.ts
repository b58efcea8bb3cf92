import { findVisibleGroup, isAdministratorOf, type Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import type { HistoryEvent } from '../history/index.js';
import { findGroupById, type Group } from '../repositories/groups.js';
import { deleteMembership, membershipsOfUser, type GroupMember } from '../repositories/memberships.js';
import type { User } from '../repositories/users.js';
import { groupEvent } from './directory-history.js';
import { joinGroup } from './group-member-rules.js';
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
  return { joining, leaving };
}

/**
 * Makes a planned change inside the update's transaction; the History records of the groups it
 * changed. Each group is locked first (locked-rows.ts, in id order so two such changes never wait
 * on each other in a circle) and the user's memberships read again: a membership another request
 * made or removed meanwhile is left as it now is, as the request that came first decided.
 */
export async function applyUserGroups(tx: Db, a: Call, user: User, change: UserGroupChange): Promise<HistoryEvent[]> {
  const touched = [...change.joining, ...change.leaving.map((l) => l.group)].map((group) => group.id).sort((x, y) => x - y);
  const locked = new Map<number, Group>();
  for (const groupId of touched) {
    const group = await lockGroup(tx, groupId);
    if (group !== undefined) locked.set(groupId, group);
  }
  const now = await membershipsOfUser(tx, user.id);
  const events: HistoryEvent[] = [];
  for (const planned of change.joining) {
    const group = locked.get(planned.id);
    if (group === undefined) throw errors.groupNotFound();
    if (now.some((m) => m.groupId === group.id)) continue;
    await joinGroup(tx, { groupId: group.id, userId: user.id, admin: false, now: a.now });
    events.push(groupEvent('group_update', group, { members: { added: [{ userId: user.id, admin: false }], removed: [], adminChanged: [] } }));
  }
  for (const { group: planned } of change.leaving) {
    const group = locked.get(planned.id);
    const membership = now.find((m) => m.groupId === planned.id);
    if (group === undefined || membership === undefined) continue;
    await deleteMembership(tx, membership.membershipId, a.now);
    events.push(groupEvent('group_update', group, { members: { added: [], removed: [{ userId: user.id, username: user.username }], adminChanged: [] } }));
  }
  return events;
}
