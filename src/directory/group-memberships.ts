import { findVisibleGroup, groupVisibility, isAdministratorOf, type Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import { type Group } from '../repositories/groups.js';
import { deleteMembership, findMembership, type GroupMember, listMemberships, membersOfGroups, setMembershipAdmin } from '../repositories/memberships.js';
import { groupEvent } from './directory-history.js';
import { checkMayJoin, joinGroup } from './group-member-rules.js';
import { lockedGroup, lockGroup } from './locked-rows.js';

export async function listGroupMemberships(
  a: Call,
  filter: { groupId?: number; userId?: number },
  page: { afterId: number; limit: number },
): Promise<GroupMember[]> {
  const visibility = await groupVisibility(a.db, a.caller, a.requestWorkspaceId);
  return listMemberships(a.db, visibility.scope, visibility, filter, page);
}

/**
 * POST /group_users. An administrator of the group's Workspace may add anyone who may join; a
 * Group Admin may add members but not make admins. Through this a new member receives every grant
 * the group holds, Workspace Administrator authority included (product document, rule 8).
 */
export async function addGroupMember(a: Call, input: { groupId: number; userId: number; admin: boolean }): Promise<GroupMember> {
  const group = await findVisibleGroup(a.db, a.caller, a.requestWorkspaceId, input.groupId);
  const authority = await authorityOver(a, group);
  if (authority === 'none') throw errors.groupAdminRequired();
  if (authority === 'group-admin' && input.admin) {
    throw errors.insufficientPermissionForParams('A Group Admin may add members but not make them Group Admins.');
  }
  await checkMayJoin(a, group, input.userId, authority);
  const id = await inTransaction(a.db, async (tx) => {
    // Decided on the members as they are now, with the group locked: of two requests adding the
    // same member at once, the second finds the first's membership.
    const current = await lockedGroup(tx, group.id);
    const existing = await membersOfGroups(tx, [group.id]);
    if (existing.some((m) => m.userId === input.userId)) throw errors.modelSaveError({ user_id: ['is already a member of this group'] });
    const inserted = await joinGroup(tx, { groupId: group.id, userId: input.userId, admin: input.admin, now: a.now });
    await recordHistory(tx, a, [groupEvent('group_update', current, { members: { added: [{ userId: input.userId, admin: input.admin }], removed: [], adminChanged: [] } })]);
    return inserted;
  });
  return (await findMembership(a.db, id)) as GroupMember;
}

/**
 * PUT/PATCH /group_users/<id>: only administrators of the Workspace change the admin flag. The
 * SDK always sends the membership's `group_id` and `user_id` too: the same ones are accepted, other
 * ones refused, since a membership is never moved to another group or user (remove and add).
 */
export async function updateGroupMember(a: Call, id: number, input: { admin?: boolean; groupId?: number; userId?: number }): Promise<GroupMember> {
  const { membership, group } = await findVisibleMembership(a, id);
  if ((await authorityOver(a, group)) !== 'administrator') throw errors.workspaceAdminRequired();
  const moved = {
    ...(input.groupId !== undefined && input.groupId !== membership.groupId ? { group_id: ['cannot be changed: remove the membership and add another'] } : {}),
    ...(input.userId !== undefined && input.userId !== membership.userId ? { user_id: ['cannot be changed: remove the membership and add another'] } : {}),
  };
  if (Object.keys(moved).length > 0) throw errors.paramsInvalid(moved);
  const admin = input.admin;
  if (admin !== undefined && admin !== membership.admin) {
    await inTransaction(a.db, async (tx) => {
      const { current, now } = await lockedMembership(tx, group.id, membership.membershipId);
      // An identical request just before this one made the change (and its record) already.
      if (now.admin === admin) return;
      await setMembershipAdmin(tx, now.membershipId, admin, a.now);
      const adminChanged = [{ userId: now.userId, username: now.username, admin }];
      await recordHistory(tx, a, [groupEvent('group_update', current, { members: { added: [], removed: [], adminChanged } })]);
    });
  }
  const after = await findMembership(a.db, membership.membershipId);
  if (after === undefined) throw errors.membershipNotFound();
  return after;
}

/**
 * DELETE /group_users/<id>. Removing a member ends the access it had through the group at once.
 * A Group Admin may remove ordinary members and itself, not other Group Admins.
 */
export async function removeGroupMember(a: Call, id: number): Promise<void> {
  const { membership, group } = await findVisibleMembership(a, id);
  const authority = await authorityOver(a, group);
  if (authority === 'none') throw errors.groupAdminRequired();
  const mayRemove = (m: GroupMember) => authority !== 'group-admin' || !m.admin || a.caller.user?.id === m.userId;
  if (!mayRemove(membership)) throw otherGroupAdmin();
  await inTransaction(a.db, async (tx) => {
    const { current, now } = await lockedMembership(tx, group.id, membership.membershipId);
    if (!mayRemove(now)) throw otherGroupAdmin();
    await deleteMembership(tx, now.membershipId, a.now);
    const removed = [{ userId: now.userId, username: now.username }];
    await recordHistory(tx, a, [groupEvent('group_update', current, { members: { added: [], removed, adminChanged: [] } })]);
  });
}

/**
 * Adds and removes several members of one group at once, all or nothing (a SCIM PATCH or PUT of a
 * group's members): every change is checked first, with the same authority as one
 * `addGroupMember` or `removeGroupMember` each (a Group Admin may do this too), then all are made in
 * one transaction. Added members are ordinary members; users already in (or not in) the group are
 * skipped.
 */
export async function changeGroupMembers(a: Call, groupId: number, change: { add: readonly number[]; remove: readonly number[] }): Promise<void> {
  const group = await findVisibleGroup(a.db, a.caller, a.requestWorkspaceId, groupId);
  const authority = await authorityOver(a, group);
  if (authority === 'none') throw errors.groupAdminRequired();
  const plan = (existing: readonly GroupMember[]) => {
    const leaving = existing.filter((m) => change.remove.includes(m.userId));
    if (authority === 'group-admin' && leaving.some((m) => m.admin && m.userId !== a.caller.user?.id)) throw otherGroupAdmin();
    const joining = [...new Set(change.add)].filter((userId) => !existing.some((m) => m.userId === userId));
    return { leaving, joining };
  };
  // Nothing to change (a provider sending members the group already has): no write at all.
  const first = plan(await membersOfGroups(a.db, [group.id]));
  if (first.leaving.length === 0 && first.joining.length === 0) return;
  await inTransaction(a.db, async (tx) => {
    // Planned again on the members as they are now, with the group locked: changes of one group's
    // members at once happen one after another, each on what the one before it left.
    const current = await lockedGroup(tx, group.id);
    const { leaving, joining } = plan(await membersOfGroups(tx, [group.id]));
    for (const userId of joining) await checkMayJoin({ ...a, db: tx }, current, userId, authority);
    if (leaving.length === 0 && joining.length === 0) return;
    for (const member of leaving) await deleteMembership(tx, member.membershipId, a.now);
    for (const userId of joining) await joinGroup(tx, { groupId: group.id, userId, admin: false, now: a.now });
    const members = { added: joining.map((userId) => ({ userId, admin: false })), removed: leaving, adminChanged: [] };
    await recordHistory(tx, a, [groupEvent('group_update', current, { members })]);
  });
}

/**
 * The group, locked (locked-rows.ts), and the membership as it is now; `group-user-not-found` when
 * another request removed it (or deleted the group) meanwhile.
 */
async function lockedMembership(tx: Db, groupId: number, membershipId: number): Promise<{ current: Group; now: GroupMember }> {
  const current = await lockGroup(tx, groupId);
  const now = current === undefined ? undefined : await findMembership(tx, membershipId);
  if (current === undefined || now === undefined) throw errors.membershipNotFound();
  return { current, now };
}

function otherGroupAdmin(): Error {
  return errors.insufficientPermissionForParams('A Group Admin may not remove another Group Admin.');
}

async function findVisibleMembership(a: Call, id: number): Promise<{ membership: GroupMember; group: Group }> {
  const membership = await findMembership(a.db, id);
  if (membership === undefined) throw errors.membershipNotFound();
  try {
    return { membership, group: await findVisibleGroup(a.db, a.caller, a.requestWorkspaceId, membership.groupId) };
  } catch {
    throw errors.membershipNotFound();
  }
}

async function authorityOver(a: Call, group: Group): Promise<'administrator' | 'group-admin' | 'none'> {
  if (await isAdministratorOf(a.db, a.caller, group.workspaceId)) return 'administrator';
  const self = a.caller.user;
  if (self === null) return 'none';
  const members = await membersOfGroups(a.db, [group.id]);
  return members.some((m) => m.userId === self.id && m.admin) ? 'group-admin' : 'none';
}
