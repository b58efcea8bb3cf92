import { api } from './client';
import { announceWorkspacesChanged } from './workspace-events';

export interface Workspace {
  id: number;
  name: string;
  created_at: string;
}

// Asked in the signed-in user's own Workspace: with another one selected, only that one is listed.
export async function listWorkspaces(): Promise<Workspace[]> {
  return (await api<Workspace[]>('GET', '/workspaces', { homeContext: true, query: { per_page: 1000 } })).data;
}

export async function createWorkspace(name: string): Promise<Workspace> {
  const created = (await api<Workspace>('POST', '/workspaces', { homeContext: true, body: { name } })).data;
  announceWorkspacesChanged();
  return created;
}

export async function renameWorkspace(id: number, name: string): Promise<void> {
  await api('PATCH', `/workspaces/${id}`, { homeContext: true, body: { name } });
  announceWorkspacesChanged();
}

export async function deleteWorkspace(id: number): Promise<void> {
  await api('DELETE', `/workspaces/${id}`, { homeContext: true });
  announceWorkspacesChanged();
}

export interface SiteSettings {
  session_expiry_minutes: number;
  session_max_lifetime_minutes: number;
  user_lockout: boolean;
  user_lockout_tries: number;
  user_lockout_within_minutes: number;
  user_lockout_lock_period_minutes: number;
  login_attempts_per_ip_per_hour: number;
  password_min_length: number;
  users_can_create_api_keys: boolean;
  history_retention_days: number;
  /** Addresses and CIDR ranges anyone may connect from, one a line; empty allows any. */
  allowed_ips: string;
  /** Import automations may fetch from loopback, private and other internal addresses. */
  automation_import_private_addresses: boolean;
  /** Share links may be made and shared (docs/sharing.md). */
  sharing_enabled: boolean;
  /** Days a new share link lasts when its creator sets no expiry, and the longest any may last; null: no limit. */
  bundle_expiration: number | null;
  bundle_password_required: boolean;
  bundle_require_registration: boolean;
  /** A share link stops working while its creator is disabled. */
  revoke_bundle_access_on_disable_or_delete: boolean;
  /** Creators may choose their share links' codes. */
  allow_bundle_names: boolean;
  /** What a share link's page says when the link does not exist or no longer works; empty: its own words. */
  bundle_not_found_message: string;
  /** Days a deletion stays in the trash, restorable (docs/files.md, "Trash and versions"). */
  trash_retention_days: number;
  /** Earlier contents kept per file when it is overwritten; 0 keeps none. */
  max_file_versions: number;
  /** Two-factor authentication is required of the users `require_2fa_user_type` names. */
  require_2fa: boolean;
  require_2fa_user_type: 'all' | 'site_admins' | 'workspace_admins';
  /** Users who sign in through single sign-on need not have it. */
  require_2fa_exempt_all_sso_users: boolean;
  allowed_2fa_method_totp: boolean;
  allowed_2fa_method_webauthn: boolean;
  /** WebDAV and SFTP still take a password alone from a user with two-factor authentication. */
  allowed_2fa_method_bypass_for_ftp_sftp_dav: boolean;
}

export async function readSite(): Promise<SiteSettings> {
  return (await api<SiteSettings>('GET', '/site', { homeContext: true })).data;
}

/** Every setting this page edits: a key for each field of SiteSettings, checked by the compiler. */
const SETTING_NAMES: Record<keyof SiteSettings, true> = {
  session_expiry_minutes: true, session_max_lifetime_minutes: true, user_lockout: true, user_lockout_tries: true,
  user_lockout_within_minutes: true, user_lockout_lock_period_minutes: true, login_attempts_per_ip_per_hour: true,
  password_min_length: true, users_can_create_api_keys: true, history_retention_days: true, allowed_ips: true,
  automation_import_private_addresses: true, sharing_enabled: true, bundle_expiration: true, bundle_password_required: true,
  bundle_require_registration: true, revoke_bundle_access_on_disable_or_delete: true, allow_bundle_names: true, bundle_not_found_message: true,
  trash_retention_days: true, max_file_versions: true,
  require_2fa: true, require_2fa_user_type: true, require_2fa_exempt_all_sso_users: true,
  allowed_2fa_method_totp: true, allowed_2fa_method_webauthn: true, allowed_2fa_method_bypass_for_ftp_sftp_dav: true,
};

/**
 * Sends only the settings themselves. What GET /site answers also holds Files.com's spellings in
 * hours (`session_expiry`, `user_lockout_within`, ...); sent back unchanged beside a changed
 * `_minutes` value, they would contradict it and the server would refuse both.
 */
export async function changeSite(changes: Partial<SiteSettings>): Promise<SiteSettings> {
  const body = Object.fromEntries(Object.entries(changes).filter(([name]) => Object.hasOwn(SETTING_NAMES, name)));
  return (await api<SiteSettings>('PATCH', '/site', { homeContext: true, body })).data;
}
