import { partnerForNewUserBy, type Call } from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import { DEFAULT_USER_PROFILE, type User, type UserChanges, type UserProfile } from '../repositories/users.js';
import type { PartnerMembershipInput } from './partner-user-rules.js';
import type { UserProfileInput } from './user-fields.js';

// What a Partner Admin may set on the users it manages (docs/partners.md, "Partner Admins"). Who it
// manages and under which flag is access/partner-admin-authority.ts; here are the fields. A
// Partner Admin hands on no authority: on a new user it sets identity and profile fields, the
// password and the protocol flags (which, as for anyone, open no door it may not use itself); on
// an existing one only the credentials. Every other field, sent with a value that would change
// something, is refused by name.

/** The fields of a new user a Partner Admin may not set to anything but their default. */
export interface PartnerAdminNewUserInput extends PartnerMembershipInput {
  externalId?: string | null;
  profile?: UserProfileInput;
}

/**
 * The Workspace and Partner of a user a Partner Admin creates (under `allow_user_creation`): its
 * own Partner, named or left out, in the Partner's Workspace, no Partner Admin, in no group, with
 * nothing but identity fields, a password and protocol flags.
 */
export async function partnerAdminNewUser(a: Call, input: PartnerAdminNewUserInput): Promise<{ workspaceId: number; partnerId: number; partnerAdmin: false }> {
  const partner = await partnerForNewUserBy(a.db, a.caller, a.requestWorkspaceId);
  // Another Partner is one it cannot see: answered as an unknown one.
  if (input.partnerId !== undefined && input.partnerId !== null && input.partnerId !== partner.id) throw errors.partnerNotFound();
  if (input.workspaceId !== undefined && input.workspaceId !== partner.workspaceId) {
    throw errors.modelSaveError({ workspace_id: [`must be the Partner's Workspace (${partner.workspaceId}): a Partner user belongs to it`] });
  }
  const profile = input.profile ?? {};
  const refused = [
    ...(input.siteAdmin === true ? ['site_admin'] : []),
    ...(input.workspaceAdmin === true ? ['workspace_admin'] : []),
    ...(input.partnerAdmin === true ? ['partner_admin'] : []),
    ...((input.groupIds ?? []).length > 0 ? ['group_ids'] : []),
    ...(input.externalId !== undefined && input.externalId !== null && input.externalId !== '' ? ['external_id'] : []),
    ...(notEmpty(profile.notes) ? ['notes'] : []),
    ...(notEmpty(profile.allowedIps) ? ['allowed_ips'] : []),
    ...(notEmpty(profile.userRoot) ? ['user_root'] : []),
    ...(notEmpty(profile.authenticateUntil) ? ['authenticate_until'] : []),
    ...(profile.sslRequired !== undefined && profile.sslRequired !== DEFAULT_USER_PROFILE.sslRequired ? ['ssl_required'] : []),
    ...(profile.require2fa !== undefined && profile.require2fa !== DEFAULT_USER_PROFILE.require2fa ? ['require_2fa'] : []),
  ];
  if (refused.length > 0) throw beyondPartnerAdmin(refused, 'on a user it creates');
  return { workspaceId: partner.workspaceId, partnerId: partner.id, partnerAdmin: false };
}

/** The API's name of each changeable field: what a refusal names. */
const CHANGE_NAMES: Readonly<Record<Exclude<keyof UserChanges, 'profile'>, string>> = {
  username: 'username', name: 'name', email: 'email', passwordHash: 'password', siteAdmin: 'site_admin', workspaceAdmin: 'workspace_admin',
  disabled: 'disabled', externalId: 'external_id', nameParts: 'name', partnerAdmin: 'partner_admin', partnerId: 'partner_id', authentication: 'authentication_method',
};
const PROFILE_NAMES: Readonly<Record<keyof UserProfile, string>> = {
  timeZone: 'time_zone', language: 'language', company: 'company', notes: 'notes', allowedIps: 'allowed_ips', userRoot: 'user_root',
  authenticateUntil: 'authenticate_until', requirePasswordChange: 'require_password_change', sslRequired: 'ssl_required', require2fa: 'require_2fa',
  sftpPermission: 'sftp_permission', davPermission: 'dav_permission', ftpPermission: 'ftp_permission', restapiPermission: 'restapi_permission',
};

/**
 * A change a Partner Admin makes to another user (under `allow_credential_changes`): the password
 * and `require_password_change` only. Anything else that would change is refused, naming it; a
 * value sent back unchanged (as SDKs save) is no change.
 */
export function assertPartnerAdminChangesCredentialsOnly(target: User, changes: UserChanges, changesGroups: boolean): void {
  const names = new Set<string>();
  for (const field of Object.keys(changes) as (keyof UserChanges)[]) {
    if (field === 'profile' || field === 'passwordHash' || unchanged(target, changes, field)) continue;
    names.add(CHANGE_NAMES[field]);
  }
  for (const field of Object.keys(changes.profile ?? {}) as (keyof UserProfile)[]) {
    if (field !== 'requirePasswordChange') names.add(PROFILE_NAMES[field]);
  }
  if (changesGroups) names.add('group_ids');
  if (names.size > 0) throw beyondPartnerAdmin([...names], 'on another user: only its password and require_password_change');
}

/** The name and the email are in `changes` whenever sent: the same value is no change. */
function unchanged(target: User, changes: UserChanges, field: keyof UserChanges): boolean {
  if (field === 'name' || field === 'email') return changes[field] === target[field];
  if (field === 'nameParts') return changes.nameParts?.givenName === target.nameParts.givenName && changes.nameParts?.familyName === target.nameParts.familyName;
  return false;
}

function notEmpty(value: string | null | undefined): boolean {
  return value !== undefined && value !== null && value.trim() !== '';
}

function beyondPartnerAdmin(fields: readonly string[], where: string): Error {
  return errors.insufficientPermissionForParams(`A Partner Admin may not set ${fields.join(', ')} ${where}.`);
}
