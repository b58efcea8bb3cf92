import { SHARE_LINK_PERMISSIONS } from '../access/index.js';
import { lookUpTimeZone } from '../automations/index.js';
import { errors } from '../errors/catalogue.js';
import { parseIsoTimeInput } from '../lib/iso-time-input.js';
import type { BundleSettings } from '../repositories/bundles.js';

// The rules of a share link's own fields (docs/sharing.md#fields). Each refusal names its field: a
// value outside a field's list or of the wrong form is `request-params-invalid` (400); what
// Files.com has and Atrium does not do is `model-save-error` (422), saying why.

/** What a link lets its visitors do (Files.com's `permissions`), as access/share-link-reach.ts reads them. */
export const BUNDLE_PERMISSIONS = SHARE_LINK_PERMISSIONS;

const MAX_TEXT = 16_384;
const MAX_PATH_TEMPLATE = 5000;
const MAX_PASSWORD = 1024;
const MAX_USES = 2_147_483_647;

const invalid = (field: string, message: string) => errors.paramsInvalid({ [field]: [message] });

/** A request's fields as the route read them. */
export interface BundleFieldsInput {
  description?: string | null;
  internal_name?: string | null;
  note?: string | null;
  expires_at?: string | null;
  start_access_on_date?: string | null;
  max_uses?: number | null;
  permissions?: string | null;
  require_registration?: boolean;
  require_share_recipient?: boolean;
  skip_name?: boolean;
  skip_email?: boolean;
  skip_company?: boolean;
  path_template?: string | null;
  path_template_time_zone?: string | null;
  dont_separate_submissions_by_folder?: boolean;
  dont_allow_folders_in_uploads?: boolean;
}

const FLAGS = ['require_registration', 'skip_name', 'skip_email', 'skip_company', 'dont_separate_submissions_by_folder', 'dont_allow_folders_in_uploads'] as const;

/** Each field sent, checked and in its kept form; fields not sent stay absent. */
export function checkBundleFields(input: BundleFieldsInput): Partial<BundleSettings> {
  const out: Partial<BundleSettings> = {};
  if (input.description !== undefined) out.description = optionalText('description', input.description, MAX_TEXT);
  if (input.internal_name !== undefined) out.internal_name = optionalText('internal_name', input.internal_name, MAX_TEXT);
  if (input.note !== undefined) out.note = optionalText('note', input.note, MAX_TEXT);
  if (input.expires_at !== undefined) out.expires_at = time('expires_at', input.expires_at);
  if (input.start_access_on_date !== undefined) out.start_access_on_date = time('start_access_on_date', input.start_access_on_date);
  if (input.max_uses !== undefined) out.max_uses = maxUses(input.max_uses);
  if (input.permissions !== undefined && input.permissions !== null) out.permissions = permissions(input.permissions);
  if (input.require_share_recipient === true) {
    throw errors.modelSaveError({ require_share_recipient: ['is not offered: Atrium sends no mail, so a link cannot be limited to the people it was mailed to'] });
  }
  for (const flag of FLAGS) {
    const value = input[flag];
    if (value !== undefined) out[flag] = value;
  }
  if (input.path_template !== undefined) out.path_template = optionalText('path_template', input.path_template, MAX_PATH_TEMPLATE);
  if (input.path_template_time_zone !== undefined) out.path_template_time_zone = timeZone(input.path_template_time_zone);
  return out;
}

/** What the fields must agree on once a change is applied: access starts before it ends. */
export function checkBundleWhole(settings: BundleSettings): void {
  const { start_access_on_date: start, expires_at: end } = settings;
  if (start !== null && end !== null && start >= end) throw errors.modelSaveError({ start_access_on_date: ['must be before expires_at'] });
}

/** A password as sent: text to hash, or null for none (null, or the empty text). */
export function checkPassword(raw: string | null): string | null {
  if (raw === null || raw === '') return null;
  if (raw.length > MAX_PASSWORD) throw invalid('password', `is too long (at most ${MAX_PASSWORD} characters)`);
  return raw;
}

function permissions(raw: string): string {
  if ((BUNDLE_PERMISSIONS as readonly string[]).includes(raw)) return raw;
  if (raw === 'none') throw errors.modelSaveError({ permissions: ['none would give the link\'s visitors nothing: use read, write, read_write, full or preview_only'] });
  throw invalid('permissions', `must be one of ${BUNDLE_PERMISSIONS.join(', ')}`);
}

function maxUses(raw: number | null): number | null {
  if (raw === null) return null;
  if (!Number.isInteger(raw) || raw < 1 || raw > MAX_USES) throw invalid('max_uses', 'must be a whole number of at least 1, or null for no limit');
  return raw;
}

function time(field: string, raw: string | null): number | null {
  if (raw === null || raw === '') return null;
  const parsed = parseIsoTimeInput(raw);
  if (parsed === undefined) throw invalid(field, 'must be an ISO-8601 time, such as 2026-01-02T03:04:05Z');
  return parsed;
}

function optionalText(field: string, raw: string | null, max: number): string | null {
  if (raw === null) return null;
  const value = raw.trim();
  if (value.length > max) throw invalid(field, `is too long (at most ${max} characters)`);
  return value === '' ? null : value;
}

/** A zone name, kept as given: a Rails name (Eastern Time (US & Canada)) or an IANA one. */
function timeZone(raw: string | null): string | null {
  const value = optionalText('path_template_time_zone', raw, 64);
  if (value === null) return null;
  const found = lookUpTimeZone(value);
  if (!found.ok) throw invalid('path_template_time_zone', found.problem);
  return value;
}
