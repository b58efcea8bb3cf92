import { accountActive } from '../access/index.js';
import { verifyPasswordOrDummy } from './passwords.js';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import { AtriumError } from '../errors/atrium-error.js';
import { errors } from '../errors/catalogue.js';
import type { Interface } from '../lib/origin.js';
import { activity } from '../lib/activity.js';
import { findLoginAccount } from '../repositories/user-credentials.js';
import { type User, usernameKey } from '../repositories/users.js';
import { clientAddressKey } from './client-address.js';
import { assertLoginAllowed, recordFailedLogin, recordSuccessfulLogin, type LoginAttempt } from './login-protection.js';
import { recordSignIn } from './sign-in-history.js';
import { readSiteSettings } from './site-settings.js';

export interface PasswordSignIn {
  username: string;
  password: string;
  /** The socket address of the client (request.ip); see client-address.ts for how it counts. */
  clientIp: string;
  /** The door the person signs in at, as History records it. */
  interface: Interface;
}

/**
 * Verifies a username and password for any door that signs users in with them (POST /sessions
 * today), under the same login protection and recorded the same way whichever door asks. It
 * starts nothing: what a verified user gets (a session, a connection) is the door's next call.
 * It takes the database and the moment rather than a Call: there is no caller before a sign-in.
 *
 * In this order:
 * - the client has failed too often in the last hour: `rate-limited/too-many-login-attempts`
 *   (Retry-After); the username is locked out: `not-authenticated/locked-out`, even with the right
 *   password. Both are answered before the password is looked at and are not recorded as failures.
 * - an unknown username, a user without a password, a wrong password and a disabled user all get
 *   `not-authenticated/invalid-username-or-password` after the same work (one argon2 verification,
 *   against a dummy hash when there is no hash, and a failure record that may lock the username
 *   out), so neither the answer nor its timing tells them apart.
 * - otherwise the user (its username matched case-insensitively); the username's failure count is
 *   cleared. `last_login_at` is left alone: a session records it (sessions.ts, startSession).
 */
export async function verifyPasswordSignIn(db: Db, now: number, input: PasswordSignIn): Promise<User> {
  const settings = await readSiteSettings(db);
  const attempt: LoginAttempt = { usernameKey: usernameKey(input.username), clientKey: clientAddressKey(input.clientIp), now };
  const recorded = { now, origin: { interface: input.interface, ip: input.clientIp }, username: input.username };
  try {
    await assertLoginAllowed(db, settings, attempt);
  } catch (error) {
    // Refused before the password was looked at: recorded for the record's sake, counted nowhere.
    const failureType = isRateLimited(error) ? 'rate_limited' : 'locked_out';
    const account = await findLoginAccount(db, attempt.usernameKey);
    await inTransaction(db, (tx) => recordSignIn(tx, recorded, account?.user, failureType));
    throw error;
  }

  const account = await findLoginAccount(db, attempt.usernameKey);
  const passwordMatches = await verifyPasswordOrDummy(account?.passwordHash, input.password);
  if (account === undefined || !passwordMatches || !accountActive(account.user, now)) {
    const failureType = account === undefined ? 'username_not_found' : !passwordMatches ? 'password_mismatch' : 'disabled';
    await recordFailedLogin(db, settings, attempt, (tx) => recordSignIn(tx, recorded, account?.user, failureType));
    activity.emit('login-failed');
    throw errors.invalidUsernameOrPassword();
  }

  await inTransaction(db, async (tx) => {
    await recordSuccessfulLogin(tx, settings, attempt);
    await recordSignIn(tx, recorded, account.user, undefined);
  });
  activity.emit('login-succeeded');
  return account.user;
}

function isRateLimited(error: unknown): boolean {
  return error instanceof AtriumError && error.type.startsWith('rate-limited/');
}
