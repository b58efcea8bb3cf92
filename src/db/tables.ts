import type { ColumnType, Generated } from 'kysely';

/**
 * Row types of every table. Times are epoch milliseconds (integer in SQLite, bigint in PostgreSQL,
 * read back as numbers). Booleans are 0/1 in SQLite and boolean in PostgreSQL: read them with
 * `Boolean(...)`; the SQLite driver turns bound booleans into 0/1 (db/sqlite-statement-cache.ts).
 */
type Id = Generated<number>;
type Flag = ColumnType<boolean | number, boolean, boolean>;
/** A flag with a column default: left out of an insert. */
type DefaultedFlag = ColumnType<boolean | number, boolean | undefined, boolean>;

export interface WorkspacesTable {
  id: Id;
  name: string;
  created_at: number;
}

export interface UsersTable {
  id: Id;
  workspace_id: number;
  username: string;
  /** Lower-cased NFC username: usernames are unique site-wide, case-insensitively. */
  username_key: string;
  name: string;
  email: string;
  /** Lower-cased NFC name and email, for filters, search and sorting without regard to case. */
  name_key: Generated<string>;
  email_key: Generated<string>;
  password_hash: string | null;
  site_admin: Flag;
  workspace_admin: Flag;
  disabled: Flag;
  created_at: number;
  last_login_at: number | null;
  password_set_at: number | null;
  /** The identifier an identity provider gave the user (SCIM externalId). */
  external_id: string | null;
  /** When the row (or, for a group, its membership) last changed; null until then. */
  updated_at: number | null;
  /** The parts of the name an identity provider sent (SCIM name.givenName, name.familyName); null when none. */
  given_name: string | null;
  family_name: string | null;
  /** Files.com profile and access fields (docs/workspaces-users-groups.md). */
  time_zone: string | null;
  language: string | null;
  company: Generated<string>;
  /** Lower-cased NFC company, for the users' list filters and sorts. */
  company_key: Generated<string>;
  notes: Generated<string>;
  /** Newline-separated addresses and CIDR ranges; empty is any address. */
  allowed_ips: Generated<string>;
  user_root: Generated<string>;
  /** Epoch milliseconds after which the user can no longer sign in or use a key; null is never. */
  authenticate_until: number | null;
  require_password_change: DefaultedFlag;
  ssl_required: Generated<string>;
  sftp_permission: DefaultedFlag;
  dav_permission: DefaultedFlag;
  ftp_permission: DefaultedFlag;
  restapi_permission: DefaultedFlag;
  /** Activity times (epoch ms), null until it first happens; each written at most once a minute. */
  first_login_at: number | null;
  last_active_at: number | null;
  last_api_use_at: number | null;
  last_web_login_at: number | null;
  last_restapi_login_at: number | null;
  last_sftp_login_at: number | null;
  last_dav_login_at: number | null;
  /** The Partner the user belongs to (docs/partners.md); null for none. */
  partner_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** One of its Partner's Partner Admins. */
  partner_admin: DefaultedFlag;
  /** The Workspace the user last chose to work in (directory/user-preferences.ts); null until then. */
  last_workspace_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** Files.com's override of the site's 2FA policy: `use_system_setting`, `always_require`, `never_require`. */
  require_2fa: Generated<string>;
  /** `password`, or `sso`: signs in at an identity provider and has no password. */
  authentication_method: Generated<string>;
  /** The identity provider of an `sso` user. */
  sso_strategy_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A user's authenticator-app (TOTP) secret, sealed (identity/secret-box.ts). */
export interface UserTotpTable {
  user_id: number;
  secret_sealed: string;
  created_at: number;
  /** Null while enrolment waits for its first code. */
  confirmed_at: number | null;
  /** The last 30-second step a code was accepted for: no code counts twice. */
  last_used_step: number | null;
}

export interface UserRecoveryCodesTable {
  id: Id;
  user_id: number;
  /** SHA-256 hex of the normalised code. */
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

/** What a correct password earns a 2FA user before the second factor (identity/partial-sessions.ts). */
export interface PartialSessionsTable {
  id: Id;
  user_id: number;
  lookup: string;
  secret_hash: string;
  /** `second_factor` or `enrolment`. */
  purpose: string;
  created_at: number;
  expires_at: number;
  ended_at: number | null;
  failures: Generated<number>;
  webauthn_challenge: string | null;
}

/** A user's passkey, a WebAuthn credential used as a second factor (repositories/passkeys.ts). */
export interface UserPasskeysTable {
  id: Id;
  user_id: number;
  name: string;
  /** The authenticator's id of the credential, base64url; unique on the site. */
  credential_id: string;
  /** The COSE public key, base64url: it verifies signatures and can make none, so it is not sealed. */
  public_key: string;
  /** The signature counter last reported (0 for authenticators that keep none). */
  counter: Generated<number>;
  /** Comma-separated transports the browser reported (`internal`, `hybrid`, `usb`, `nfc`, `ble`); '' when none. */
  transports: Generated<string>;
  /** The authenticator model's AAGUID when it tells one. */
  aaguid: string | null;
  /** A synced passkey (a password manager's) rather than one bound to a single device. */
  backed_up: DefaultedFlag;
  created_at: number;
  last_used_at: number | null;
}

/** An OpenID Connect identity provider (sso/): migration 032. */
export interface SsoProvidersTable {
  id: Id;
  label: string;
  issuer_url: string;
  client_id: string;
  /** Sealed (identity/secret-box.ts, context `sso:<id>`); null for a public client. */
  client_secret_sealed: string | null;
  /** Space-separated. */
  scopes: string;
  username_claim: string;
  group_claim: string | null;
  provision_users: Flag;
  workspace_id: number;
  enabled: Flag;
  display_on_login_page: Flag;
  created_at: number;
  updated_at: number;
}

/** One value of a provider's group claim and the Atrium group it stands for. */
export interface SsoProviderGroupsTable {
  id: Id;
  provider_id: number;
  claim_value: string;
  group_id: number;
}

/** Which Atrium user an account at an issuer is: by the issuer and the account's `sub`. */
export interface SsoLinksTable {
  id: Id;
  provider_id: number;
  issuer: string;
  subject: string;
  user_id: number;
  created_at: number;
  last_sign_in_at: number | null;
}

/** A sign-in or reauthentication on its way through a provider (sso/sign-in-flows.ts). */
export interface SsoSignInFlowsTable {
  id: Id;
  lookup: string;
  secret_hash: string;
  provider_id: number;
  /** `sign_in` or `reauthenticate`. */
  purpose: string;
  session_id: number | null;
  state: string;
  nonce: string;
  code_verifier: string;
  redirect_uri: string;
  return_to: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  confirmed_at: number | null;
}

export interface GroupsTable {
  id: Id;
  workspace_id: number;
  name: string;
  name_key: string;
  created_at: number;
  /** The identifier an identity provider gave the group (SCIM externalId). */
  external_id: string | null;
  /** When the row (or, for a group, its membership) last changed; null until then. */
  updated_at: number | null;
  notes: Generated<string>;
  /** A group's protocol flag true lets its members use that protocol whatever their own flag says. */
  sftp_permission: DefaultedFlag;
  dav_permission: DefaultedFlag;
  ftp_permission: DefaultedFlag;
  restapi_permission: DefaultedFlag;
  /** Newline-separated addresses and CIDR ranges its members may come from; empty adds none. */
  allowed_ips: Generated<string>;
}

/** A Partner (docs/partners.md): an outside organisation of one Workspace. */
export interface PartnersTable {
  id: Id;
  workspace_id: number;
  name: string;
  /** Lower-cased NFC name: unique within the Workspace. */
  name_key: string;
  /** A folder path inside the Partner's Workspace, relative to its root. */
  root_folder: string;
  notes: Generated<string>;
  /** Comma-separated tags: lowercase letters, digits and hyphens. */
  tags: Generated<string>;
  /** Newline-separated addresses and CIDR ranges; empty restricts nothing. */
  allowed_ips: Generated<string>;
  allow_bypassing_2fa_policies: DefaultedFlag;
  allow_credential_changes: DefaultedFlag;
  allow_providing_gpg_keys: DefaultedFlag;
  allow_user_creation: DefaultedFlag;
  cc_emails_to_responsible_party: DefaultedFlag;
  responsible_user_id: number | null;
  responsible_group_id: number | null;
  created_at: number;
  updated_at: number;
}

export interface GroupUsersTable {
  id: Id;
  group_id: number;
  user_id: number;
  admin: Flag;
  created_at: number;
}

export interface ApiKeysTable {
  id: Id;
  name: string;
  /** Free text about the key, '' for none (migration 012). */
  description: Generated<string>;
  /** null for a site-wide key. */
  user_id: number | null;
  permission_set: 'full' | 'files_only';
  /** The request context the key was created in: its home. */
  workspace_id: number;
  /** First hex digits of the secret's hash: an index to find the row; the full hash is compared in constant time. */
  lookup: string;
  secret_hash: string;
  created_at: number;
  expires_at: number | null;
  last_use_at: number | null;
}

export interface SessionsTable {
  id: Id;
  user_id: number;
  lookup: string;
  secret_hash: string;
  created_at: number;
  last_active_at: number;
  /** Kept after the end so a later request can be told `invalid-session` rather than `invalid-credentials`. */
  ended_at: number | null;
  reauth_failures: Generated<number>;
  /** The challenge of a passkey registration this session started, single-use (identity/passkeys.ts). */
  webauthn_challenge: ColumnType<string | null, string | null | undefined, string | null>;
  webauthn_challenge_expires_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface PermissionsTable {
  id: Id;
  /** The Workspace the grant's path lies in. */
  workspace_id: number;
  /** Qualified site path as first spelled (`_/Workspaces/3/Reports`). */
  path: string;
  /** Lower-cased canonical path: grants are matched case-insensitively. */
  path_key: string;
  user_id: number | null;
  group_id: number | null;
  /** A Partner grant's Partner (its users hold it); null for user, group and ALL-of grants. */
  partner_id: number | null;
  permission: string;
  recursive: Flag;
  created_at: number;
}

/** The groups of an ALL-of grant (`group_ids`): a member must belong to every one. */
export interface PermissionGroupsTable {
  permission_id: number;
  group_id: number;
}

export interface EntriesTable {
  id: Id;
  path: string;
  path_key: string;
  parent_key: string;
  type: 'directory' | 'file';
  size: number | null;
  storage_key: string | null;
  created_at: number;
  mtime: number;
  /** Hex SHA-256 of a file's contents (null for directories). */
  sha256: string | null;
  /** Hex MD5, SHA-1 and CRC-32 of a file's contents (null for directories and files stored before they were kept). */
  md5: ColumnType<string | null, string | null | undefined, string | null>;
  sha1: ColumnType<string | null, string | null | undefined, string | null>;
  crc32: ColumnType<string | null, string | null | undefined, string | null>;
  /** The modification time (epoch ms) the client gave, if any. */
  provided_mtime: ColumnType<number | null, number | null | undefined, number | null>;
  /** The user who created the entry, and who last replaced a file's contents (null: unknown, or no user). */
  created_by_id: ColumnType<number | null, number | null | undefined, number | null>;
  last_modified_by_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** An upload in progress (docs/files.md): it becomes an entry only when it ends. */
export interface UploadsTable {
  id: Id;
  /** The random reference a client quotes to go on with the upload. */
  ref: string;
  /** Qualified site path the file will take, display spelling. */
  path: string;
  path_key: string;
  /** The request context the upload began in: its responses show paths as that context does. */
  context_workspace_id: number;
  /** The owner: a user, or for a site-wide key (no user) the key. */
  user_id: number | null;
  api_key_id: number | null;
  mkdir_parents: Flag;
  created_at: number;
  expires_at: number;
}

export interface UploadPartsTable {
  upload_id: number;
  part_number: number;
  storage_key: string;
  size: number;
  sha256: string;
}

/** Secrets the server generates once and every node shares (the transfer-URL signing key). */
export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

export interface LoginFailuresTable {
  id: Id;
  username_key: string;
  client_ip: string;
  created_at: number;
}

export interface LoginLockoutsTable {
  username_key: string;
  locked_until: number;
}

export interface SiteSettingsTable {
  name: string;
  /** JSON text of the value. */
  value: string;
}

/** One recorded action (docs/history.md). Times are epoch milliseconds; `targets` is JSON text. */
export interface HistoryTable {
  id: number;
  created_at: number;
  action: string;
  failure_type: string | null;
  interface: string;
  ip: string | null;
  user_id: number | null;
  username: string | null;
  api_key_id: number | null;
  /** The Workspace the record belongs to; null for a site-level record. */
  workspace_id: number | null;
  path: string | null;
  path_key: string | null;
  source: string | null;
  destination: string | null;
  destination_key: string | null;
  display: string;
  targets: string | null;
  hash: string;
  /** The automation that made the change, and its name then; null for anyone else's. */
  automation_id: number | null;
  automation_name: string | null;
}

/** The one row (id 1) that holds the end and the pruned start of the History hash chain. */
export interface HistoryChainTable {
  id: number;
  last_id: number;
  last_hash: string;
  pruned_id: number;
  pruned_hash: string;
}

/** A saved History export (POST /history_exports): its query and the last record it covers. */
export interface HistoryExportsTable {
  id: Generated<number>;
  created_at: number;
  user_id: number | null;
  api_key_id: number | null;
  /** The request context it was made in. */
  workspace_id: number;
  max_id: number;
  /** JSON text of the query (HistoryQuery). */
  query: string;
}

/** A WebDAV lock (repositories/dav-locks.ts); times are epoch milliseconds. */
export interface DavLocksTable {
  token: string;
  path: string;
  path_key: string;
  collection: Flag;
  depth: '0' | 'infinity';
  scope: 'exclusive' | 'shared';
  owner_xml: string | null;
  user_id: number | null;
  allow_access_by_any_user: DefaultedFlag;
  timeout_seconds: number;
  created_at: number;
  expires_at: number;
}

/** An SSH public key of a user (repositories/public-keys.ts). */
export interface PublicKeysTable {
  id: Id;
  user_id: number;
  title: string;
  /** The key type as SSH names it: ssh-ed25519, ecdsa-sha2-nistp256, ssh-rsa, ... */
  algorithm: string;
  /** The SSH wire encoding of the public key, base64: what a client presents at sign-in. */
  key_blob: string;
  /** The comment pasted after the key ('' when none). */
  comment: string;
  fingerprint_md5: string;
  fingerprint_sha256: string;
  created_at: number;
  last_login_at: number | null;
}

/** A WebDAV dead property of an entry (repositories/dav-properties.ts): the element as an XML fragment. */
export interface DavPropertiesTable {
  entry_id: number;
  namespace: string;
  name: string;
  value: string;
}

/** A run of background work (docs/background-jobs.md); `payload` is JSON text. */
export interface JobsTable {
  id: Id;
  kind: string;
  payload: string;
  run_at: number;
  status: 'queued' | 'running' | 'done' | 'failed' | 'canceled';
  attempts: Generated<number>;
  max_attempts: number;
  /** The node running it (once ended, the one that ran its last attempt), and when its lease ends: past that, another node takes it again. */
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  /** At most one job per key (for example one per schedule due time); null for none. */
  dedupe_key: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

/** An automation (docs/automations.md); the list columns and `value` are JSON text. */
export interface AutomationsTable {
  id: Id;
  workspace_id: number;
  name: Generated<string>;
  description: Generated<string>;
  automation: string;
  trigger: string;
  interval: string | null;
  recurring_days: Generated<string>;
  schedule_days_of_week: Generated<string>;
  schedule_times_of_day: Generated<string>;
  schedule_time_zone: string | null;
  path: string | null;
  source: string | null;
  exclude_pattern: string | null;
  destinations: Generated<string>;
  destination_replace_from: string | null;
  destination_replace_to: string | null;
  path_time_zone: string | null;
  trigger_actions: Generated<string>;
  /** Names the automation in its webhook URL; null unless its trigger is `webhook`. */
  webhook_id: string | null;
  /** SHA-256 (hex) of the webhook URL's secret; the secret itself is never kept. */
  webhook_secret_hash: string | null;
  disabled: DefaultedFlag;
  overwrite_files: DefaultedFlag;
  flatten_destination_structure: DefaultedFlag;
  always_overwrite_size_matching_files: DefaultedFlag;
  ignore_locked_folders: DefaultedFlag;
  retry_on_failure_interval_in_minutes: number | null;
  retry_on_failure_number_of_attempts: number | null;
  import_urls: Generated<string>;
  user_ids: Generated<string>;
  group_ids: Generated<string>;
  value: string | null;
  /** Its creator; null once that user is deleted. */
  user_id: number | null;
  created_at: number;
  last_modified_at: number;
  updated_at: number;
  /** A schedule's due times up to this (epoch ms) are queued; null until its first look. */
  scheduled_until: number | null;
}

/** A run of an automation; it goes with its automation. */
export interface AutomationRunsTable {
  id: Id;
  automation_id: number;
  workspace_id: number;
  status: string;
  created_at: number;
  completed_at: number | null;
  runtime: number | null;
  successful_operations: Generated<number>;
  failed_operations: Generated<number>;
  retry_at: number | null;
  retried_at: number | null;
  retried_in_run_id: number | null;
  retry_of_run_id: number | null;
  log: Generated<string>;
  /** Why the run was queued: JSON text of an AutomationRunCause (automations/run-cause.ts). */
  cause: Generated<string>;
}

/** One row (id 1): moved by every change of an automation (migration 024, automations/action-watch-index.ts). */
export interface AutomationWatchVersionTable {
  id: number;
  version: number | string;
}

/** A share link (docs/sharing.md). */
export interface BundlesTable {
  id: Id;
  workspace_id: number;
  /** Its creator; null once that user is deleted, which ends the link. */
  user_id: number | null;
  /** The last part of its public URL, as written. */
  code: string;
  /** The code lower-cased: no two links differ by case alone. */
  code_key: string;
  description: string | null;
  internal_name: string | null;
  note: string | null;
  expires_at: number | null;
  start_access_on_date: number | null;
  max_uses: number | null;
  /** argon2id hash of the link's password; null when it has none. */
  password_hash: string | null;
  permissions: string;
  require_registration: DefaultedFlag;
  skip_name: DefaultedFlag;
  skip_email: DefaultedFlag;
  skip_company: DefaultedFlag;
  path_template: string | null;
  path_template_time_zone: string | null;
  dont_separate_submissions_by_folder: DefaultedFlag;
  dont_allow_folders_in_uploads: DefaultedFlag;
  created_at: number;
  updated_at: number;
}

/** A path a share link shares: a qualified site path. */
export interface BundlePathsTable {
  id: Id;
  bundle_id: number;
  path: string;
  path_key: string;
  recursive: Flag;
}

/** Someone a share link was shared with (recorded; Atrium sends no mail). */
export interface BundleRecipientsTable {
  id: Id;
  bundle_id: number;
  workspace_id: number;
  recipient: string;
  /** The address lower-cased: each is recorded once per link. */
  recipient_key: string;
  name: string | null;
  company: string | null;
  note: string | null;
  sent_at: number | null;
  created_at: number;
}

/** A visitor of a share link who registered (name, email, company) on its public page. */
export interface BundleRegistrationsTable {
  id: Id;
  bundle_id: number;
  workspace_id: number;
  bundle_recipient_id: number | null;
  /** The registration's own code, which the public page keeps in the visitor's cookie. */
  code: string;
  name: string | null;
  email: string | null;
  company: string | null;
  ip: string | null;
  created_at: number;
}

/** Something a visitor did through a share link (an upload, a folder made, a registration). */
export interface BundleActionsTable {
  id: Id;
  bundle_id: number;
  workspace_id: number;
  bundle_registration_id: number | null;
  action: string;
  path: string | null;
  source: string | null;
  destination: string | null;
  created_at: number;
}

/** A download through a share link: one file, or the whole link as a ZIP. */
export interface BundleDownloadsTable {
  id: Id;
  bundle_id: number;
  workspace_id: number;
  bundle_registration_id: number | null;
  download_method: string;
  path: string | null;
  created_at: number;
}

/** One browser's visit of a share link (one use of its max_uses): its cookie's token (as SHA-256), its registration and its upload folder. */
export interface BundleVisitsTable {
  id: Id;
  bundle_id: number;
  token_hash: string;
  bundle_registration_id: number | null;
  /** The name of the folder its uploads go into (below the shared folder), once decided. */
  upload_folder: string | null;
  ip: string | null;
  created_at: number;
}

/** A wrong password given to a share link, from a client address (its key). */
export interface BundlePasswordFailuresTable {
  id: Id;
  bundle_id: number;
  client_key: string;
  created_at: number;
}

/** One deletion in the trash (docs/files.md#trash-and-versions): the deleted entry's path as it was, and what it held. */
export interface TrashTable {
  id: Id;
  path: string;
  path_key: string;
  type: 'directory' | 'file';
  deleted_at: number;
  /** Who deleted it (null: no user, a site-wide key or Atrium itself). */
  deleted_by_id: number | null;
  /** Entries, files and bytes it holds, the root included. */
  entries: number;
  files: number;
  bytes: number;
}

/** An entry of a deletion in the trash, at its path relative to the deleted root ('' for the root itself). */
export interface TrashItemsTable {
  id: Id;
  trash_id: number;
  /** The id the entry had: its versions still name it. */
  entry_id: number;
  path_suffix: string;
  key_suffix: string;
  /** Key suffix of its folder ('' for the root and its members). */
  parent_suffix: string;
  type: 'directory' | 'file';
  size: number | null;
  storage_key: string | null;
  sha256: string | null;
  md5: string | null;
  sha1: string | null;
  crc32: string | null;
  created_at: number;
  mtime: number;
  provided_mtime: number | null;
  created_by_id: number | null;
  last_modified_by_id: number | null;
}

/** An earlier content of a file (entry_id), kept when it was replaced. */
export interface FileVersionsTable {
  id: Id;
  entry_id: number;
  size: number;
  storage_key: string;
  sha256: string | null;
  md5: string | null;
  sha1: string | null;
  crc32: string | null;
  mtime: number;
  provided_mtime: number | null;
  /** Who wrote this content (null: unknown, or no user). */
  author_id: number | null;
  replaced_at: number;
  replaced_by_id: number | null;
}

export interface Tables {
  workspaces: WorkspacesTable;
  users: UsersTable;
  groups: GroupsTable;
  group_users: GroupUsersTable;
  partners: PartnersTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  user_totp: UserTotpTable;
  user_recovery_codes: UserRecoveryCodesTable;
  partial_sessions: PartialSessionsTable;
  sso_providers: SsoProvidersTable;
  sso_provider_groups: SsoProviderGroupsTable;
  sso_links: SsoLinksTable;
  sso_sign_in_flows: SsoSignInFlowsTable;
  user_passkeys: UserPasskeysTable;
  permissions: PermissionsTable;
  permission_groups: PermissionGroupsTable;
  entries: EntriesTable;
  uploads: UploadsTable;
  upload_parts: UploadPartsTable;
  server_secrets: ServerSecretsTable;
  login_failures: LoginFailuresTable;
  login_lockouts: LoginLockoutsTable;
  site_settings: SiteSettingsTable;
  history: HistoryTable;
  history_chain: HistoryChainTable;
  history_exports: HistoryExportsTable;
  dav_properties: DavPropertiesTable;
  dav_locks: DavLocksTable;
  public_keys: PublicKeysTable;
  jobs: JobsTable;
  automations: AutomationsTable;
  automation_runs: AutomationRunsTable;
  automation_watch_version: AutomationWatchVersionTable;
  bundles: BundlesTable;
  bundle_paths: BundlePathsTable;
  bundle_recipients: BundleRecipientsTable;
  bundle_registrations: BundleRegistrationsTable;
  bundle_actions: BundleActionsTable;
  bundle_downloads: BundleDownloadsTable;
  bundle_visits: BundleVisitsTable;
  bundle_password_failures: BundlePasswordFailuresTable;
  trash: TrashTable;
  trash_items: TrashItemsTable;
  file_versions: FileVersionsTable;
}
