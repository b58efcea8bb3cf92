import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { UsersTable } from '../db/tables.js';

export interface User {
  id: number;
  workspaceId: number;
  username: string;
  name: string;
  email: string;
  siteAdmin: boolean;
  workspaceAdmin: boolean;
  disabled: boolean;
  createdAt: number;
  lastLoginAt: number | null;
  passwordSetAt: number | null;
  externalId: string | null;
  /** The last change of the user's details or group memberships; its creation until then. */
  updatedAt: number;
  /** The parts of `name` an identity provider sent, as sent; null when none was. */
  nameParts: NameParts;
  /** The Files.com profile and access fields (docs/workspaces-users-groups.md). */
  profile: UserProfile;
  /** When the user was last active, by door (identity/user-activity.ts). */
  activity: UserActivity;
  /** The Partner the user belongs to (docs/partners.md), null for none; a Partner Admin of it when `partnerAdmin`. */
  partnerId: number | null;
  partnerAdmin: boolean;
  /** How the user signs in (docs/authentication.md). */
  authentication: UserAuthentication;
}

/** Files.com's `require_2fa` values: the user follows the site's 2FA policy, or overrides it. */
export const REQUIRE_2FA_VALUES = ['use_system_setting', 'always_require', 'never_require'] as const;
export type Require2fa = typeof REQUIRE_2FA_VALUES[number];

/** Files.com's `authentication_method` values that Atrium has: a password, or an identity provider. */
export const AUTHENTICATION_METHODS = ['password', 'sso'] as const;
export type AuthenticationMethod = typeof AUTHENTICATION_METHODS[number];

export interface UserAuthentication {
  /** `sso`: signs in at its identity provider (`ssoStrategyId`) and has no password. */
  method: AuthenticationMethod;
  ssoStrategyId: number | null;
}

/** Activity times, epoch milliseconds, null until it first happens; each kept to a minute. */
export interface UserActivity {
  firstLoginAt: number | null;
  /** Any of the others, the latest. */
  lastActiveAt: number | null;
  /** A REST API request with any credential of the user. */
  lastApiUseAt: number | null;
  /** A sign-in at the web console. */
  lastWebLoginAt: number | null;
  /** A sign-in with POST /sessions from anything but the console. */
  lastRestapiLoginAt: number | null;
  lastSftpLoginAt: number | null;
  lastDavLoginAt: number | null;
}

/** Files.com's `ssl_required` values. */
export const SSL_REQUIRED_VALUES = ['use_system_setting', 'always_require', 'never_require'] as const;
export type SslRequired = typeof SSL_REQUIRED_VALUES[number];

export interface UserProfile {
  timeZone: string | null;
  language: string | null;
  company: string;
  /** Shown only to administrators of the user's Workspace. */
  notes: string;
  /** Canonical newline-separated addresses and CIDR ranges; empty is any address. */
  allowedIps: string;
  userRoot: string;
  /** Epoch milliseconds; from then on the user cannot sign in or use a key. */
  authenticateUntil: number | null;
  requirePasswordChange: boolean;
  sslRequired: SslRequired;
  /** Files.com's override of the site's 2FA policy for this user (identity/two-factor-policy.ts). */
  require2fa: Require2fa;
  sftpPermission: boolean;
  davPermission: boolean;
  ftpPermission: boolean;
  restapiPermission: boolean;
}

/** A new user's profile where nothing was sent: every protocol allowed, nothing else set. */
export const DEFAULT_USER_PROFILE: UserProfile = Object.freeze({
  timeZone: null, language: null, company: '', notes: '', allowedIps: '', userRoot: '', authenticateUntil: null,
  requirePasswordChange: false, sslRequired: 'use_system_setting', require2fa: 'use_system_setting', sftpPermission: true, davPermission: true, ftpPermission: true, restapiPermission: true,
});

/** Each profile field's column. */
const PROFILE_COLUMNS = {
  timeZone: 'time_zone', language: 'language', company: 'company', notes: 'notes', allowedIps: 'allowed_ips', userRoot: 'user_root',
  authenticateUntil: 'authenticate_until', requirePasswordChange: 'require_password_change', sslRequired: 'ssl_required', require2fa: 'require_2fa',
  sftpPermission: 'sftp_permission', davPermission: 'dav_permission', ftpPermission: 'ftp_permission', restapiPermission: 'restapi_permission',
} as const satisfies Record<keyof UserProfile, keyof UsersTable>;

function profileColumns(profile: Partial<UserProfile>): Record<string, unknown> {
  const columns = Object.fromEntries(Object.entries(profile).filter(([, v]) => v !== undefined).map(([k, v]) => [PROFILE_COLUMNS[k as keyof UserProfile], v]));
  // The company's search key goes with it, as the name's and the email's do.
  return profile.company === undefined ? columns : { ...columns, company_key: userTextKey(profile.company) };
}

function toProfile(row: UserRow): UserProfile {
  return {
    timeZone: row.time_zone ?? null,
    language: row.language ?? null,
    company: row.company ?? '',
    notes: row.notes ?? '',
    allowedIps: row.allowed_ips ?? '',
    userRoot: row.user_root ?? '',
    authenticateUntil: row.authenticate_until == null ? null : Number(row.authenticate_until),
    requirePasswordChange: Boolean(row.require_password_change),
    sslRequired: (row.ssl_required ?? 'use_system_setting') as SslRequired,
    require2fa: (REQUIRE_2FA_VALUES as readonly string[]).includes(row.require_2fa) ? row.require_2fa as Require2fa : 'use_system_setting',
    sftpPermission: Boolean(row.sftp_permission ?? true),
    davPermission: Boolean(row.dav_permission ?? true),
    ftpPermission: Boolean(row.ftp_permission ?? true),
    restapiPermission: Boolean(row.restapi_permission ?? true),
  };
}

/** SCIM's `name.givenName` and `name.familyName`: kept as an identity provider sent them. */
export interface NameParts {
  givenName: string | null;
  familyName: string | null;
}

export const NO_NAME_PARTS: NameParts = Object.freeze({ givenName: null, familyName: null });

/** A text as users' lists compare it: NFC, lower case (usernames, names, emails). */
export function userTextKey(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

export function usernameKey(username: string): string {
  return userTextKey(username);
}

/** A user's row as a User is made from: the search keys are the database's own. */
// The user's own console preference is read only by user-preferences.ts, not with every user.
type UserRow = Omit<Selectable<UsersTable>, 'name_key' | 'email_key' | 'company_key' | 'last_workspace_id'>;

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    username: row.username,
    name: row.name,
    email: row.email,
    siteAdmin: Boolean(row.site_admin),
    workspaceAdmin: Boolean(row.workspace_admin),
    disabled: Boolean(row.disabled),
    createdAt: row.created_at,
    lastLoginAt: row.last_login_at,
    passwordSetAt: row.password_set_at,
    externalId: row.external_id ?? null,
    updatedAt: row.updated_at ?? row.created_at,
    nameParts: { givenName: row.given_name ?? null, familyName: row.family_name ?? null },
    profile: toProfile(row),
    activity: {
      firstLoginAt: row.first_login_at ?? null,
      lastActiveAt: row.last_active_at ?? null,
      lastApiUseAt: row.last_api_use_at ?? null,
      lastWebLoginAt: row.last_web_login_at ?? null,
      lastRestapiLoginAt: row.last_restapi_login_at ?? null,
      lastSftpLoginAt: row.last_sftp_login_at ?? null,
      lastDavLoginAt: row.last_dav_login_at ?? null,
    },
    partnerId: row.partner_id ?? null,
    partnerAdmin: Boolean(row.partner_admin),
    authentication: {
      method: (AUTHENTICATION_METHODS as readonly string[]).includes(row.authentication_method) ? row.authentication_method as AuthenticationMethod : 'password',
      ssoStrategyId: row.sso_strategy_id ?? null,
    },
  };
}

export async function findUserById(db: Db, id: number): Promise<User | undefined> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toUser(row);
}

/** The usernames of these users, by id (ids of users gone are absent). */
export async function usernamesOf(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((row) => [Number(row.id), row.username]));
}

export async function usernameTaken(db: Db, username: string, exceptUserId?: number): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where('username_key', '=', usernameKey(username));
  if (exceptUserId !== undefined) query = query.where('id', '!=', exceptUserId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function countUsers(db: Db): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Active Site Administrators other than `exceptUserId`: the last one may not be removed. */
export async function countOtherActiveSiteAdmins(db: Db, exceptUserId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('site_admin', '=', true)
    .where('disabled', '=', false)
    .where('id', '!=', exceptUserId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NewUser {
  workspaceId: number;
  username: string;
  passwordHash: string | null;
  siteAdmin?: boolean;
  workspaceAdmin?: boolean;
  name?: string;
  email?: string;
  externalId?: string | null;
  nameParts?: NameParts;
  disabled?: boolean;
  profile?: Partial<UserProfile>;
  /** The Partner it belongs to, if any, and whether it is a Partner Admin of it. */
  partnerId?: number | null;
  partnerAdmin?: boolean;
  /** How it signs in; left out, with a password. An `sso` user is made without one. */
  authentication?: UserAuthentication;
  now: number;
}

export async function insertUser(db: Db, user: NewUser): Promise<User> {
  const row = await db
    .insertInto('users')
    .values({
      workspace_id: user.workspaceId,
      username: user.username,
      username_key: usernameKey(user.username),
      name: user.name ?? '',
      name_key: userTextKey(user.name ?? ''),
      email: user.email ?? '',
      email_key: userTextKey(user.email ?? ''),
      password_hash: user.passwordHash,
      site_admin: user.siteAdmin ?? false,
      workspace_admin: user.workspaceAdmin ?? false,
      disabled: user.disabled ?? false,
      created_at: user.now,
      password_set_at: user.passwordHash === null ? null : user.now,
      external_id: user.externalId ?? null,
      given_name: user.nameParts?.givenName ?? null,
      family_name: user.nameParts?.familyName ?? null,
      partner_id: user.partnerId ?? null,
      partner_admin: user.partnerAdmin ?? false,
      ...authenticationColumns(user.authentication),
      ...profileColumns(user.profile ?? {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toUser(row);
}

export interface UserChanges {
  username?: string;
  name?: string;
  email?: string;
  passwordHash?: string;
  siteAdmin?: boolean;
  workspaceAdmin?: boolean;
  disabled?: boolean;
  externalId?: string | null;
  nameParts?: NameParts;
  profile?: Partial<UserProfile>;
  partnerAdmin?: boolean;
  /** A user made a Partner user (convert_to_partner_user). */
  partnerId?: number;
  /** How the user signs in: `sso` removes its password (docs/authentication.md). */
  authentication?: UserAuthentication;
}

/**
 * `authentication_method` and `sso_strategy_id`; `sso` also removes the password, since a user who
 * signs in at an identity provider has none here.
 */
function authenticationColumns(authentication: UserAuthentication | undefined): Record<string, unknown> {
  if (authentication === undefined) return {};
  return {
    authentication_method: authentication.method,
    sso_strategy_id: authentication.ssoStrategyId,
    ...(authentication.method === 'sso' ? { password_hash: null, password_set_at: null } : {}),
  };
}

export async function updateUser(db: Db, id: number, changes: UserChanges, now: number): Promise<User> {
  const values = {
    ...(changes.username === undefined ? {} : { username: changes.username, username_key: usernameKey(changes.username) }),
    ...(changes.name === undefined ? {} : { name: changes.name, name_key: userTextKey(changes.name) }),
    ...(changes.email === undefined ? {} : { email: changes.email, email_key: userTextKey(changes.email) }),
    ...(changes.passwordHash === undefined ? {} : { password_hash: changes.passwordHash, password_set_at: now }),
    ...(changes.siteAdmin === undefined ? {} : { site_admin: changes.siteAdmin }),
    ...(changes.workspaceAdmin === undefined ? {} : { workspace_admin: changes.workspaceAdmin }),
    ...(changes.disabled === undefined ? {} : { disabled: changes.disabled }),
    ...(changes.externalId === undefined ? {} : { external_id: changes.externalId }),
    ...(changes.nameParts === undefined ? {} : { given_name: changes.nameParts.givenName, family_name: changes.nameParts.familyName }),
    ...(changes.partnerAdmin === undefined ? {} : { partner_admin: changes.partnerAdmin }),
    ...(changes.partnerId === undefined ? {} : { partner_id: changes.partnerId }),
    // After the password: moving a user to a provider leaves it none.
    ...authenticationColumns(changes.authentication),
    ...profileColumns(changes.profile ?? {}),
  };
  // Nothing to change is an UPDATE without SET, which SQL cannot say: the row is answered as it is.
  const query = Object.keys(values).length === 0
    ? db.selectFrom('users').selectAll().where('id', '=', id)
    : db.updateTable('users').set({ ...values, updated_at: now }).where('id', '=', id).returningAll();
  return toUser(await query.executeTakeFirstOrThrow());
}

export async function deleteUserRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

/** The user's columns under a `u_` prefix, for queries that join `users as u` to a credential. */
export const JOINED_USER_COLUMNS = [
  'u.workspace_id as u_workspace_id', 'u.username as u_username', 'u.username_key as u_username_key',
  'u.name as u_name', 'u.email as u_email', 'u.password_hash as u_password_hash', 'u.site_admin as u_site_admin',
  'u.workspace_admin as u_workspace_admin', 'u.disabled as u_disabled', 'u.created_at as u_created_at',
  'u.last_login_at as u_last_login_at', 'u.password_set_at as u_password_set_at', 'u.external_id as u_external_id', 'u.updated_at as u_updated_at',
  'u.given_name as u_given_name', 'u.family_name as u_family_name',
  'u.time_zone as u_time_zone', 'u.language as u_language', 'u.company as u_company', 'u.notes as u_notes', 'u.allowed_ips as u_allowed_ips',
  'u.user_root as u_user_root', 'u.authenticate_until as u_authenticate_until', 'u.require_password_change as u_require_password_change',
  'u.ssl_required as u_ssl_required', 'u.sftp_permission as u_sftp_permission', 'u.dav_permission as u_dav_permission',
  'u.ftp_permission as u_ftp_permission', 'u.restapi_permission as u_restapi_permission',
  'u.first_login_at as u_first_login_at', 'u.last_active_at as u_last_active_at', 'u.last_api_use_at as u_last_api_use_at',
  'u.last_web_login_at as u_last_web_login_at', 'u.last_restapi_login_at as u_last_restapi_login_at',
  'u.last_sftp_login_at as u_last_sftp_login_at', 'u.last_dav_login_at as u_last_dav_login_at',
  'u.partner_id as u_partner_id', 'u.partner_admin as u_partner_admin',
  'u.require_2fa as u_require_2fa', 'u.authentication_method as u_authentication_method', 'u.sso_strategy_id as u_sso_strategy_id',
] as const;

type PrefixedUser = { [K in keyof UserRow as K extends 'id' ? never : `u_${K}`]: UserRow[K] | null };

export function unprefixUser(id: number, row: PrefixedUser): UserRow {
  return {
    id,
    workspace_id: row.u_workspace_id as number,
    username: row.u_username as string,
    username_key: row.u_username_key as string,
    name: row.u_name as string,
    email: row.u_email as string,
    password_hash: row.u_password_hash,
    site_admin: row.u_site_admin as number,
    workspace_admin: row.u_workspace_admin as number,
    disabled: row.u_disabled as number,
    created_at: row.u_created_at as number,
    last_login_at: row.u_last_login_at,
    password_set_at: row.u_password_set_at,
    external_id: row.u_external_id,
    updated_at: row.u_updated_at,
    given_name: row.u_given_name,
    family_name: row.u_family_name,
    time_zone: row.u_time_zone,
    language: row.u_language,
    company: row.u_company as string,
    notes: row.u_notes as string,
    allowed_ips: row.u_allowed_ips as string,
    user_root: row.u_user_root as string,
    authenticate_until: row.u_authenticate_until,
    require_password_change: row.u_require_password_change as number,
    ssl_required: row.u_ssl_required as string,
    sftp_permission: row.u_sftp_permission as number,
    dav_permission: row.u_dav_permission as number,
    ftp_permission: row.u_ftp_permission as number,
    restapi_permission: row.u_restapi_permission as number,
    first_login_at: row.u_first_login_at,
    last_active_at: row.u_last_active_at,
    last_api_use_at: row.u_last_api_use_at,
    last_web_login_at: row.u_last_web_login_at,
    last_restapi_login_at: row.u_last_restapi_login_at,
    last_sftp_login_at: row.u_last_sftp_login_at,
    last_dav_login_at: row.u_last_dav_login_at,
    partner_id: row.u_partner_id,
    partner_admin: row.u_partner_admin as number,
    require_2fa: row.u_require_2fa as string,
    authentication_method: row.u_authentication_method as string,
    sso_strategy_id: row.u_sso_strategy_id,
  };
}

/** The users of these Partners, with their Partner Admin flags, by id. */
export async function usersOfPartners(db: Db, partnerIds: readonly number[]): Promise<{ id: number; partnerId: number; partnerAdmin: boolean }[]> {
  if (partnerIds.length === 0) return [];
  const rows = await db.selectFrom('users').select(['id', 'partner_id', 'partner_admin']).where('partner_id', 'in', [...new Set(partnerIds)]).orderBy('id').execute();
  return rows.map((row) => ({ id: row.id, partnerId: row.partner_id as number, partnerAdmin: Boolean(row.partner_admin) }));
}
