import { errors } from '../errors/catalogue.js';
import type { SiteSettings } from './site-settings.js';

/**
 * Files.com counts the lockout window and period in hours (`user_lockout_within`,
 * `user_lockout_lock_period`); Atrium keeps minutes (`*_minutes`), which say more. Both spellings
 * are read and written; one value is stored, in minutes.
 */
export const HOUR_SPELLINGS = {
  user_lockout_within: 'user_lockout_within_minutes',
  user_lockout_lock_period: 'user_lockout_lock_period_minutes',
} as const satisfies Record<string, keyof SiteSettings>;

export type HourSpelling = keyof typeof HOUR_SPELLINGS;
export type HourSettings = { [K in HourSpelling]: number | null } & { session_expiry: number };
/**
 * A write in either spelling; null in the hour spelling is the same as leaving it out. A null
 * `allowed_ips` is no list, as for users and groups.
 */
export type SettingChanges = Partial<Omit<SiteSettings, 'allowed_ips'>> & { allowed_ips?: string | null }
  & { [K in HourSpelling]?: number | null | undefined } & { session_expiry?: number | undefined };

// Files.com's `session_expiry` is a decimal number of hours (a double), so, unlike the lockout
// spellings, it can say any whole number of minutes: 50 minutes read as 0.8333333333333334 and
// written back is 50 again. A write that is not (within rounding) whole minutes is refused.
const ROUNDING_TOLERANCE_MINUTES = 1e-6;

/**
 * The hour spellings of the stored minutes: whole hours, or null when the minutes are not a whole
 * number of hours (the `_minutes` field has the value then). A client that reads the site and
 * writes every field back therefore writes what it read and changes nothing.
 */
export function hourSpellingsOf(settings: SiteSettings): HourSettings {
  const hours = (minutes: number) => (minutes % 60 === 0 ? minutes / 60 : null);
  return {
    user_lockout_within: hours(settings.user_lockout_within_minutes),
    user_lockout_lock_period: hours(settings.user_lockout_lock_period_minutes),
    session_expiry: settings.session_expiry_minutes / 60,
  };
}

/**
 * The changes with the hour spellings turned into minutes. Both spellings of one setting with
 * different values is `bad-request/request-params-invalid` naming both: which was meant cannot be
 * told, and storing either would surprise the writer of the other.
 */
export function inMinutes(changes: SettingChanges): Partial<SiteSettings> {
  const { user_lockout_within: _within, user_lockout_lock_period: _period, session_expiry: _expiry, allowed_ips: _list, ...minutes } = changes;
  const result: Partial<SiteSettings> = minutes;
  if (changes.session_expiry !== undefined) result.session_expiry_minutes = sessionExpiryMinutes(changes.session_expiry, changes.session_expiry_minutes);
  for (const [hourName, minuteName] of Object.entries(HOUR_SPELLINGS) as [HourSpelling, (typeof HOUR_SPELLINGS)[HourSpelling]][]) {
    const hours = changes[hourName];
    if (hours === undefined || hours === null) continue;
    const given = changes[minuteName];
    if (given !== undefined && given !== hours * 60) {
      throw errors.paramsInvalid({
        [hourName]: [`is ${hours} hours, which differs from ${minuteName} ${given}; send one of them`],
        [minuteName]: [`is ${given} minutes, which differs from ${hourName} ${hours} hours`],
      });
    }
    result[minuteName] = hours * 60;
  }
  return result;
}

/** `session_expiry` (hours, decimal) as whole minutes, refusing a fraction of a minute or a differing `session_expiry_minutes`. */
function sessionExpiryMinutes(hours: number, given: number | undefined): number {
  const exact = hours * 60;
  const minutes = Math.round(exact);
  if (Math.abs(exact - minutes) > ROUNDING_TOLERANCE_MINUTES) {
    throw errors.paramsInvalid({ session_expiry: [`is ${hours} hours, which is not a whole number of minutes; send session_expiry_minutes`] });
  }
  if (given !== undefined && given !== minutes) {
    throw errors.paramsInvalid({
      session_expiry: [`is ${hours} hours, which differs from session_expiry_minutes ${given}; send one of them`],
      session_expiry_minutes: [`is ${given} minutes, which differs from session_expiry ${hours} hours`],
    });
  }
  return minutes;
}
