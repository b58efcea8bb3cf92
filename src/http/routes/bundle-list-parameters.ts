import type { BundleFilter, BundleRecipientFilter, BundleRecordFilter } from '../../bundles/index.js';
import { type ListParameterSpec, type ListParameters, timeRangeOf } from '../list-parameters.js';

/** GET /bundles's list parameters, as the Files.com SDKs document them. */
export const BUNDLE_LIST_PARAMETERS: ListParameterSpec = {
  listing: 'bundles',
  sortable: ['expires_at'],
  equals: { created_at: 'time', expires_at: 'time', code: 'text', user_id: 'id' },
  prefix: ['code'],
  ranges: { created_at: 'time', expires_at: 'time' },
  notOffered: {
    group_id: 'share links belong to users in Atrium, not to groups',
    bypasses_site_expiration_rules: 'every share link follows the site setting bundle_expiration',
  },
};

/** The filter of GET /bundles; `userId` is the top-level `user_id` (0: the caller's own), which `filter[user_id]` must agree with. */
export function bundleFilterOf(parameters: ListParameters, userId: number | undefined): BundleFilter | undefined {
  const { equals, prefix } = parameters;
  const filter: BundleFilter = {};
  const byFilter = equals.user_id as number | undefined;
  if (userId !== undefined && byFilter !== undefined && userId !== byFilter) return undefined;
  const creator = byFilter ?? userId;
  if (creator !== undefined) filter.userId = creator;
  if (equals.code !== undefined) filter.code = equals.code as string;
  if (prefix.code !== undefined) filter.codePrefix = prefix.code;
  // filter[created_at] is that second, as times go out without milliseconds.
  const createdAt = timeRangeOf(parameters, 'created_at');
  if (createdAt !== undefined) filter.createdAt = createdAt;
  const expiresAt = timeRangeOf(parameters, 'expires_at');
  if (expiresAt !== undefined) filter.expiresAt = expiresAt;
  return filter;
}

/** GET /bundle_recipients's list parameters. */
export const BUNDLE_RECIPIENT_LIST_PARAMETERS: ListParameterSpec = {
  listing: 'bundle recipients',
  sortable: [],
  equals: { has_registrations: 'boolean' },
  prefix: [],
  ranges: {},
  notOffered: {},
};

export function bundleRecipientFilterOf(parameters: ListParameters): BundleRecipientFilter {
  const has = parameters.equals.has_registrations;
  return has === undefined ? {} : { hasRegistrations: has as boolean };
}

/** GET /bundle_registrations's list parameters: in the order they were made. */
export const BUNDLE_REGISTRATION_LIST_PARAMETERS: ListParameterSpec = {
  listing: 'bundle registrations',
  sortable: [],
  equals: {},
  prefix: [],
  ranges: {},
  notOffered: {},
};

/** GET /bundle_downloads's list parameters: in the order they were made. */
export const BUNDLE_DOWNLOAD_LIST_PARAMETERS: ListParameterSpec = {
  listing: 'bundle downloads',
  sortable: [],
  equals: { created_at: 'time' },
  prefix: [],
  ranges: { created_at: 'time' },
  notOffered: {},
};

/** GET /bundle_actions's list parameters: in the order they were made. */
export const BUNDLE_ACTION_LIST_PARAMETERS: ListParameterSpec = {
  listing: 'bundle actions',
  sortable: [],
  equals: { created_at: 'time', bundle_id: 'id', bundle_registration_id: 'id' },
  prefix: [],
  ranges: { created_at: 'time' },
  notOffered: {},
};

/**
 * The filter of a listing of visitors' records: `bundle_registration_id` (the top-level parameter
 * or `filter[...]`, which must agree) and the `created_at` range. Undefined when two ways of
 * naming a field disagree: nothing matches both.
 */
export function bundleRecordFilterOf(parameters: ListParameters, registrationId: number | undefined): BundleRecordFilter | undefined {
  const byFilter = parameters.equals.bundle_registration_id as number | undefined;
  if (registrationId !== undefined && byFilter !== undefined && registrationId !== byFilter) return undefined;
  const filter: BundleRecordFilter = {};
  const registration = byFilter ?? registrationId;
  if (registration !== undefined) filter.bundleRegistrationId = registration;
  const createdAt = timeRangeOf(parameters, 'created_at');
  if (createdAt !== undefined) filter.createdAt = createdAt;
  return filter;
}
