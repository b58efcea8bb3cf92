import type { Db } from '../db/database.js';
import { findLockouts, setLockout } from '../repositories/login-attempts.js';
import { usernameKey } from '../repositories/users.js';
import { readSiteSettings } from './site-settings.js';

/**
 * When each username's sign-in lockout ends (epoch ms), for the usernames locked out at `now`;
 * the others are absent. With lockouts switched off in the site settings nobody is locked out,
 * whatever rows remain. One indexed query for all of them.
 */
export async function lockoutEnds(db: Db, usernames: readonly string[], now: number): Promise<ReadonlyMap<string, number>> {
  if (usernames.length === 0 || !(await readSiteSettings(db)).user_lockout) return new Map();
  const keys = new Map(usernames.map((username) => [usernameKey(username), username]));
  const rows = await findLockouts(db, [...keys.keys()]);
  const ends = new Map<string, number>();
  for (const [key, lockedUntil] of rows) {
    const username = keys.get(key);
    if (username !== undefined && lockedUntil > now) ends.set(username, lockedUntil);
  }
  return ends;
}

/**
 * Ends a username's lockout now, and spends its failed sign-ins with it, as a successful sign-in
 * does (login-protection.ts): the lockout row, set to `now`, is where counting starts again, so an
 * unlocked user has all its tries back. Answers when the lockout would have ended, or undefined
 * when there was none.
 */
export async function endLockout(tx: Db, username: string, now: number): Promise<number | undefined> {
  const key = usernameKey(username);
  const lockedUntil = (await findLockouts(tx, [key])).get(key);
  await setLockout(tx, key, now);
  return lockedUntil !== undefined && lockedUntil > now ? lockedUntil : undefined;
}
