import { filesystemLayoutOf } from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import { readAddressList } from '../lib/address-list.js';
import { parseIsoTimeInput } from '../lib/iso-time-input.js';
import { type NameParts, SSL_REQUIRED_VALUES, type SslRequired, type User, type UserProfile, REQUIRE_2FA_VALUES, type Require2fa } from '../repositories/users.js';

const MAX_USERNAME_LENGTH = 128;
const MAX_TEXT_LENGTH = 255;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** A username: 1 to 128 characters after trimming, no control characters, no `/` or `\`. */
export function checkUsername(raw: string): string {
  const username = raw.normalize('NFC').trim();
  if (username === '') throw errors.modelSaveError({ username: ["can't be blank"] });
  if ([...username].length > MAX_USERNAME_LENGTH) throw errors.modelSaveError({ username: [`is too long (maximum is ${MAX_USERNAME_LENGTH} characters)`] });
  if (CONTROL_CHARACTERS.test(username) || /[/\\]/.test(username)) {
    throw errors.modelSaveError({ username: ['may not contain control characters, "/" or "\\"'] });
  }
  return username;
}

/** An identity provider's identifier for a record: kept as sent, bounded, no control characters; empty is none. */
export function checkExternalId(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if ([...raw].length > MAX_TEXT_LENGTH) throw errors.modelSaveError({ externalId: [`is too long (maximum is ${MAX_TEXT_LENGTH} characters)`] });
  if (CONTROL_CHARACTERS.test(raw)) throw errors.modelSaveError({ externalId: ['may not contain control characters'] });
  return raw;
}

/** Free text such as a user's `name` or `email`: trimmed, bounded. */
export function checkText(field: string, raw: string): string {
  const text = raw.normalize('NFC').trim();
  if ([...text].length > MAX_TEXT_LENGTH) throw errors.modelSaveError({ [field]: [`is too long (maximum is ${MAX_TEXT_LENGTH} characters)`] });
  if (CONTROL_CHARACTERS.test(text)) throw errors.modelSaveError({ [field]: ['may not contain control characters'] });
  return text;
}

/** The parts of a name an identity provider sent: each free text, kept as sent (trimmed); empty is none. */
export function checkNameParts(parts: NameParts): NameParts {
  const part = (field: string, raw: string | null) => (raw === null || raw.trim() === '' ? null : checkText(field, raw));
  return { givenName: part('name.givenName', parts.givenName), familyName: part('name.familyName', parts.familyName) };
}

const MAX_NOTES_LENGTH = 4096;
const MAX_PATH_LENGTH = 4096;
// Notes may run over lines; every other control character is refused.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL_CHARACTERS_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Free text over several lines (a user's or a group's notes): bounded, no control characters but line breaks and tabs. */
export function checkNotes(field: string, raw: string): string {
  const text = raw.normalize('NFC').trim();
  if ([...text].length > MAX_NOTES_LENGTH) throw errors.modelSaveError({ [field]: [`is too long (maximum is ${MAX_NOTES_LENGTH} characters)`] });
  if (CONTROL_CHARACTERS_BUT_LINES.test(text)) throw errors.modelSaveError({ [field]: ['may not contain control characters other than line breaks and tabs'] });
  return text;
}

/** An IANA time zone name (`Europe/Berlin`, `UTC`), as the platform knows them; empty is none. */
export function checkTimeZone(raw: string | null): string | null {
  const zone = raw?.trim() ?? '';
  if (zone === '') return null;
  try {
    // The platform's own list of zones: an unknown name is a RangeError.
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw errors.modelSaveError({ time_zone: ['is not a known IANA time zone name (such as Europe/Berlin or UTC)'] });
  }
  if (zone.length > 64) throw errors.modelSaveError({ time_zone: ['is not a known IANA time zone name (such as Europe/Berlin or UTC)'] });
  return zone;
}

/** A short language tag (`en`, `de`, `pt-BR`, BCP 47 shape); empty is none. */
export function checkLanguage(raw: string | null): string | null {
  const tag = raw?.trim() ?? '';
  if (tag === '') return null;
  if (tag.length > 35 || !/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/.test(tag)) {
    throw errors.modelSaveError({ language: ['is not a language tag (such as en, de or pt-BR)'] });
  }
  return tag;
}

/**
 * The addresses a user (or a group's members) may come from, read as lib/address-list.ts reads
 * every such list; kept one a line; empty is any address.
 */
export function checkAllowedIps(raw: string | null): string {
  const reading = readAddressList(raw);
  if ('problem' in reading) throw errors.modelSaveError({ allowed_ips: [reading.problem] });
  return reading.list;
}

/** A folder path (`user_root`): no `.` or `..` segment, no control characters; slashes at the ends dropped. */
export function checkUserRoot(raw: string | null): string {
  const path = (raw ?? '').normalize('NFC').trim().replace(/^\/+|\/+$/g, '');
  if (path === '') return '';
  const invalid = (message: string) => errors.modelSaveError({ user_root: [message] });
  if (path.length > MAX_PATH_LENGTH) throw invalid(`is too long (maximum is ${MAX_PATH_LENGTH} characters)`);
  if (CONTROL_CHARACTERS.test(path) || path.includes('\\')) throw invalid('may not contain control characters or "\\"');
  const segments = path.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) throw invalid('may not contain empty, "." or ".." segments');
  return segments.join('/');
}

/**
 * `filesystem_layout` as sent for a user (Files.com's field; access/path-frame.ts decides it): it
 * follows from what the user is, so it is never set. A Partner user's is `partner_root`, and
 * another value sent for one is refused, since it would ask for a view of the files a Partner
 * user may not have; the same value, as clients send it back on save, is no change. For any other
 * user the field is not taken, as before Partners had a layout.
 */
export function checkFilesystemLayout(user: Pick<User, 'partnerId' | 'workspaceId'>, raw: string | undefined): void {
  if (raw === undefined || user.partnerId === null) return;
  const layout = filesystemLayoutOf(user);
  if (raw !== layout) throw errors.modelSaveError({ filesystem_layout: [`is ${layout} for a Partner user, who sees its Partner's root folder as its root`] });
}

/** An ISO-8601 time with a zone (or a date, midnight UTC), to the second; null or empty is never. */
export function checkAuthenticateUntil(raw: string | null): number | null {
  if (raw === null || raw.trim() === '') return null;
  const epochMs = parseIsoTimeInput(raw);
  if (epochMs === undefined) throw errors.modelSaveError({ authenticate_until: ['is not an ISO-8601 time with a zone (such as 2026-01-02T03:04:05Z)'] });
  return Math.floor(epochMs / 1000) * 1000;
}

export function checkRequire2fa(raw: string): Require2fa {
  if (!(REQUIRE_2FA_VALUES as readonly string[]).includes(raw)) throw errors.modelSaveError({ require_2fa: [`must be one of ${REQUIRE_2FA_VALUES.join(', ')}`] });
  return raw as Require2fa;
}

export function checkSslRequired(raw: string): SslRequired {
  if (!(SSL_REQUIRED_VALUES as readonly string[]).includes(raw)) throw errors.modelSaveError({ ssl_required: [`must be one of ${SSL_REQUIRED_VALUES.join(', ')}`] });
  return raw as SslRequired;
}

/** A user's profile fields as sent: text where the stored value is a time or a choice. */
export interface UserProfileInput {
  timeZone?: string | null;
  language?: string | null;
  company?: string | null;
  notes?: string | null;
  allowedIps?: string | null;
  userRoot?: string | null;
  /** Not stored: checked against the user's layout (checkFilesystemLayout). */
  filesystemLayout?: string;
  authenticateUntil?: string | null;
  requirePasswordChange?: boolean;
  sslRequired?: string;
  require2fa?: string;
  sftpPermission?: boolean;
  davPermission?: boolean;
  ftpPermission?: boolean;
  restapiPermission?: boolean;
}

/** The fields that govern access: only an administrator of the user's Workspace sets them. */
export const PRIVILEGED_PROFILE_FIELDS = {
  authenticateUntil: 'authenticate_until', allowedIps: 'allowed_ips', userRoot: 'user_root', requirePasswordChange: 'require_password_change',
  sslRequired: 'ssl_required', require2fa: 'require_2fa', sftpPermission: 'sftp_permission', davPermission: 'dav_permission', ftpPermission: 'ftp_permission',
  restapiPermission: 'restapi_permission',
} as const satisfies Partial<Record<keyof UserProfile, string>>;

/** Each field sent, checked and in its stored form; fields not sent are absent. */
export function checkUserProfile(input: UserProfileInput): Partial<UserProfile> {
  const checked: Partial<UserProfile> = {};
  if (input.timeZone !== undefined) checked.timeZone = checkTimeZone(input.timeZone);
  if (input.language !== undefined) checked.language = checkLanguage(input.language);
  if (input.company !== undefined) checked.company = checkText('company', input.company ?? '');
  if (input.notes !== undefined) checked.notes = checkNotes('notes', input.notes ?? '');
  if (input.allowedIps !== undefined) checked.allowedIps = checkAllowedIps(input.allowedIps);
  if (input.userRoot !== undefined) checked.userRoot = checkUserRoot(input.userRoot);
  if (input.authenticateUntil !== undefined) checked.authenticateUntil = checkAuthenticateUntil(input.authenticateUntil);
  if (input.requirePasswordChange !== undefined) checked.requirePasswordChange = input.requirePasswordChange;
  if (input.sslRequired !== undefined) checked.sslRequired = checkSslRequired(input.sslRequired);
  if (input.require2fa !== undefined) checked.require2fa = checkRequire2fa(input.require2fa);
  if (input.sftpPermission !== undefined) checked.sftpPermission = input.sftpPermission;
  if (input.davPermission !== undefined) checked.davPermission = input.davPermission;
  if (input.ftpPermission !== undefined) checked.ftpPermission = input.ftpPermission;
  if (input.restapiPermission !== undefined) checked.restapiPermission = input.restapiPermission;
  return checked;
}
