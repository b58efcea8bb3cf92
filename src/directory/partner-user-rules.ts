import { findVisiblePartner, membershipWorkspace, type Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import type { HistoryEvent } from '../history/index.js';
import { deleteUserRow, usersOfPartners, type User } from '../repositories/users.js';
import { userDeleted } from './directory-history.js';
import { lockedUser } from './locked-rows.js';

// What a Partner user is (docs/partners.md): a user of its Partner's Workspace, in no group, with
// no site or Workspace administration; its only authority will be its Partner's grants (and, for
// a Partner Admin, its Partner's flags). A user's Partner is set when it is created, or when an
// administrator converts it (partner-conversion.ts).

const NO_ADMINISTRATION = 'is not for a Partner user: it holds no site or Workspace administration';
const NO_GROUPS = 'may not be given to a Partner user: it belongs to no group';
const IN_NO_GROUP = 'is a Partner user, who belongs to no group';

export interface PartnerMembershipInput {
  partnerId?: number | null;
  partnerAdmin?: boolean;
  workspaceId?: number;
  siteAdmin?: boolean;
  workspaceAdmin?: boolean;
  groupIds?: readonly number[];
}

/**
 * The Workspace and Partner of a new user: with `partner_id`, the Partner must be one the caller
 * administers in this context, and the user is of its Workspace, in no group, no administrator.
 * Without, `partner_admin` means nothing and is refused.
 */
export async function newUserPartnership(a: Call, input: PartnerMembershipInput): Promise<{ workspaceId: number; partnerId: number | null; partnerAdmin: boolean }> {
  if (input.partnerId === undefined || input.partnerId === null) {
    if (input.partnerAdmin === true) throw errors.modelSaveError({ partner_admin: ['is only for users of a Partner: send partner_id too'] });
    return { workspaceId: await membershipWorkspace(a.db, a.caller, a.requestWorkspaceId, input.workspaceId), partnerId: null, partnerAdmin: false };
  }
  const partner = await findVisiblePartner(a.db, a.caller, a.requestWorkspaceId, input.partnerId);
  if (input.workspaceId !== undefined && input.workspaceId !== partner.workspaceId) {
    throw errors.modelSaveError({ workspace_id: [`must be the Partner's Workspace (${partner.workspaceId}): a Partner user belongs to it`] });
  }
  const workspaceId = await membershipWorkspace(a.db, a.caller, a.requestWorkspaceId, partner.workspaceId);
  if (input.siteAdmin === true) throw errors.modelSaveError({ site_admin: [NO_ADMINISTRATION] });
  if (input.workspaceAdmin === true) throw errors.modelSaveError({ workspace_admin: [NO_ADMINISTRATION] });
  if ((input.groupIds ?? []).length > 0) throw errors.modelSaveError({ group_ids: [NO_GROUPS] });
  return { workspaceId, partnerId: partner.id, partnerAdmin: input.partnerAdmin ?? false };
}

/**
 * A change of a user as it concerns its Partner: its Partner stays (an unchanged `partner_id`
 * sent back is no change) unless the change converts it (`converting`: checked by
 * partner-conversion.ts), `partner_admin` is only for Partner users, and a Partner user is given
 * no administration and no group. Answers the new Partner Admin flag when it changes.
 */
export function checkPartnerUserChange(target: User, input: PartnerMembershipInput, converting = false): boolean | undefined {
  if (!converting && input.partnerId !== undefined && input.partnerId !== target.partnerId) {
    throw errors.modelSaveError({ partner_id: ['is changed only by converting the user: send convert_to_partner_user: true with it'] });
  }
  const partnerAdmin = input.partnerAdmin !== undefined && input.partnerAdmin !== target.partnerAdmin ? input.partnerAdmin : undefined;
  if (target.partnerId === null && !converting) {
    if (partnerAdmin === true) throw errors.modelSaveError({ partner_admin: ['is only for users of a Partner'] });
    return undefined;
  }
  if (input.siteAdmin === true && !target.siteAdmin) throw errors.modelSaveError({ site_admin: [NO_ADMINISTRATION] });
  if (input.workspaceAdmin === true && !target.workspaceAdmin) throw errors.modelSaveError({ workspace_admin: [NO_ADMINISTRATION] });
  if ((input.groupIds ?? []).length > 0) throw errors.modelSaveError({ group_ids: [NO_GROUPS] });
  return partnerAdmin;
}

/** A Partner user joins no group, by any way a group gains members. */
export function assertMayJoinAGroup(user: User): void {
  if (user.partnerId !== null) throw errors.modelSaveError({ user_id: [IN_NO_GROUP] });
}

/**
 * Deletes a Partner's users, in the transaction deleting the Partner: each goes as any deleted
 * user does (its sessions, keys, SSH keys go with its row), and each deletion is recorded.
 */
export async function deletePartnerUsers(tx: Db, partnerId: number): Promise<HistoryEvent[]> {
  const events: HistoryEvent[] = [];
  for (const member of await usersOfPartners(tx, [partnerId])) {
    const user = await lockedUser(tx, member.id);
    await deleteUserRow(tx, user.id);
    events.push(userDeleted(user));
  }
  return events;
}
