import { assertActsAtSiteLevel, type Call } from '../access/index.js';
import type { ConfirmIdentity } from './reauthentication.js';
import { readSiteSettings, updateSiteSettings, type SiteSettings } from './site-settings.js';

// The site settings of contract 8 are for Site Administrators at the site level only (a credential
// confined to a Custom Workspace has none), whatever door asks.

/** GET /site. */
export async function readSiteSettingsAs(a: Call): Promise<SiteSettings> {
  assertActsAtSiteLevel(a.caller);
  return readSiteSettings(a.db);
}

/** GET /site/policies: the settings that decide what any user may do for themselves, for every signed-in user. */
export async function readSitePolicies(a: Call): Promise<Pick<SiteSettings, 'users_can_create_api_keys' | 'password_min_length'>> {
  const settings = await readSiteSettings(a.db);
  return { users_can_create_api_keys: settings.users_can_create_api_keys, password_min_length: settings.password_min_length };
}

/** PATCH/PUT /site: the changes (already within SETTING_RANGES) and the whole set after them. */
export async function changeSiteSettings(a: Call, changes: Partial<SiteSettings>, confirmIdentity: ConfirmIdentity): Promise<SiteSettings> {
  assertActsAtSiteLevel(a.caller);
  // Changing how the site authenticates is sensitive: a session must confirm its password.
  await confirmIdentity('action');
  return updateSiteSettings(a, changes);
}
