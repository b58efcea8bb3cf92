import type { Db } from '../db/database.js';
import { readStoredSettings } from '../repositories/site-settings.js';

/** Site settings (contract section 8) with their defaults. */
export interface SiteSettings {
  session_expiry_minutes: number;
  session_max_lifetime_minutes: number;
  user_lockout: boolean;
  user_lockout_tries: number;
  user_lockout_within_minutes: number;
  user_lockout_lock_period_minutes: number;
  login_attempts_per_ip_per_hour: number;
  users_can_create_api_keys: boolean;
  password_min_length: number;
}

export const DEFAULT_SITE_SETTINGS: Readonly<SiteSettings> = {
  session_expiry_minutes: 360,
  session_max_lifetime_minutes: 1440,
  user_lockout: true,
  user_lockout_tries: 5,
  user_lockout_within_minutes: 60,
  user_lockout_lock_period_minutes: 60,
  login_attempts_per_ip_per_hour: 100,
  users_can_create_api_keys: true,
  password_min_length: 12,
};

export async function readSiteSettings(db: Db): Promise<SiteSettings> {
  const stored = await readStoredSettings(db);
  const settings = { ...DEFAULT_SITE_SETTINGS };
  for (const name of Object.keys(settings) as (keyof SiteSettings)[]) {
    const value = stored.get(name);
    if (typeof value === typeof settings[name]) (settings as Record<string, unknown>)[name] = value;
  }
  return settings;
}
