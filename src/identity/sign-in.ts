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
import { readSiteSettings, type SiteSettings } from './site-settings.js';
import type { FailureType } from '../history/index.js';

export interface PasswordSignIn {
  username: string;
  password: string;
  /** The socket address of the client (request.ip); see client-address.ts for how it counts. */
  clientIp: string;
  /** The door the person signs in at, as History records it. */
  interface: Interface;
}

/** A password found correct, before the sign-in is complete: what completing or refusing it needs. */
export interface CheckedPassword {
  user: User;
  settings: SiteSettings;
  attempt: LoginAttempt;
  recorded: SignInRecord;
}

interface SignInRecord {
  now: number;
  origin: { interface: Interface; ip: string };
  username: string;
}

/**
 * Verifies a username and password for any door that signs users in with them (POST /sessions,
 * WebDAV's Basic, SFTP's password), under the same login protection and recorded the same way
 * whichever door asks. It starts nothing: what a verified user gets (a session, a connection) is
 * the door's next call. It takes the database and the moment rather than a Call: there is no
 * caller before a sign-in.
 *
 * In this order:
 * - the client has failed too often in the last hour: `rate-limited/too-many-login-attempts`
 *   (Retry-After); the username is locked out: `not-authenticated/locked-out`, even with the right
 *   password. Both are answered before the password is looked at and are not recorded as failures.
 * - an unknown username, a user without a password (one who signs in at an identity provider), a
 *   wrong password and a disabled user all get `not-authenticated/invalid-username-or-password`
 *   after the same work (one argon2 verification, against a dummy hash when there is no hash, and
 *   a failure record that may lock the username out), so neither the answer nor its timing tells
 *   them apart.
 * - otherwise the user (its username matched case-insensitively), not yet signed in: the caller
 *   completes the sign-in (completeSignIn) once any second factor is answered, or refuses it
 *   (refuseSignIn). Until then the username's failure count stands, so that knowing the password
 *   does not reset the count of wrong codes.
 */
export async function checkPassword(db: Db, now: number, input: PasswordSignIn): Promise<CheckedPassword> {
  const settings = await readSiteSettings(db);
  const attempt: LoginAttempt = { usernameKey: usernameKey(input.username), clientKey: clientAddressKey(input.clientIp), now };
  const recorded = { now, origin: { interface: input.interface, ip: input.clientIp }, username: input.username };
  await assertStillAllowed(db, settings, attempt, recorded);

  const account = await findLoginAccount(db, attempt.usernameKey);
  const passwordMatches = await verifyPasswordOrDummy(account?.passwordHash, input.password);
  if (account === undefined || !passwordMatches || !accountActive(account.user, now)) {
    const failureType = account === undefined ? 'username_not_found' : !passwordMatches ? 'password_mismatch' : 'disabled';
    await recordFailedLogin(db, settings, attempt, (tx) => recordSignIn(tx, recorded, account?.user, failureType));
    activity.emit('login-failed');
    throw errors.invalidUsernameOrPassword();
  }
  return { user: account.user, settings, attempt, recorded };
}

/**
 * Login protection for a sign-in that goes on after its password (a second factor answered with a
 * partial session): the client's failures and the username's lockout are checked again, as they
 * were before the password was, and refused the same way.
 */
export async function checkSignInAllowed(db: Db, now: number, user: User, at: { clientIp: string; interface: Interface }): Promise<CheckedPassword> {
  const settings = await readSiteSettings(db);
  const attempt: LoginAttempt = { usernameKey: usernameKey(user.username), clientKey: clientAddressKey(at.clientIp), now };
  const recorded = { now, origin: { interface: at.interface, ip: at.clientIp }, username: user.username };
  await assertStillAllowed(db, settings, attempt, recorded);
  if (!accountActive(user, now)) {
    await recordFailedLogin(db, settings, attempt, (tx) => recordSignIn(tx, recorded, user, 'disabled'));
    throw errors.invalidUsernameOrPassword();
  }
  return { user, settings, attempt, recorded };
}

/** Records the sign-in as done (with the second factor it took, if any) and clears the username's failure count. */
export async function completeSignIn(db: Db, checked: CheckedPassword, secondFactor?: string): Promise<User> {
  await inTransaction(db, async (tx) => {
    await recordSuccessfulLogin(tx, checked.settings, checked.attempt);
    await recordSignIn(tx, checked.recorded, checked.user, undefined, secondFactor);
  });
  activity.emit('login-succeeded');
  return checked.user;
}

/**
 * Records a sign-in refused after its password: a wrong second factor counts toward the lockout
 * like a wrong password (`counts`); a refusal that guessed nothing (a door that cannot ask for the
 * second factor) is recorded only, so that it cannot lock anyone out.
 */
export async function refuseSignIn(db: Db, checked: CheckedPassword, failureType: FailureType, counts: boolean): Promise<void> {
  const record = (tx: Db) => recordSignIn(tx, checked.recorded, checked.user, failureType);
  if (counts) await recordFailedLogin(db, checked.settings, checked.attempt, record);
  else await inTransaction(db, record);
  activity.emit('login-failed');
}

/** checkPassword and completeSignIn in one, for a user with no second factor to answer. */
export async function verifyPasswordSignIn(db: Db, now: number, input: PasswordSignIn): Promise<User> {
  return completeSignIn(db, await checkPassword(db, now, input));
}

async function assertStillAllowed(db: Db, settings: SiteSettings, attempt: LoginAttempt, recorded: SignInRecord): Promise<void> {
  try {
    await assertLoginAllowed(db, settings, attempt);
  } catch (error) {
    // Refused before the password was looked at: recorded for the record's sake, counted nowhere.
    const failureType = isRateLimited(error) ? 'rate_limited' : 'locked_out';
    const account = await findLoginAccount(db, attempt.usernameKey);
    await inTransaction(db, (tx) => recordSignIn(tx, recorded, account?.user, failureType));
    throw error;
  }
}

function isRateLimited(error: unknown): boolean {
  return error instanceof AtriumError && error.type.startsWith('rate-limited/');
}
