import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { activity } from '../lib/activity.js';
import {
  clientFailuresSince, countUsernameFailuresSince, findLockout, insertLoginFailure, pruneAllLoginRecords, pruneFailuresOf, setLockout,
} from '../repositories/login-attempts.js';
import type { SiteSettings } from './site-settings.js';

const MINUTE_MS = 60_000;
const CLIENT_WINDOW_MS = 60 * MINUTE_MS;
/** How often, at most, one process sweeps every old login record (the per-key prune runs always). */
const SWEEP_INTERVAL_MS = 10 * MINUTE_MS;

/** Who is trying to log in: the username as a case-insensitive key, and the client's address key. */
export interface LoginAttempt {
  usernameKey: string;
  clientKey: string;
  now: number;
}

/**
 * Refuses a login before its password is looked at: first when the client has failed too often
 * in the last hour (`rate-limited/too-many-login-attempts` with Retry-After), then when the
 * username is locked out (`not-authenticated/locked-out`, even with the right password).
 * The lockout is kept per username whether or not such a user exists, so its answer never says
 * which usernames exist.
 */
export async function assertLoginAllowed(db: Db, settings: SiteSettings, attempt: LoginAttempt): Promise<void> {
  const client = await clientFailuresSince(db, attempt.clientKey, attempt.now - CLIENT_WINDOW_MS);
  if (client.count >= settings.login_attempts_per_ip_per_hour) {
    // The earliest moment one of the failures leaves the window.
    const freesAt = (client.oldest ?? attempt.now) + CLIENT_WINDOW_MS;
    throw errors.tooManyLoginAttempts(Math.max(1, Math.ceil((freesAt - attempt.now) / 1000)));
  }
  if (!settings.user_lockout) return;
  const lockedUntil = await findLockout(db, attempt.usernameKey);
  if (lockedUntil !== undefined && lockedUntil > attempt.now) throw errors.lockedOut();
}

/**
 * Records a failed login (unknown user, wrong password and disabled user alike) and locks the
 * username once it has failed `user_lockout_tries` times within `user_lockout_within_minutes`.
 * Attempts refused by assertLoginAllowed are not recorded: they guessed nothing, and recording
 * them would let a flood keep an account locked or a client limited for ever.
 */
export async function recordFailedLogin(db: Db, settings: SiteSettings, attempt: LoginAttempt, alsoRecord: (tx: Db) => Promise<void>): Promise<void> {
  const sweep = sweepDue(db, attempt.now);
  const lockedOut = await inTransaction(db, async (tx) => {
    await insertLoginFailure(tx, attempt);
    await pruneLoginRecords(tx, settings, attempt, sweep);
    let locks = false;
    if (settings.user_lockout) {
      const failures = await countUsernameFailuresSince(tx, attempt.usernameKey, await countingStart(tx, settings, attempt));
      locks = failures >= settings.user_lockout_tries;
      if (locks) await setLockout(tx, attempt.usernameKey, attempt.now + settings.user_lockout_lock_period_minutes * MINUTE_MS);
    }
    await alsoRecord(tx);
    return locks;
  });
  if (lockedOut) activity.emit('lockout-started');
}

/**
 * A successful login clears the username's failure count. The failure rows stay, because they
 * still count against the client's address: logging in to one's own account must not wipe out the
 * failures the same client collected guessing other accounts. The lockout row marks instead where
 * counting for the username starts again.
 */
export async function recordSuccessfulLogin(db: Db, settings: SiteSettings, attempt: LoginAttempt): Promise<void> {
  const since = await countingStart(db, settings, attempt);
  if ((await countUsernameFailuresSince(db, attempt.usernameKey, since)) > 0) await setLockout(db, attempt.usernameKey, attempt.now);
}

/**
 * Failures of a username count from the start of the lockout window, or from just after the end
 * of its last lockout or its last successful login when that is later: the failures that caused
 * a lockout are spent by it, so an unlocked account has all its tries again.
 */
async function countingStart(db: Db, settings: SiteSettings, attempt: LoginAttempt): Promise<number> {
  const windowStart = attempt.now - settings.user_lockout_within_minutes * MINUTE_MS;
  const marker = await findLockout(db, attempt.usernameKey);
  // Times are whole milliseconds: marker + 1 counts what happened after the marker only.
  return marker === undefined ? windowStart : Math.max(windowStart, marker + 1);
}

const lastSweepByDatabase = new WeakMap<Db, number>();

/**
 * Keeps the tables bounded: a failure older than both windows counts for nothing, and a lockout
 * row that ended before the username window began no longer changes where counting starts.
 * The rows of this username and client are pruned on every failure (indexed); everything else in
 * a sweep at most every SWEEP_INTERVAL_MS per process.
 */
async function pruneLoginRecords(tx: Db, settings: SiteSettings, attempt: LoginAttempt, sweep: boolean): Promise<void> {
  const retentionMs = Math.max(CLIENT_WINDOW_MS, settings.user_lockout_within_minutes * MINUTE_MS);
  const before = attempt.now - retentionMs;
  await pruneFailuresOf(tx, attempt.usernameKey, attempt.clientKey, before);
  if (sweep) await pruneAllLoginRecords(tx, before, before);
}

/** Whether this failure should sweep every old record: at most every SWEEP_INTERVAL_MS per process and database. */
function sweepDue(db: Db, now: number): boolean {
  const lastSweep = lastSweepByDatabase.get(db);
  if (lastSweep !== undefined && now - lastSweep < SWEEP_INTERVAL_MS && now >= lastSweep) return false;
  lastSweepByDatabase.set(db, now);
  return true;
}
