/**
 * The value lists of History records. Files.com's own (HistoryExport.md of the SDK), and the
 * actions Atrium records that Files.com's list lacks, marked below and documented in
 * docs/history.md.
 */
export const FILES_COM_ACTIONS = [
  'create', 'read', 'update', 'destroy', 'move', 'login', 'failedlogin', 'copy',
  'user_create', 'user_update', 'user_destroy', 'group_create', 'group_update', 'group_destroy',
  'permission_create', 'permission_destroy', 'api_key_create', 'api_key_update', 'api_key_destroy', 'archived_delete',
] as const;

/** Atrium's additions: a session ended, a failed reauthentication, Workspaces, site settings, SSH public keys, Partners, automations, share links, a share link's wrong password, second factors, and single sign-on's providers and links. */
export const ATRIUM_ACTIONS = [
  'logout', 'failedreauth', 'workspace_create', 'workspace_update', 'workspace_destroy', 'site_update',
  'public_key_create', 'public_key_update', 'public_key_destroy', 'partner_create', 'partner_update', 'partner_destroy',
  'automation_create', 'automation_update', 'automation_destroy', 'bundle_create', 'bundle_update', 'bundle_destroy', 'bundle_share',
  'bundle_password_failed', 'two_factor_create', 'two_factor_destroy', 'recovery_codes_create', 'two_factor_update',
  'sso_provider_create', 'sso_provider_update', 'sso_provider_destroy', 'sso_link_create', 'sso_link_destroy',
] as const;

export const HISTORY_ACTIONS = [...FILES_COM_ACTIONS, ...ATRIUM_ACTIONS] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

/** Actions about signing in and out: what `GET /history/login` lists. */
export const LOGIN_ACTIONS: readonly HistoryAction[] = ['login', 'failedlogin', 'logout', 'failedreauth'];

/** Actions on files and folders: what a Folder Admin sees under its folders. */
export const FILE_ACTIONS: readonly HistoryAction[] = ['create', 'read', 'update', 'destroy', 'move', 'copy'];

/**
 * Files.com's failure types that Atrium produces (its list has more, for features Atrium has not),
 * and Atrium's own: `two_factor_mismatch` (a wrong second factor), `two_factor_required` (a
 * password alone at a door that cannot ask for the second factor), and two for single sign-on:
 * `sso_not_linked` (an account at a provider whose user name is an Atrium user's it is not linked
 * to) and `sso_refused` (the provider's answer failed a check, or the sign-in was not the one this
 * browser started).
 */
export const FAILURE_TYPES = [
  'none', 'password_mismatch', 'username_not_found', 'locked_out', 'disabled', 'rate_limited', 'ip_mismatch',
  'two_factor_mismatch', 'two_factor_required', 'sso_not_linked', 'sso_refused',
] as const;
export type FailureType = (typeof FAILURE_TYPES)[number];

export { type Interface as HistoryInterface } from '../lib/origin.js';
export const HISTORY_INTERFACES = ['web', 'restapi', 'scim', 'dav', 'sftp', 'cli', 'automation'] as const;
