import { accountReach, assertJoiningOpensOnlyOwnDoors, type Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { refusingBrokenReferences } from '../repositories/constraint-errors.js';
import { type Group } from '../repositories/groups.js';
import { insertMembership } from '../repositories/memberships.js';
import { findUserById } from '../repositories/users.js';
import { assertMayJoinAGroup } from './partner-user-rules.js';

/**
 * Whether `userId` may join `group` at the hands of the caller (contract 7): members belong to the
 * group's Workspace or to Workspace 0. Putting a Workspace 0 account into a Custom Workspace's
 * group is a cross-Workspace assignment, which only a Site Administrator makes at the site level
 * (product document, "Who may do what"); for anyone else such a user is out of reach and answered
 * as not found, and a Site Administrator's credential confined to a Custom Workspace is told it
 * needs the site level. An administrator may not open, through the group's protocol flags, a
 * door closed to itself (access/door-delegation.ts); a Group Admin hands on what the group has
 * (rule 8).
 */
export async function checkMayJoin(a: Call, group: Group, userId: number, as: 'administrator' | 'group-admin'): Promise<void> {
  const user = await findUserById(a.db, userId);
  if (user === undefined) throw errors.userNotFound();
  switch (accountReach(a.caller, user.workspaceId, group.workspaceId)) {
    case 'yes': break;
    case 'hidden': throw errors.userNotFound();
    case 'site-level': throw errors.siteAdminRequired();
    case 'other-workspace': throw errors.modelSaveError({ user_id: ["must belong to the group's Workspace or to Workspace 0"] });
  }
  assertMayJoinAGroup(user);
  if (as === 'administrator') await assertJoiningOpensOnlyOwnDoors(a.db, a.caller, group, user);
}

/**
 * Makes a membership checked by checkMayJoin, in the change's transaction (with the group locked:
 * locked-rows.ts). The user may have been deleted since the check: `user-not-found`, as for a
 * request that came after the deletion.
 */
export function joinGroup(tx: Db, membership: { groupId: number; userId: number; admin: boolean; now: number }): Promise<number> {
  return refusingBrokenReferences(() => insertMembership(tx, membership), errors.userNotFound);
}
