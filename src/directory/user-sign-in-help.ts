import { assertMayActAs, isAdministratorOf, type Call } from '../access/index.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import { clearSecondFactors, type ConfirmIdentity, endLockout, lockoutEnds, type SecondFactors, secondFactorsOfUsers } from '../identity/index.js';
import type { User } from '../repositories/users.js';
import { twoFactorReset, userUnlocked } from './directory-history.js';
import { lockedUser } from './locked-rows.js';
import { getUser } from './user-reads.js';

// What an administrator does for a user who cannot sign in: end its lockout, send the welcome
// email again. Both are an administrator's of the user's Workspace, as changing the user is; a
// user out of the caller's sight is not found, as everywhere.

async function administeredUser(a: Call, id: number): Promise<User> {
  const target = await getUser(a, id);
  if (!(await isAdministratorOf(a.db, a.caller, target.workspaceId))) throw errors.workspaceAdminRequired();
  return target;
}

/**
 * POST /users/<id>/unlock: the user's sign-in lockout ends now and its failed sign-ins are spent,
 * so it has all its tries again. Recorded in History (a `user_update` of `lockout_expires`) when
 * the user was locked out; unlocking a user who was not is no change and records nothing.
 */
export async function unlockUser(a: Call, id: number): Promise<void> {
  const target = await administeredUser(a, id);
  await inTransaction(a.db, async (tx) => {
    // The username as it is now: a rename just before would otherwise unlock the old name.
    const user = await lockedUser(tx, target.id);
    const wasLockedUntil = await endLockout(tx, user.username, a.now);
    if (wasLockedUntil !== undefined) await recordHistory(tx, a, [userUnlocked(user, wasLockedUntil)]);
  });
}

/** When each user's sign-in lockout ends (epoch ms), for the users locked out now. */
export async function userLockouts(a: Call, users: readonly User[]): Promise<ReadonlyMap<number, number>> {
  const ends = await lockoutEnds(a.db, users.map((u) => u.username), a.now);
  const byUser = new Map<number, number>();
  for (const u of users) {
    const end = ends.get(u.username);
    if (end !== undefined) byUser.set(u.id, end);
  }
  return byUser;
}

/** Each user's second factors, for the users' list (`active_2fa`, `type_of_2fa`). */
export async function userSecondFactors(a: Call, users: readonly User[]): Promise<ReadonlyMap<number, SecondFactors>> {
  return secondFactorsOfUsers(a.db, users.map((u) => u.id));
}

/**
 * POST /users/<id>/2fa/reset: for a user who lost its authenticator app or passkey, every second
 * factor and recovery code is dropped and its sessions end; it signs in with its password alone
 * again (or, where the site requires a second factor, is led through setting one up). What makes
 * this an administrator's who may act as the user (as setting its password is): whoever resets
 * another's second factor and knows its password signs in as it. Asks the caller's password again.
 */
export async function resetUserTwoFactor(a: Call, id: number, confirmIdentity: ConfirmIdentity): Promise<void> {
  const target = await administeredUser(a, id);
  await assertMayActAs(a.db, a.caller, target, 'reset two-factor authentication');
  await confirmIdentity('action');
  await inTransaction(a.db, async (tx) => {
    // A user with nothing to reset (or reset by an identical request just before) records nothing.
    if (await clearSecondFactors(tx, target.id, a.now)) await recordHistory(tx, a, [twoFactorReset(target, a.caller.user?.username ?? 'An API key')]);
  });
}

/**
 * POST /users/<id>/resend_welcome_email: Atrium has no mail server, so nothing can be sent. The
 * caller is told so plainly (after the same checks as any change of the user, so the answer says
 * nothing about users beyond its reach) rather than answered a success that sent nothing.
 */
export async function resendWelcomeEmail(a: Call, id: number): Promise<never> {
  await administeredUser(a, id);
  throw errors.mailServerNotConfigured();
}
