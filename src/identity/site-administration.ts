import { assertActsAtSiteLevel, assertListKeepsCaller, type Call } from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import { readAddressList } from '../lib/address-list.js';
import { findWorkspace } from '../repositories/workspaces.js';
import type { ConfirmIdentity } from './reauthentication.js';
import { inMinutes, type SettingChanges } from './site-setting-hours.js';
import { readSiteSettings, updateSiteSettings, type SiteSettings } from './site-settings.js';

// The site settings of contract 8 are for Site Administrators at the site level only (a credential
// confined to a Custom Workspace has none), whatever door asks.

/** Atrium serves one site, so its id is always the same; 1, as Files.com's ids start at 1. */
export const SITE_ID = 1;

/** The site as GET /site shows it: its identity and its settings. */
export interface SiteView {
  id: number;
  /** When the site was created: when its database was made (Workspace 0 was created with it). */
  createdAt: number;
  settings: SiteSettings;
}

/** GET /site. */
export async function readSiteSettingsAs(a: Call): Promise<SiteView> {
  assertActsAtSiteLevel(a.caller);
  return siteView(a, await readSiteSettings(a.db));
}

/** GET /site/policies: the settings that decide what any user may do for themselves, for every signed-in user. */
export async function readSitePolicies(a: Call): Promise<Pick<SiteSettings, 'users_can_create_api_keys' | 'password_min_length' | 'trash_retention_days'>> {
  const settings = await readSiteSettings(a.db);
  return { users_can_create_api_keys: settings.users_can_create_api_keys, password_min_length: settings.password_min_length, trash_retention_days: settings.trash_retention_days };
}

/**
 * PATCH/PUT /site: the changes (numbers already within SETTING_RANGES; the lockout window and
 * period in minutes or in hours, see site-setting-hours.ts) and the site after them.
 */
export async function changeSiteSettings(a: Call, changes: SettingChanges, confirmIdentity: ConfirmIdentity): Promise<SiteView> {
  assertActsAtSiteLevel(a.caller);
  if (changes.name !== undefined) checkSiteName(changes.name);
  const checked = inMinutes(changes);
  if (changes.allowed_ips !== undefined) checked.allowed_ips = await checkSiteAddressList(a, changes.allowed_ips);
  // Changing how the site authenticates is sensitive: a session must confirm its password.
  await confirmIdentity('action');
  return siteView(a, await updateSiteSettings(a, checked));
}

async function siteView(a: Call, settings: SiteSettings): Promise<SiteView> {
  const defaultWorkspace = await findWorkspace(a.db, 0);
  return { id: SITE_ID, createdAt: defaultWorkspace?.createdAt ?? 0, settings };
}

/**
 * The site's `allowed_ips`: each line an address or CIDR range (bad-request naming the field, as
 * for the site's other parameters), and never a new list that leaves out the address of the
 * request setting it (access/door-admission.ts: it applies to everyone, the caller too). The list
 * as it is, sent back unchanged (a client writes back every setting it read), sets nothing and is
 * not asked again: an administrator admitted by its own list may still change other settings.
 */
async function checkSiteAddressList(a: Call, raw: string | null): Promise<string> {
  const reading = readAddressList(raw);
  if ('problem' in reading) throw errors.paramsInvalid({ allowed_ips: [reading.problem] });
  if (reading.list !== (await readSiteSettings(a.db)).allowed_ips) assertListKeepsCaller(reading.list, a.origin.ip);
  return reading.list;
}

/** A site name: 1 to 255 characters, not only spaces, no control characters. */
function checkSiteName(name: string): void {
  // eslint-disable-next-line no-control-regex
  if (name.trim() === '' || /[\u0000-\u001f\u007f]/.test(name)) {
    throw errors.paramsInvalid({ name: ['must be 1 to 255 characters, not only spaces, without control characters'] });
  }
}
