import type { Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import { takeTurn } from '../db/serialise.js';
import { inTransaction } from '../db/transaction.js';
import { recordHistory } from '../history/index.js';
import { readStoredSettings, writeSettings } from '../repositories/site-settings.js';

/** Site settings (contract section 8) with their defaults. */
export interface SiteSettings {
  /** The site's name, as Files.com's Site `name`: what people call this server. */
  name: string;
  session_expiry_minutes: number;
  session_max_lifetime_minutes: number;
  user_lockout: boolean;
  user_lockout_tries: number;
  user_lockout_within_minutes: number;
  user_lockout_lock_period_minutes: number;
  login_attempts_per_ip_per_hour: number;
  users_can_create_api_keys: boolean;
  password_min_length: number;
  history_retention_days: number;
  /** Days a deleted file or folder stays in the trash, restorable, before it is purged (docs/files.md#trash-and-versions). */
  trash_retention_days: number;
  /** Earlier contents kept per file when it is overwritten; 0 keeps none. */
  max_file_versions: number;
  /**
   * The addresses anyone may connect from, one address or CIDR range a line; empty restricts
   * nothing. Added to the users' and groups' own lists (access/door-admission.ts).
   */
  allowed_ips: string;
  /**
   * Whether `import_file` automations may fetch from loopback, private, link-local and other
   * internal addresses. Off, an automation cannot be a way into the server's own network.
   */
  automation_import_private_addresses: boolean;
  /** Share links (docs/sharing.md): off, no new link can be made. */
  sharing_enabled: boolean;
  /**
   * Days a new share link lasts when its creator sets no expiry, and the longest any link may be
   * set to last from the moment it is set; null: links need not expire.
   */
  bundle_expiration: number | null;
  /** Every share link must have a password. */
  bundle_password_required: boolean;
  /** Every share link asks its visitors to register (name, email, company). */
  bundle_require_registration: boolean;
  /** A share link stops working while its creator is disabled (a deleted creator's links always end). */
  revoke_bundle_access_on_disable_or_delete: boolean;
  /** Creators may choose their links' codes (the last part of the URL). */
  allow_bundle_names: boolean;
  /** What the public page says for a link that does not exist or no longer works; empty: its own words. */
  bundle_not_found_message: string;
  /** Two-factor authentication is required of the users `require_2fa_user_type` names (docs/authentication.md#two-factor-authentication). */
  require_2fa: boolean;
  /** Whom `require_2fa` covers: everyone, Site Administrators, or Workspace and Site Administrators. */
  require_2fa_user_type: TwoFactorUserType;
  /** Users who sign in at an identity provider answer to its second factor, not Atrium's. */
  require_2fa_exempt_all_sso_users: boolean;
  /** Which second factors users may set up: an authenticator app (TOTP), a passkey (WebAuthn). */
  allowed_2fa_method_totp: boolean;
  allowed_2fa_method_webauthn: boolean;
  /**
   * WebDAV and SFTP clients cannot ask for a code: on, a password alone still signs a 2FA user in
   * there; off (the default), those clients must use an API key or an SSH key.
   */
  allowed_2fa_method_bypass_for_ftp_sftp_dav: boolean;
}

/** Files.com's `require_2fa_user_type` values. */
export const TWO_FACTOR_USER_TYPES = ['all', 'site_admins', 'workspace_admins'] as const;
export type TwoFactorUserType = typeof TWO_FACTOR_USER_TYPES[number];

export const DEFAULT_SITE_SETTINGS: Readonly<SiteSettings> = {
  name: 'Atrium',
  session_expiry_minutes: 360,
  session_max_lifetime_minutes: 1440,
  user_lockout: true,
  user_lockout_tries: 5,
  user_lockout_within_minutes: 60,
  user_lockout_lock_period_minutes: 60,
  login_attempts_per_ip_per_hour: 100,
  users_can_create_api_keys: true,
  password_min_length: 12,
  history_retention_days: 365,
  trash_retention_days: 30,
  max_file_versions: 10,
  allowed_ips: '',
  automation_import_private_addresses: false,
  sharing_enabled: true,
  bundle_expiration: null,
  bundle_password_required: false,
  bundle_require_registration: false,
  revoke_bundle_access_on_disable_or_delete: true,
  allow_bundle_names: false,
  bundle_not_found_message: '',
  require_2fa: false,
  require_2fa_user_type: 'all',
  require_2fa_exempt_all_sso_users: true,
  allowed_2fa_method_totp: true,
  allowed_2fa_method_webauthn: true,
  allowed_2fa_method_bypass_for_ftp_sftp_dav: false,
};

/** Settings that may also be null (none): a stored number or null is read as it is. */
const NULLABLE_NUMBERS: ReadonlySet<keyof SiteSettings> = new Set(['bundle_expiration']);

/** The range of `bundle_expiration`, in days: a day at least, a century at most. */
export const BUNDLE_EXPIRATION_DAYS = { minimum: 1, maximum: 36_500 } as const;

/** Whether `value` is of the type of setting `name`. */
function fitsSetting(name: keyof SiteSettings, value: unknown): boolean {
  if (NULLABLE_NUMBERS.has(name)) return value === null || typeof value === 'number';
  if (name === 'require_2fa_user_type') return (TWO_FACTOR_USER_TYPES as readonly unknown[]).includes(value);
  return typeof value === typeof DEFAULT_SITE_SETTINGS[name];
}

type NumericSetting = { [K in keyof SiteSettings]: SiteSettings[K] extends number ? K : never }[keyof SiteSettings];

const MINUTES_PER_WEEK = 7 * 24 * 60;
const MINUTES_PER_YEAR = 365 * 24 * 60;

/**
 * The accepted range of every numeric setting (integers, inclusive). Each bound keeps a setting
 * meaningful: a session must last at least a minute; lockout windows and periods beyond a week
 * would keep login records longer than they are worth; a password minimum below 8 is below
 * NIST 800-63B, and above 128 no one could choose a password.
 */
export const SETTING_RANGES: Readonly<Record<NumericSetting, { minimum: number; maximum: number }>> = {
  session_expiry_minutes: { minimum: 1, maximum: MINUTES_PER_YEAR },
  session_max_lifetime_minutes: { minimum: 1, maximum: MINUTES_PER_YEAR },
  user_lockout_tries: { minimum: 1, maximum: 1000 },
  user_lockout_within_minutes: { minimum: 1, maximum: MINUTES_PER_WEEK },
  user_lockout_lock_period_minutes: { minimum: 1, maximum: MINUTES_PER_WEEK },
  login_attempts_per_ip_per_hour: { minimum: 1, maximum: 1_000_000 },
  password_min_length: { minimum: 8, maximum: 128 },
  // A day at least, so nothing is removed the moment it is written; a century at most.
  history_retention_days: { minimum: 1, maximum: 36_500 },
  // A day at least, so that a deletion can always be undone the same day; a century at most.
  trash_retention_days: { minimum: 1, maximum: 36_500 },
  // None (an overwrite replaces for good) to a thousand: each kept version is a whole copy's bytes.
  max_file_versions: { minimum: 0, maximum: 1000 },
};

export async function readSiteSettings(db: Db): Promise<SiteSettings> {
  const stored = await readStoredSettings(db);
  const settings = { ...DEFAULT_SITE_SETTINGS };
  for (const name of Object.keys(settings) as (keyof SiteSettings)[]) {
    const value = stored.get(name);
    if (value !== undefined && fitsSetting(name, value)) (settings as Record<string, unknown>)[name] = value;
  }
  return settings;
}

/**
 * Stores the given settings (already validated against SETTING_RANGES by the route schema) and
 * answers the whole set. Only known names are written: anything else in `changes` is ignored.
 */
export async function updateSiteSettings(a: Call, changes: Partial<SiteSettings>): Promise<SiteSettings> {
  const { db } = a;
  const known: Partial<Record<keyof SiteSettings, unknown>> = {};
  for (const name of Object.keys(DEFAULT_SITE_SETTINGS) as (keyof SiteSettings)[]) {
    const value = changes[name];
    if (value !== undefined && fitsSetting(name, value)) known[name] = value;
  }
  await inTransaction(db, async (tx) => {
    // Compared with the settings as they are now, other changes of them waiting: of identical
    // changes at once, the first is recorded and the others find nothing left to change.
    await takeTurn(tx, 'site-settings');
    const before = await readSiteSettings(tx);
    const changed = (Object.keys(known) as (keyof SiteSettings)[]).filter((name) => known[name] !== before[name]);
    await writeSettings(tx, known);
    if (changed.length === 0) return;
    await recordHistory(tx, a, [{
      action: 'site_update',
      workspaceId: null,
      display: `Changed site settings: ${changed.join(', ')}`,
      targets: {
        before: Object.fromEntries(changed.map((name) => [name, before[name]])),
        after: Object.fromEntries(changed.map((name) => [name, known[name]])),
      },
    }]);
  });
  return readSiteSettings(db);
}

/**
 * The site settings share links follow (docs/sharing.md#site-settings). Read when a link is made,
 * changed or visited, with no caller's authority: the settings are the Site Administrators'
 * decision, which every creator follows.
 */
export type SharingSettings = Pick<SiteSettings, 'sharing_enabled' | 'bundle_expiration' | 'bundle_password_required' | 'bundle_require_registration'
  | 'revoke_bundle_access_on_disable_or_delete' | 'allow_bundle_names' | 'bundle_not_found_message'>;

export async function readSharingSettings(db: Db): Promise<SharingSettings> {
  const s = await readSiteSettings(db);
  return {
    sharing_enabled: s.sharing_enabled, bundle_expiration: s.bundle_expiration, bundle_password_required: s.bundle_password_required,
    bundle_require_registration: s.bundle_require_registration, revoke_bundle_access_on_disable_or_delete: s.revoke_bundle_access_on_disable_or_delete,
    allow_bundle_names: s.allow_bundle_names, bundle_not_found_message: s.bundle_not_found_message,
  };
}

/** How long History keeps its records (housekeeping reads it; no caller's authority is involved). */
export async function historyRetentionDays(db: Db): Promise<number> {
  return (await readSiteSettings(db)).history_retention_days;
}

/** The trash's retention and the versions kept per file (files/ reads them when it deletes, overwrites and purges; no caller's authority is involved). */
export async function fileKeepingSettings(db: Db): Promise<{ trashRetentionDays: number; versionsKept: number }> {
  const s = await readSiteSettings(db);
  return { trashRetentionDays: s.trash_retention_days, versionsKept: s.max_file_versions };
}

/**
 * Whether import automations may reach internal addresses (the setting
 * `automation_import_private_addresses`). Read when a run fetches, with no caller's authority: the
 * setting is the Site Administrators' decision, the automation's administrators only follow it.
 */
export async function automationImportMayReachPrivateAddresses(db: Db): Promise<boolean> {
  return (await readSiteSettings(db)).automation_import_private_addresses;
}
