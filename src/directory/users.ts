import {
  assertJoiningOpensOnlyOwnDoors, assertListKeepsCaller, assertMayActAs, assertMaySetSiteAdmin, assertMaySetTwoFactorRequirement, assertOpensOnlyOwnDoors, assertPartnerAdminMayActOn,
  assertUpdateChangesPassword, isAdministratorOf, newUserDoorDefaults, type Call,
} from '../access/index.js';
import type { Db } from '../db/database.js';
import { takeTurn } from '../db/serialise.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import { checkNewPassword, checkPasswordDiffers, hashPassword, type ConfirmIdentity } from '../identity/index.js';
import { refusingDuplicates, refusingBrokenReferences } from '../repositories/constraint-errors.js';
import { findGroupById } from '../repositories/groups.js';
import { insertMembership } from '../repositories/memberships.js';
import { countOtherActiveSiteAdmins, DEFAULT_USER_PROFILE, deleteUserRow, insertUser, type NameParts, NO_NAME_PARTS, updateUser, type User, type UserChanges, type UserProfile, usernameTaken } from '../repositories/users.js';
import { endSessionsOfUser } from '../repositories/sessions.js';
import { userCreated, userDeleted, userUpdated } from './directory-history.js';
import { lockedUser } from './locked-rows.js';
import { checkExternalId, checkFilesystemLayout, checkNameParts, checkText, checkUserProfile, checkUsername, PRIVILEGED_PROFILE_FIELDS, type UserProfileInput } from './user-fields.js';
import { applyUserGroups, lockGroupsOfUserChange, NO_GROUP_CHANGE, planUserGroups } from './user-groups.js';
import { getUser } from './user-reads.js';
import { type AuthenticationInput, holdProvider, planAuthenticationChange, planNewUserAuthentication } from './user-authentication.js';
import { checkPartnerUserChange, newUserPartnership } from './partner-user-rules.js';
import { assertPartnerAdminChangesCredentialsOnly, partnerAdminNewUser } from './partner-admin-users.js';
import { assertConvertible, plannedConversion } from './partner-conversion.js';

export interface NewUserInput {
  username: string;
  password?: string;
  name?: string;
  email?: string;
  workspaceId?: number;
  siteAdmin?: boolean;
  workspaceAdmin?: boolean;
  groupIds?: number[];
  /** The identifier an identity provider gave the user (SCIM externalId). */
  externalId?: string | null;
  /** The parts of the name an identity provider sent (SCIM name.givenName, name.familyName). */
  nameParts?: NameParts;
  /** Created disabled (an identity provider provisioning an inactive account). */
  disabled?: boolean;
  /** Files.com's profile and access fields; left out, the defaults (every protocol allowed, nothing else set). */
  profile?: UserProfileInput;
  /** The Partner the user belongs to (partner-user-rules.ts), and whether it is a Partner Admin of it. */
  partnerId?: number | null;
  partnerAdmin?: boolean;
  /** How it signs in (`authentication_method`, `sso_strategy_id`); left out, with a password. */
  authentication?: AuthenticationInput;
}

/**
 * POST /users: an administrator of the context creates a user in it (contract 7); a Partner Admin
 * whose Partner has `allow_user_creation` a user of its Partner (partner-admin-users.ts).
 */
export async function createUser(a: Call, input: NewUserInput): Promise<User> {
  const administers = await isAdministratorOf(a.db, a.caller, a.requestWorkspaceId);
  const { workspaceId, partnerId, partnerAdmin } = administers ? await newUserPartnership(a, input) : await partnerAdminNewUser(a, input);
  checkFilesystemLayout({ workspaceId, partnerId }, input.profile?.filesystemLayout);
  if (input.siteAdmin === true) assertMaySetSiteAdmin(a.caller, workspaceId, true);
  if (input.workspaceAdmin === true && workspaceId === 0) {
    throw errors.modelSaveError({ workspace_admin: ['is only for users of a Custom Workspace'] });
  }
  const username = checkUsername(input.username);
  if (await usernameTaken(a.db, username)) throw usernameTakenError();
  const authentication = await planNewUserAuthentication(a, workspaceId, input.authentication ?? {}, input.password !== undefined);
  if (input.password !== undefined) await checkNewPassword(a.db, input.password);
  const sent = checkUserProfile(input.profile ?? {});
  assertMaySetTwoFactorRequirement(a.caller, sent.require2fa);
  // Delegation is monotone: no door the creator may not use, whether asked for or by default.
  await assertOpensOnlyOwnDoors(a.db, a.caller, sent);
  const profile = { ...(await newUserDoorDefaults(a.db, a.caller)), ...sent };
  const groupIds = [...new Set(input.groupIds ?? [])];
  for (const groupId of groupIds) {
    const group = await findGroupById(a.db, groupId);
    // A new user can only join its own Workspace's groups through this field.
    if (group === undefined || group.workspaceId !== workspaceId) throw errors.groupNotFound();
    await assertJoiningOpensOnlyOwnDoors(a.db, a.caller, group, { id: null, workspaceId, profile: { ...DEFAULT_USER_PROFILE, ...profile } });
  }
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  // Another request creating the same name (in any case) at the same moment: the unique key decides.
  return refusingDuplicates(() => inTransaction(a.db, async (tx) => {
    await holdProvider(tx, authentication);
    const user = await insertUser(tx, {
      workspaceId,
      username,
      passwordHash,
      siteAdmin: input.siteAdmin ?? false,
      workspaceAdmin: input.workspaceAdmin ?? false,
      name: checkText('name', input.name ?? ''),
      email: checkText('email', input.email ?? ''),
      externalId: checkExternalId(input.externalId),
      nameParts: checkNameParts(input.nameParts ?? NO_NAME_PARTS),
      disabled: input.disabled ?? false,
      profile,
      partnerId,
      partnerAdmin,
      ...(authentication === undefined ? {} : { authentication }),
      now: a.now,
    });
    for (const groupId of groupIds) {
      await refusingBrokenReferences(() => insertMembership(tx, { groupId, userId: user.id, admin: false, now: a.now }), errors.groupNotFound);
    }
    await recordHistory(tx, a, [userCreated(user, groupIds)]);
    return user;
  }), usernameTakenError);
}

export interface UserUpdateInput {
  username?: string;
  password?: string;
  name?: string;
  email?: string;
  siteAdmin?: boolean;
  workspaceAdmin?: boolean;
  disabled?: boolean;
  externalId?: string | null;
  /**
   * The parts of the name an identity provider sent. Left out, they stay while the name stays; a
   * new name without parts (from the REST API or the CLI) drops them, since they described the old one.
   */
  nameParts?: NameParts;
  /** The whole list of the user's groups (user-groups.ts). */
  groupIds?: readonly number[];
  /** Files.com's profile and access fields; those that govern access (and the notes) only an administrator sets. */
  profile?: UserProfileInput;
  /** Sent back unchanged by clients that save every attribute; a Partner is set on creation, or by conversion. */
  partnerId?: number | null;
  partnerAdmin?: boolean;
  /** `convert_to_partner_user`: make the user one of `partnerId`'s (partner-conversion.ts). */
  convertToPartnerUser?: boolean;
  /** `authentication_method`, `sso_strategy_id` (user-authentication.ts). */
  authentication?: AuthenticationInput;
}

/**
 * PUT/PATCH /users/<id>. Only fields whose value changes count: clients such as the Files.com
 * SDK send every attribute back on save, and an unchanged `site_admin: false` from a regular
 * user must not be refused as a privileged change.
 */
export async function updateUserFields(a: Call, id: number, input: UserUpdateInput, confirmIdentity: ConfirmIdentity): Promise<User> {
  const target = await getUser(a, id);
  const isAdmin = await isAdministratorOf(a.db, a.caller, target.workspaceId);
  const isSelf = a.caller.user?.id === target.id;
  // Neither: a Partner Admin may reset the credentials of its Partner's users, when its Partner allows.
  const byPartnerAdmin = !isAdmin && !isSelf;
  if (byPartnerAdmin) await assertPartnerAdminMayActOn(a.db, a.caller, a.requestWorkspaceId, 'credential-changes', target);
  assertUpdateChangesPassword(a.caller, target.id, input.password !== undefined);

  const changes: UserChanges = {};
  const authentication = await planAuthenticationChange(a, target, input.authentication ?? {}, input.password !== undefined);
  if (authentication !== undefined) changes.authentication = authentication;
  const privileged: string[] = [];
  if (input.username !== undefined) {
    const username = checkUsername(input.username);
    if (username !== target.username) {
      changes.username = username;
      privileged.push('username');
    }
  }
  if (input.siteAdmin !== undefined && input.siteAdmin !== target.siteAdmin) {
    changes.siteAdmin = input.siteAdmin;
    // Only a Site Administrator makes or unmakes one, whoever else administers the Workspace.
    assertMaySetSiteAdmin(a.caller, target.workspaceId, input.siteAdmin);
  }
  if (input.workspaceAdmin !== undefined && input.workspaceAdmin !== target.workspaceAdmin) {
    if (target.workspaceId === 0) throw errors.modelSaveError({ workspace_admin: ['is only for users of a Custom Workspace'] });
    changes.workspaceAdmin = input.workspaceAdmin;
    privileged.push('workspace_admin');
  }
  const conversion = input.convertToPartnerUser === true ? await plannedConversion(a, target, input.partnerId) : undefined;
  if (conversion !== undefined) changes.partnerId = conversion;
  const partnerAdmin = checkPartnerUserChange(target, input, conversion !== undefined);
  // The layout the user has once this change is made: a user converted here is a Partner user.
  checkFilesystemLayout({ workspaceId: target.workspaceId, partnerId: conversion ?? target.partnerId }, input.profile?.filesystemLayout);
  if (partnerAdmin !== undefined) {
    changes.partnerAdmin = partnerAdmin;
    privileged.push('partner_admin');
  }
  if (input.disabled !== undefined && input.disabled !== target.disabled) {
    changes.disabled = input.disabled;
    privileged.push('disabled');
  }
  if (input.externalId !== undefined && input.externalId !== target.externalId) {
    changes.externalId = checkExternalId(input.externalId);
    privileged.push('externalId');
  }
  if (input.name !== undefined) changes.name = checkText('name', input.name);
  const nameParts = input.nameParts === undefined
    ? (changes.name !== undefined && changes.name !== target.name ? NO_NAME_PARTS : target.nameParts)
    : checkNameParts(input.nameParts);
  if (nameParts.givenName !== target.nameParts.givenName || nameParts.familyName !== target.nameParts.familyName) changes.nameParts = nameParts;
  if (input.email !== undefined) changes.email = checkText('email', input.email);
  const profile = changedProfile(target.profile, checkUserProfile(input.profile ?? {}));
  if (Object.keys(profile).length > 0) changes.profile = profile;
  privileged.push(...privilegedProfileFields(profile));
  assertMaySetTwoFactorRequirement(a.caller, profile.require2fa);
  if (byPartnerAdmin) assertPartnerAdminChangesCredentialsOnly(target, changes, input.groupIds !== undefined && input.groupIds.length > 0);
  else if (!isAdmin && privileged.length > 0) {
    throw errors.insufficientPermissionForParams(`Only an administrator may change ${privileged.join(', ')}.`);
  }
  await assertOpensOnlyOwnDoors(a.db, a.caller, profile);
  // An administrator restricting its own account may not leave out where it is now.
  if (isSelf && profile.allowedIps !== undefined) assertListKeepsCaller(profile.allowedIps, a.origin.ip);
  // The change a required password change waited for: the user set a password of its own. A
  // password an administrator sets for someone else leaves the flag as it is (or as sent with it).
  if (isSelf && input.password !== undefined && changes.profile?.requirePasswordChange === undefined && target.profile.requirePasswordChange) {
    changes.profile = { ...changes.profile, requirePasswordChange: false };
  }
  // As creation answers (contract 7: unique site-wide, without regard to case); the user's own
  // name in another case is a rename, not a clash.
  if (changes.username !== undefined && (await usernameTaken(a.db, changes.username, target.id))) throw usernameTakenError();
  if (input.password !== undefined) {
    // Another user's password signs the caller in as that user, at every door it may use.
    await assertMayActAs(a.db, a.caller, target, 'set the password');
    await checkNewPassword(a.db, input.password);
  }
  const groupChange = input.groupIds === undefined ? NO_GROUP_CHANGE : await planUserGroups(a, target, input.groupIds);
  if (target.siteAdmin && (changes.siteAdmin === false || changes.disabled === true)) await keepOneSiteAdmin(a.db, target.id);

  const needsConfirmation = input.password !== undefined || changes.username !== undefined || changes.siteAdmin !== undefined
    || changes.workspaceAdmin !== undefined || changes.disabled !== undefined || changes.authentication !== undefined;
  if (needsConfirmation) await confirmIdentity('fields');
  // After the confirmation: whether a text is the current password is for its holder to learn only.
  if (input.password !== undefined && isSelf && target.profile.requirePasswordChange) await checkPasswordDiffers(a.db, target.id, input.password);
  if (input.password !== undefined) changes.passwordHash = await hashPassword(input.password);
  // Nothing to change (a client sending the user back as it is): no write at all.
  if (Object.keys(changes).length === 0 && groupChange.joining.length === 0 && groupChange.leaving.length === 0) return target;

  return refusingDuplicates(() => inTransaction(a.db, async (tx) => {
    if (input.groupIds !== undefined) await lockGroupsOfUserChange(tx, target.id, input.groupIds);
    await holdProvider(tx, changes.authentication);
    // The user as it is now, held until the commit: History records what this change changed,
    // not what an identical request just before it already did.
    const before = await lockedUser(tx, target.id);
    // What stands in the way of a conversion, as it is now: a group joined meanwhile counts.
    if (changes.partnerId !== undefined) await assertConvertible(tx, before);
    if (before.siteAdmin && (changes.siteAdmin === false || changes.disabled === true)) await keepOneSiteAdminIn(tx, target.id);
    const updated = await updateUser(tx, target.id, changes, a.now);
    // Moved to a provider, the user has no password left to have signed in with.
    const passwordRemoved = changes.authentication?.method === 'sso';
    if (changes.disabled === true || passwordRemoved) {
      await endSessionsOfUser(tx, target.id, a.now);
    } else if (changes.passwordHash !== undefined) {
      // A password change ends the user's other sessions; the one making the change stays.
      const credential = a.caller.credential;
      const keep = isSelf && credential.kind === 'session' ? credential.sessionId : undefined;
      await endSessionsOfUser(tx, target.id, a.now, keep);
    }
    // Memberships change before anything is recorded: recording is where a dry run measures the change.
    const groupEvents = input.groupIds === undefined ? [] : await applyUserGroups(tx, a, updated, input.groupIds);
    const event = userUpdated(before, updated, changes.passwordHash !== undefined || passwordRemoved);
    const userChanged = (event.targets?.['changed'] as string[] | undefined ?? []).length > 0;
    const events = [...(userChanged ? [event] : []), ...groupEvents];
    if (events.length > 0) await recordHistory(tx, a, events);
    return updated;
  }), usernameTakenError);
}

/**
 * DELETE /users/<id>: its sessions, keys, direct grants and memberships go with it. By an
 * administrator of its Workspace, or a Partner Admin with `allow_user_creation` (one of its
 * Partner's users who is no Partner Admin).
 */
export async function deleteUser(a: Call, id: number, confirmIdentity: ConfirmIdentity): Promise<void> {
  const target = await getUser(a, id);
  if (!(await isAdministratorOf(a.db, a.caller, target.workspaceId))) await assertPartnerAdminMayActOn(a.db, a.caller, a.requestWorkspaceId, 'user-creation', target);
  if (target.siteAdmin) await keepOneSiteAdmin(a.db, target.id);
  await confirmIdentity('action');
  await inTransaction(a.db, async (tx) => {
    const current = await lockedUser(tx, target.id);
    if (current.siteAdmin) await keepOneSiteAdminIn(tx, target.id);
    await deleteUserRow(tx, target.id);
    await recordHistory(tx, a, [userDeleted(current)]);
  });
}

/** The fields of `wanted` whose value differs from the user's: an unchanged value sent back is no change. */
function changedProfile(current: UserProfile, wanted: Partial<UserProfile>): Partial<UserProfile> {
  return Object.fromEntries(Object.entries(wanted).filter(([field, value]) => current[field as keyof UserProfile] !== value)) as Partial<UserProfile>;
}

/**
 * The changed fields only an administrator of the user's Workspace may set: those that govern the
 * user's access, and the notes, which are the administrators' own (docs/workspaces-users-groups.md).
 */
function privilegedProfileFields(changed: Partial<UserProfile>): string[] {
  const names: string[] = Object.keys(changed).flatMap((field) => {
    const name = PRIVILEGED_PROFILE_FIELDS[field as keyof typeof PRIVILEGED_PROFILE_FIELDS] as string | undefined;
    return name === undefined ? [] : [name];
  });
  return changed.notes === undefined ? names : [...names, 'notes'];
}

function usernameTakenError(): Error {
  return errors.modelSaveError({ username: ['has already been taken'] });
}

/** The site must keep an active Site Administrator: the last one cannot be demoted, disabled or deleted. */
async function keepOneSiteAdmin(db: Db, userId: number): Promise<void> {
  if ((await countOtherActiveSiteAdmins(db, userId)) === 0) {
    throw errors.modelSaveError({ site_admin: ['the last active Site Administrator cannot be removed, disabled or demoted'] });
  }
}

/**
 * keepOneSiteAdmin again, inside the change's transaction, with every other transaction that
 * removes a Site Administrator waiting: two of them at once must not each count the other as the
 * one who stays.
 */
async function keepOneSiteAdminIn(tx: Db, userId: number): Promise<void> {
  await takeTurn(tx, 'site-administrators');
  await keepOneSiteAdmin(tx, userId);
}
