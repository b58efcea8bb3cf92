import type { Db } from '../db/database.js';
import { cachedRead } from '../db/read-cache.js';
import { errors } from '../errors/catalogue.js';
import { findPartnerById, type Partner } from '../repositories/partners.js';
import { usersOfPartners, type User } from '../repositories/users.js';
import type { Caller } from './caller.js';

// What a Partner Admin may do (docs/partners.md, "Partner Admins"). It manages its own Partner's
// users, and only as far as the Partner's flags allow: `allow_user_creation` creates and deletes
// them, `allow_credential_changes` resets their passwords, API keys and SSH keys. With neither, it
// is an ordinary Partner user. It acts only on the Partner's users who are not Partner Admins
// themselves (so that one Partner Admin cannot take over another's account), only in its
// Partner's Workspace, and never grants, creates groups or raises anyone's authority: everything
// it may set on a user is an identity field or a credential (directory/partner-admin-users.ts).

/** What a Partner Admin does to another user, each under one flag of its Partner. */
export type PartnerAdminPower = 'user-creation' | 'credential-changes';

export interface PartnerAdministration {
  partner: Partner;
  /** `allow_user_creation`: creates and deletes the Partner's users. */
  createsUsers: boolean;
  /** `allow_credential_changes`: resets the Partner's users' passwords, API keys and SSH keys. */
  changesCredentials: boolean;
}

/** The caller's Partner and its flags when its user is a Partner Admin; null for anyone else. */
export async function partnerAdministrationOf(db: Db, caller: Caller): Promise<PartnerAdministration | null> {
  const user = caller.user;
  if (user === null || !user.partnerAdmin || user.partnerId === null) return null;
  const partner = await findPartnerById(db, user.partnerId);
  if (partner === undefined) return null;
  return { partner, createsUsers: partner.settings.allowUserCreation, changesCredentials: partner.settings.allowCredentialChanges };
}

function holds(administration: PartnerAdministration, power: PartnerAdminPower): boolean {
  return power === 'user-creation' ? administration.createsUsers : administration.changesCredentials;
}

/**
 * The Partner the caller administers with at least one of the flags, when it works in that
 * Partner's Workspace; null otherwise (no flag: an ordinary Partner user, who manages nobody).
 */
async function managingPartner(db: Db, caller: Caller, requestWorkspaceId: number): Promise<PartnerAdministration | null> {
  const administration = await partnerAdministrationOf(db, caller);
  if (administration === null || administration.partner.workspaceId !== requestWorkspaceId) return null;
  return administration.createsUsers || administration.changesCredentials ? administration : null;
}

/**
 * The users a Partner Admin sees besides itself: every user of its Partner, while a flag lets it
 * manage them (and in the Partner's Workspace). Nobody for anyone else.
 */
export async function partnerUsersVisibleTo(db: Db, caller: Caller, requestWorkspaceId: number): Promise<readonly number[]> {
  const administration = await managingPartner(db, caller, requestWorkspaceId);
  if (administration === null) return [];
  return (await partnerMembers(db, administration.partner.id)).map((member) => member.id);
}

/** The users whose credentials (API and SSH keys) the caller manages as a Partner Admin: its Partner's users who are not Partner Admins. */
export async function partnerUsersWithManagedCredentials(db: Db, caller: Caller, requestWorkspaceId: number): Promise<readonly number[]> {
  const administration = await managingPartner(db, caller, requestWorkspaceId);
  if (administration === null || !administration.changesCredentials) return [];
  return (await partnerMembers(db, administration.partner.id)).filter((member) => !member.partnerAdmin).map((member) => member.id);
}

/**
 * Whether the caller, as a Partner Admin, may use `power` on `target`: `yes`; `hidden` when it is
 * not one of the Partner's users the caller sees (answered as an unknown user); `refused` when it
 * sees the user but the Partner's flags do not allow this, or the user is a Partner Admin.
 */
export async function partnerAdminReach(db: Db, caller: Caller, requestWorkspaceId: number, power: PartnerAdminPower, target: Pick<User, 'id' | 'partnerId' | 'partnerAdmin'>): Promise<'yes' | 'hidden' | 'refused'> {
  const administration = await managingPartner(db, caller, requestWorkspaceId);
  if (administration === null || target.partnerId !== administration.partner.id) return 'hidden';
  if (!holds(administration, power) || target.partnerAdmin) return 'refused';
  return 'yes';
}

/**
 * That the caller, being no administrator of the user's Workspace, may use `power` on `target` as
 * a Partner Admin; else `user-not-found` for a user it does not see, and otherwise
 * `not-authorized/site-admin-or-workspace-admin-or-partner-admin-permission-required` (a user who
 * is no Partner Admin at all gets the administrators' refusal it always got).
 */
export async function assertPartnerAdminMayActOn(db: Db, caller: Caller, requestWorkspaceId: number, power: PartnerAdminPower, target: User): Promise<void> {
  if ((await partnerAdministrationOf(db, caller)) === null) throw errors.workspaceAdminRequired();
  const reach = await partnerAdminReach(db, caller, requestWorkspaceId, power, target);
  if (reach === 'hidden') throw errors.userNotFound();
  if (reach === 'refused') throw partnerAdminRefusal(power, target.partnerAdmin);
}

/**
 * The Partner a caller who is no administrator of the context creates a user in, as its Partner
 * Admin with `allow_user_creation`; else the refusal: the administrators' for anyone who is no
 * Partner Admin, the Partner Admins' one for a Partner Admin whose Partner does not allow it.
 */
export async function partnerForNewUserBy(db: Db, caller: Caller, requestWorkspaceId: number): Promise<Partner> {
  const administration = await partnerAdministrationOf(db, caller);
  if (administration === null || administration.partner.workspaceId !== requestWorkspaceId) throw errors.workspaceAdminRequired();
  if (!administration.createsUsers) throw partnerAdminRefusal('user-creation', false);
  return administration.partner;
}

function partnerAdminRefusal(power: PartnerAdminPower, onPartnerAdmin: boolean): Error {
  if (onPartnerAdmin) {
    return errors.partnerAdminPermissionRequired('A Partner Admin manages only the users of its Partner who are not Partner Admins; an administrator of the Workspace manages those.');
  }
  const flag = power === 'user-creation' ? 'allow_user_creation' : 'allow_credential_changes';
  return errors.partnerAdminPermissionRequired(`Only an administrator of this Workspace may do this, or a Partner Admin whose Partner has ${flag}.`);
}

/** A Partner's users, read through the read cache: a Partner Admin's requests ask for them often. */
function partnerMembers(db: Db, partnerId: number): Promise<readonly { id: number; partnerAdmin: boolean }[]> {
  return cachedRead(db, 'partner-members', String(partnerId), async () => Object.freeze(await usersOfPartners(db, [partnerId])));
}
