import { AtriumError, type ErrorDetails, type ModelErrors } from './atrium-error.js';

/**
 * Named constructors for every error type Atrium answers with, so a type string is spelled once.
 * The list of types and when each is used is in docs/errors.md.
 */
export const errors = {
  invalidBody: (message = 'The request body must be a JSON object.') => new AtriumError('bad-request/invalid-body', message),
  paramsRequired: (modelErrors: ModelErrors) =>
    new AtriumError('bad-request/request-params-required', describe('Required parameters are missing', modelErrors), { modelErrors }),
  paramsInvalid: (modelErrors: ModelErrors) =>
    new AtriumError('bad-request/request-params-invalid', describe('Parameters are invalid', modelErrors), { modelErrors }),
  invalidPath: (message: string) => new AtriumError('bad-request/invalid-path', message),
  invalidCursor: () => new AtriumError('bad-request/invalid-cursor', 'The cursor is malformed or belongs to another listing.'),
  invalidCursorTypeForSort: () =>
    new AtriumError('bad-request/invalid-cursor-type-for-sort', 'The cursor belongs to this listing in another order: send the sort_by it was made with, or start again without a cursor.'),
  invalidSortField: (message: string) => new AtriumError('bad-request/invalid-sort-field', message),
  invalidFilterField: (message: string) => new AtriumError('bad-request/invalid-filter-field', message),
  invalidSortFilterCombination: (message: string, modelErrors: ModelErrors) =>
    new AtriumError('bad-request/invalid-sort-filter-combination', message, { modelErrors }),
  multipleSortParamsNotAllowed: () =>
    new AtriumError('bad-request/multiple-sort-params-not-allowed', 'A listing is sorted by one field at a time: send a single sort_by[<field>]=asc|desc.'),
  invalidWorkspaceIdHeader: (message: string) => new AtriumError('bad-request/invalid-workspace-id-header', message, { header: 'workspace' }),
  unsupportedMediaType: (contentType: string | undefined) =>
    new AtriumError(
      'bad-request/unsupported-media-type',
      `${contentType === undefined ? 'The request body has no Content-Type' : `Content-Type "${contentType}" is not accepted`}: ` +
        'send the body as JSON with Content-Type: application/json (form and multipart bodies are not read).',
    ),
  bodyTooLarge: () => new AtriumError('bad-request/request-body-too-large', 'The request body is larger than the 1 MiB a JSON request may carry; file contents go through an upload (POST /file_actions/begin_upload/<path>).'),
  methodNotAllowed: (method: string) => new AtriumError('bad-request/method-not-allowed', `Method ${method} is not allowed on this resource.`),

  authenticationRequired: () => new AtriumError('not-authenticated/authentication-required', 'Authentication required.', { header: 'credentials' }),
  /** /metrics asks for its own token, never for an API key or a session. */
  metricsTokenRequired: () =>
    new AtriumError('not-authenticated/authentication-required', 'Metrics are read with the metrics token (ATRIUM_METRICS_TOKEN), sent as Authorization: Bearer <token>.'),
  /** Credentials were sent, but only in headers this server does not read (another header brand). */
  credentialsInUnreadHeaders: (message: string) => new AtriumError('not-authenticated/authentication-required', message),
  invalidCredentials: () =>
    new AtriumError('not-authenticated/invalid-credentials', 'The API key or session id is not valid: it is unknown, expired, or has been deleted.'),
  invalidSession: () =>
    new AtriumError('not-authenticated/invalid-session', 'The session has ended or timed out; log in again (POST /sessions).'),

  siteAdminRequired: () => new AtriumError('not-authorized/site-admin-required', 'Only a Site Administrator may do this.'),
  /** `about` names the request header the refusal comes from, when it does (see ErrorDetails.header). */
  insufficientPermissionForParams: (message: string, about: Pick<ErrorDetails, 'header'> = {}) =>
    new AtriumError('not-authorized/insufficient-permission-for-params', message, about),
  apiKeyIsFilesOnly: () =>
    new AtriumError('not-authorized/api-key-is-files-only', 'This API key is files_only: it may only be used for file and folder operations.'),
  /** The user's own settings refuse this door or this address (access/door-admission.ts). */
  protocolNotPermitted: (door: string) =>
    new AtriumError('not-authorized/insufficient-permission-for-site', `This user may not use ${door}: an administrator has turned it off for the account.`),
  addressNotAllowed: () =>
    new AtriumError('not-authorized/ip-address-not-allowed', 'Connections from this address are not allowed: it is in none of the allowed IPs of the site, the account or its groups.'),
  sslRequired: () =>
    new AtriumError('not-authorized/insufficient-permission-for-site', 'This user must connect over HTTPS: the account requires an encrypted connection (ssl_required).'),
  /** A session whose user must change its password first (access/password-change-gate.ts). */
  passwordChangeRequired: () =>
    new AtriumError('not-authorized/password-change-required', 'This user must change its password before doing anything else: set a new one with PATCH /users/<own id> {password}.'),

  notFound: (message = 'Not found.') => new AtriumError('not-found', message),
  workspaceNotFound: () => new AtriumError('not-found/workspace-not-found', 'Workspace not found.'),

  // Workspaces, users and groups
  userNotFound: () => new AtriumError('not-found/user-not-found', 'User not found.'),
  groupNotFound: () => new AtriumError('not-found/group-not-found', 'Group not found.'),
  // Files.com's SDKs define no type for a missing Partner: plain `not-found`, named in the message.
  partnerNotFound: () => new AtriumError('not-found', 'Partner not found.'),
  automationNotFound: () => new AtriumError('not-found', 'Automation not found.'),
  // Single sign-on (docs/authentication.md#single-sign-on-openid-connect): no type in Files.com's SDKs either.
  ssoProviderNotFound: () => new AtriumError('not-found', 'SSO provider not found.'),
  ssoLinkNotFound: () => new AtriumError('not-found', 'SSO link not found.'),
  automationRunNotFound: () => new AtriumError('not-found', 'Automation run not found.'),
  // Share links (docs/sharing.md). Files.com's SDKs define no type for a missing link: plain `not-found`, named in the message.
  bundleNotFound: () => new AtriumError('not-found', 'Bundle not found.'),
  /** Any share link that is missing or does not work now, to its visitors: one answer, in the site's words when it has some. */
  publicBundleNotFound: (message: string) =>
    new AtriumError('not-found/bundle-not-found', message === '' ? 'This link does not exist or is no longer available.' : message),
  bundlePasswordIncorrect: () => new AtriumError('not-authenticated/bundle-password-incorrect', 'The password of this link is not right.'),
  bundleVisitRequired: () =>
    new AtriumError('not-authenticated/bundle-visit-required', 'This link asks for its password or its visitors\' registration first (POST /api/public/bundles/<code>/visits).'),
  bundleOnlyAllowsPreviews: () => new AtriumError('processing-failure/bundle-only-allows-previews', 'This link allows previews only: its files are shown, not downloaded.'),
  tooManyBundlePasswordAttempts: (retryAfterSeconds: number) =>
    new AtriumError('rate-limited/too-many-bundle-password-attempts', 'Too many wrong passwords for this link or from this address. Try again later.', { retryAfterSeconds }),
  bundleRegistrationNotFound: () => new AtriumError('not-found/bundle-registration-not-found', 'Bundle registration not found.'),
  bundlePathNotFound: (path: string) =>
    new AtriumError('not-found/bundle-path-not-found', `Nothing to share at "${shownPath(path)}": no such file or folder, or one you cannot see.`, { modelErrors: { paths: [`"${shownPath(path)}" was not found`] } }),
  bundlePermissionRequired: (path: string) =>
    new AtriumError('not-authorized/bundle-permission-required', `Sharing "${shownPath(path)}" needs the Share (bundle) permission on it, or admin.`),
  writeAndBundlePermissionRequired: (path: string) =>
    new AtriumError('not-authorized/write-and-bundle-permission-required', `A link that takes uploads into "${shownPath(path)}" needs both the Share (bundle) permission and write permission there.`),
  sharingDisabled: () =>
    new AtriumError('not-authorized/not-allowed-to-create-bundle', 'Sharing is turned off on this site (the site setting sharing_enabled): no share link can be created.'),
  bundleNamesNotAllowed: () =>
    new AtriumError('not-authorized/insufficient-permission-for-params', 'Choosing a share link\'s code is turned off on this site (the site setting allow_bundle_names): leave code out, and a random one is made.', { modelErrors: { code: ['may not be chosen on this site'] } }),
  invalidBundleCode: (message: string) =>
    new AtriumError('processing-failure/invalid-bundle-code', message, { modelErrors: { code: [message] } }),
  recipientAlreadyShared: () =>
    new AtriumError('processing-failure/recipient-already-shared', 'This share link is already shared with this recipient.', { modelErrors: { recipient: ['is already a recipient of this link'] } }),
  membershipNotFound: () => new AtriumError('not-found/group-user-not-found', 'Group membership not found.'),
  modelSaveError: (modelErrors: ModelErrors) =>
    new AtriumError('processing-failure/model-save-error', describe('The change cannot be saved', modelErrors), { modelErrors }),
  workspaceAdminRequired: () =>
    new AtriumError('not-authorized/site-admin-or-workspace-admin-permission-required', 'Only an administrator of this Workspace may do this.'),
  /** A Partner Admin refused what its Partner's flags do not allow (access/partner-admin-authority.ts). */
  partnerAdminPermissionRequired: (message: string) =>
    new AtriumError('not-authorized/site-admin-or-workspace-admin-or-partner-admin-permission-required', message),
  automationCannotBeRunManually: () =>
    new AtriumError('processing-failure/automation-cannot-be-run-manually', 'This automation runs when files change (trigger action): it cannot be run manually.'),
  mailServerNotConfigured: () =>
    new AtriumError('processing-failure/mail-server-not-configured', 'No mail server is configured: Atrium sends no email, so the welcome email cannot be sent. Give the user its username and a way to sign in yourself.'),
  groupAdminRequired: () =>
    new AtriumError('not-authorized/group-admin-permission-required', 'Only an administrator of this Workspace or a Group Admin of this group may do this.'),

  serviceUnavailable: () =>
    new AtriumError('service-unavailable/database-unavailable', 'The database cannot be reached; try again shortly.'),

  // Authentication (sessions, keys, reauthentication, login protection)
  invalidUsernameOrPassword: () =>
    new AtriumError('not-authenticated/invalid-username-or-password', 'The username or password is not valid.'),
  lockedOut: () =>
    new AtriumError('not-authenticated/locked-out', 'Too many failed logins: this account is locked for a while. Try again later.'),
  tooManyLoginAttempts: (retryAfterSeconds: number) =>
    new AtriumError('rate-limited/too-many-login-attempts', 'Too many failed logins from this address. Try again later.', { retryAfterSeconds }),
  /**
   * A correct password of a user with a second factor (docs/authentication.md#the-challenge):
   * Files.com's challenge, whose `data` the SDKs and the CLI read; the CLI prints the message
   * without its "2FA Authentication error: " prefix.
   */
  twoFactorChallenge: (data: { partial_session_id: string; two_factor_authentication_methods: string[] } = { partial_session_id: '', two_factor_authentication_methods: ['totp'] }) =>
    new AtriumError('not-authenticated/two-factor-authentication-error', `2FA Authentication error: ${challengeWords(data.two_factor_authentication_methods)}`, { data }),
  oneTimePasswordIncorrect: () =>
    new AtriumError('not-authenticated/one-time-password-incorrect', 'The code is not valid: it is wrong, was already used, or has expired. Enter the current code from your authenticator app, or one of your recovery codes.'),
  /** The site requires a second factor the user has not set up: the partial session opens only its enrolment. */
  twoFactorRequired: (data: { partial_session_id: string } = { partial_session_id: '' }) =>
    new AtriumError('not-authorized/two-factor-authentication-required', 'This site requires two-factor authentication: set up an authenticator app (or, in the web console, a passkey) to finish signing in.', { data }),
  partialSessionExpired: () =>
    new AtriumError('not-authenticated/two-factor-authentication-setup-expired', 'This sign-in has expired (after a few minutes, or after five wrong codes): sign in again with your username and password.'),
  twoFactorMethodNotAllowed: (method = 'this method') =>
    new AtriumError('processing-failure/two-factor-authentication-method-unsupported-error', `This site does not offer ${method} as a second factor (site settings allowed_2fa_method_*).`),
  secondFactorsNeedSession: () =>
    new AtriumError('not-authorized/reauthentication-needed-action', 'Two-factor authentication is changed by its user, signed in with a password (a session): an API key cannot change it.'),
  twoFactorSetupNotStarted: () =>
    new AtriumError('processing-failure/two-factor-authentication-general-error', 'There is no authenticator app being set up: start with POST /2fa/totp.'),
  reauthenticationNeededFields: () =>
    new AtriumError('bad-request/reauthentication-needed-fields', 'Changing these fields needs your password again (reauthentication).', { header: 'reauthentication' }),
  reauthenticationNeededAction: () =>
    new AtriumError('not-authorized/reauthentication-needed-action', 'This action needs your password again (reauthentication).', { header: 'reauthentication' }),
  reauthenticationFailed: () =>
    new AtriumError('not-authorized/reauthentication-failed', 'The reauthentication password is not valid.', { header: 'reauthentication' }),
  reauthenticationRateLimited: () =>
    new AtriumError('rate-limited/reauthentication-rate-limited', 'Too many failed reauthentications: the session has been ended. Log in again.', { retryAfterSeconds: 0 }),
  apiKeyNotFound: () => new AtriumError('not-found/api-key-not-found', 'API key not found.'),
  // Files.com has no type of its own for a missing public key: plain `not-found`, named in the message.
  publicKeyNotFound: () => new AtriumError('not-found', 'Public key not found.'),
  // Passkeys (docs/authentication.md#passkeys). Files.com has no type of its own for a missing passkey: plain `not-found`.
  passkeyNotFound: () => new AtriumError('not-found', 'Passkey not found.'),
  noPasskeys: () =>
    new AtriumError('processing-failure/two-factor-authentication-method-unsupported-error', 'This user has no passkey: sign in with another second factor.'),
  passkeyRegistrationNotWaiting: () =>
    new AtriumError('processing-failure/two-factor-authentication-general-error', 'No passkey registration is waiting for this answer: it was answered already, has expired, or was never started. Ask for new options (POST /2fa/passkeys/options) and try again.'),
  passkeyNotAccepted: () =>
    new AtriumError('not-authenticated/one-time-password-incorrect', 'The passkey was not accepted: it is not one of this account\'s, or its answer was for another challenge or site. Try again with one of your passkeys, or use a code.'),
  passkeyNotVerified: (reason: string) =>
    new AtriumError('processing-failure/two-factor-authentication-general-error', `The passkey could not be verified: ${shownReason(reason)}`, { modelErrors: { response: [shownReason(reason)] } }),
  apiKeyCreationRestricted: () =>
    new AtriumError(
      'not-authorized/site-admin-or-workspace-admin-permission-required',
      'API key creation by users is turned off on this site (users_can_create_api_keys); an administrator may create keys.',
    ),

  // Folder permissions
  folderAdminPermissionRequired: (message = 'Admin authority over this folder is needed: be its Folder Admin or an administrator of its Workspace.') =>
    new AtriumError('not-authorized/folder-admin-permission-required', message),
  permissionNotFound: () => new AtriumError('not-found/permission-not-found', 'Permission not found.'),

  // Folders and files
  fileNotFound: () => new AtriumError('not-found/file-not-found', 'File or folder not found.'),
  trashedNotFound: () => new AtriumError('not-found/trashed-entry-not-found', 'Nothing with this id is in the trash for you: it was restored or purged, or you could not delete it where it was.'),
  fileVersionNotFound: () => new AtriumError('not-found/file-version-not-found', 'This file has no version with this id (it was restored, or trimmed to the site\'s count of versions).'),
  fileUploadNotFound: () =>
    new AtriumError('not-found/file-upload-not-found', 'Upload not found: it was ended, has expired, or belongs to another caller.'),
  readPermissionRequired: () =>
    new AtriumError('not-authorized/read-permission-required', 'Read permission on this file is needed to download it.'),
  writePermissionRequired: (message = 'Write permission on the destination folder is needed.') =>
    new AtriumError('not-authorized/write-permission-required', message),
  fullPermissionRequired: (message = 'Full permission is needed to delete, move, rename or overwrite this.') =>
    new AtriumError('not-authorized/full-permission-required', message),
  destinationExists: () => new AtriumError('processing-failure/destination-exists', 'Something already exists at the destination path.'),
  destinationParentDoesNotExist: () =>
    new AtriumError('processing-failure/destination-parent-does-not-exist', 'The destination folder does not exist; send mkdir_parents=true to create it.'),
  destinationParentConflict: () =>
    new AtriumError('processing-failure/destination-parent-conflict', 'A file stands where the destination needs a folder.'),
  folderNotEmpty: () => new AtriumError('processing-failure/folder-not-empty', 'The folder is not empty; send recursive=true to delete it with its contents.'),
  cannotDownloadDirectory: () => new AtriumError('bad-request/cannot-download-directory', 'A folder cannot be downloaded; list it instead.'),
  destinationSame: () => new AtriumError('bad-request/destination-same', 'The destination is the source itself.'),
  destinationInsideSource: () => new AtriumError('bad-request/destination-inside-source', 'A folder cannot be moved or copied into itself.'),
  uploadTooLarge: (maxBytes: number) =>
    new AtriumError('bad-request/request-body-too-large', `The file is larger than this server accepts (at most ${maxBytes} bytes; ATRIUM_MAX_UPLOAD_BYTES).`),
  uploadIncomplete: () => new AtriumError('bad-request/upload-incomplete', 'The upload ended before all of its bytes arrived; nothing was stored.'),
  partNumberTooLarge: (part: number, maxParts: number) =>
    new AtriumError('bad-request/part-number-too-large', `Part ${part} is beyond the last part an upload may have (${maxParts}).`, {
      modelErrors: { part: [`must be at most ${maxParts}, with the parts asked for`] },
    }),
  uploadPartGap: (missing: number) =>
    new AtriumError('bad-request/invalid-upload-part-gap', `Part ${missing} was never uploaded; parts must be numbered 1, 2, 3, ... without gaps.`),
  invalidEtags: (detail: string) =>
    new AtriumError('bad-request/invalid-etags', `The etags sent to end the upload do not match the parts received: ${detail}`, { modelErrors: { etags: [detail] } }),
  uploadPartLost: (part: number) =>
    new AtriumError('processing-failure/upload-part-lost', `Part ${part} was lost by the server before the upload ended (an operating system crash); send it again, then end the upload again.`),
  uploadPartsChanged: () =>
    new AtriumError('processing-failure/upload-parts-changed', 'A part was sent again while the upload was ending; end the upload again.'),
  transferLinkExpired: () =>
    new AtriumError('not-authenticated/transfer-link-expired', 'This upload or download link has expired; ask the API for a new one.'),

  // WebDAV's dead properties, and the locks of WebDAV and the REST API (docs/webdav.md, docs/files.md)
  storageLimitReached: (message: string) => new AtriumError('processing-failure/storage-limit-reached', message),
  fileLocked: () =>
    new AtriumError('processing-failure/file-locked', 'The file is locked by another user (a lock taken through the REST API or WebDAV): only its holder may change it until the lock is removed or times out.'),
  folderLocked: () =>
    new AtriumError('processing-failure/folder-locked', 'The folder is locked by another user (a lock taken through the REST API or WebDAV): only its holder may change it or what it holds until the lock is removed or times out.'),
  lockConflict: () =>
    new AtriumError('processing-failure/resource-locked', 'Another lock stands in the way: an exclusive lock covers this path (or lies below it), or this lock would be exclusive where another one is.'),
  lockRemovalRestricted: () =>
    new AtriumError('not-authorized/site-admin-or-workspace-admin-permission-required', 'Only the user who took a lock, or an administrator, may remove it.'),
} as const;

/** A verifier's reason, which may quote what the client sent: bounded. */
function shownReason(reason: unknown): string {
  return String(reason).slice(0, 300);
}

/** A path as a message names it: bounded, so a hostile one cannot make the answer large. */
function shownPath(path: unknown): string {
  return String(path).slice(0, 200);
}

function describe(prefix: string, modelErrors: ModelErrors): string {
  const details = Object.entries(modelErrors).map(([field, messages]) => `${field} ${messages.join(', ')}`);
  return details.length === 0 ? `${prefix}.` : `${prefix}: ${details.join('; ')}.`;
}

/** The challenge's words for the methods it offers (what the CLI shows before asking). */
function challengeWords(methods: readonly string[] | undefined = []): string {
  if (methods.includes('totp')) return 'Enter the code from your authenticator app, or a recovery code.';
  if (methods.includes('webauthn')) return 'Use your passkey.';
  // A passkey-only user at an API client: nothing it can answer but a recovery code.
  return 'This account\'s second factor is a passkey, which only the web console can use: sign in there, send a recovery code as otp, or use an API key.';
}
