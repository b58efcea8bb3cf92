import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Db } from '../db/database.js';
import { takeTurn } from '../db/serialise.js';
import { inTransaction } from '../db/transaction.js';
import type { Origin } from '../lib/origin.js';
import { confirmTotpEnrolment } from './two-factor-enrolment.js';
import { errors } from '../errors/catalogue.js';
import type { PartialSession } from '../repositories/partial-sessions.js';
import type { User } from '../repositories/users.js';
import { findUserById } from '../repositories/users.js';
import { findLivePartialSession, issuePartialSession, spendPartialSession, takeSecondFactorTry } from './partial-sessions.js';
import { passkeyAuthenticationOptions, verifyPasskeySignIn } from './passkey-sign-in.js';
import { type AddedPasskey, type NewPasskeyInput, type PasskeyHolder, storePasskey, verifyNewPasskey } from './passkeys.js';
import { looksLikeRecoveryCode, spendRecoveryCodeOf } from './recovery-codes.js';
import type { RelyingParty } from './relying-party.js';
import type { SecretBox } from './secret-box.js';
import { checkPassword, checkSignInAllowed, completeSignIn, refuseSignIn, type CheckedPassword, type PasswordSignIn } from './sign-in.js';
import { acceptTotpCode } from './totp.js';
import { challengeMethods, hasSecondFactor, mustUseTwoFactor, secondFactorsOf, type TwoFactorMethod } from './two-factor-policy.js';

/** What POST /sessions carries besides the password (docs/authentication.md#the-challenge). */
export interface SecondFactorAnswer {
  /** A code of the authenticator app, or a recovery code. */
  otp?: string | undefined;
  /** The id a challenge gave, sent back with the answer instead of the password. */
  partialSessionId?: string | undefined;
  /** Whether the console asks: only it is offered passkeys. */
  fromConsole: boolean;
}

/** How a sign-in with a password (and perhaps its second factor) ended. */
export type SignInOutcome =
  | { kind: 'signed-in'; user: User }
  /** A second factor is needed: the partial session to answer it with, and the methods offered. */
  | { kind: 'challenge'; partialSessionId: string; methods: TwoFactorMethod[] }
  /** The site requires a second factor the user lacks: the partial session opens its enrolment only. */
  | { kind: 'enrolment'; partialSessionId: string };

/**
 * A sign-in by password, then its second factor when the user has one: Files.com's flow, which
 * its SDKs and CLI follow. A correct password of a user with a second factor is answered with a
 * challenge and a partial session; the answer comes back either with the partial session, or with
 * the username and password again (the CLI's way). A wrong code counts toward the username's
 * lockout as a wrong password does. A user the site requires to have a second factor and who has
 * none gets a partial session that opens only its enrolment.
 */
export async function signInWithPassword(db: Db, box: SecretBox, now: number, input: PasswordSignIn & SecondFactorAnswer): Promise<SignInOutcome> {
  const checked = await checkPassword(db, now, input);
  const factors = await secondFactorsOf(db, checked.user.id);
  if (hasSecondFactor(factors)) {
    if (input.otp === undefined || input.otp === '') {
      const partial = await issuePartialSession(db, checked.user.id, 'second_factor', now);
      return { kind: 'challenge', partialSessionId: partial.secret, methods: challengeMethods(factors, input.fromConsole) };
    }
    return { kind: 'signed-in', user: await completeSignIn(db, checked, await checkCode(db, box, now, checked, input.otp)) };
  }
  if (mustUseTwoFactor(checked.settings, checked.user)) {
    const partial = await issuePartialSession(db, checked.user.id, 'enrolment', now);
    return { kind: 'enrolment', partialSessionId: partial.secret };
  }
  return { kind: 'signed-in', user: await completeSignIn(db, checked) };
}

/**
 * The answer to a challenge sent with its partial session instead of the password. The login
 * protection is checked again (a lockout since the password counts); each partial session takes
 * five answers at most and opens one session.
 */
export async function signInWithPartialSession(
  db: Db, box: SecretBox, now: number, input: { partialSessionId: string; otp: string; clientIp: string; interface: PasswordSignIn['interface'] },
): Promise<User> {
  const { partial, checked } = await takeSecondFactorAnswer(db, now, input);
  return finishSecondFactor(db, now, partial, checked, await checkCode(db, box, now, checked, input.otp));
}

/**
 * The partial session a second factor answers, with its user: the login protection is checked
 * again (a lockout since the password counts), and one of its five tries is taken.
 */
async function takeSecondFactorAnswer(db: Db, now: number, input: { partialSessionId: string; clientIp: string; interface: PasswordSignIn['interface'] }): Promise<{ partial: PartialSession; checked: CheckedPassword }> {
  const partial = await findLivePartialSession(db, input.partialSessionId, 'second_factor', now);
  const user = partial === undefined ? undefined : await findUserById(db, partial.userId);
  if (partial === undefined || user === undefined) throw errors.partialSessionExpired();
  const checked = await checkSignInAllowed(db, now, user, input);
  if (!(await takeSecondFactorTry(db, partial, now))) throw errors.partialSessionExpired();
  return { partial, checked };
}

/** A right answer: the partial session is spent (of two right answers at once, the first opens the session, the other finds it spent) and the sign-in completed. */
async function finishSecondFactor(db: Db, now: number, partial: PartialSession, checked: CheckedPassword, answeredWith: string): Promise<User> {
  if (!(await spendPartialSession(db, partial, now))) throw errors.partialSessionExpired();
  return completeSignIn(db, checked, answeredWith);
}

/**
 * Adds the first passkey of a required enrolment (its answer to the options the partial session
 * asked for) and completes the sign-in it waited for. The answer is verified first, its challenge
 * taken outside the transaction, so that a refused answer spends it all the same; the passkey is
 * then stored and the sign-in completed as one step under the partial session's turn, as
 * confirmEnrolmentAndSignIn does for an authenticator app.
 */
export async function addPasskeyAndSignIn(
  holder: PasskeyHolder, secret: string, input: NewPasskeyInput, relyingParty: RelyingParty, at: { clientIp: string; interface: PasswordSignIn['interface']; origin: Origin },
): Promise<{ user: User; added: AddedPasskey }> {
  const verified = await verifyNewPasskey(holder, input, relyingParty);
  const { now } = holder.enrolling;
  return inTransaction(holder.db, async (tx) => {
    const { partial } = await findEnrolment(tx, secret, now);
    await takeTurn(tx, `partial-session:${partial.id}`);
    // Read again under the turn: an identical request before this one may have spent it.
    const { user } = await findEnrolment(tx, secret, now);
    const added = await storePasskey(tx, { user, keepSessionId: undefined, now, origin: at.origin }, verified);
    return { user: await completeEnrolmentSignIn(tx, now, partial, user, at), added };
  });
}

/**
 * POST /sessions/passkey_options: what the console's browser needs to answer the challenge of a
 * live `second_factor` partial session with one of its user's passkeys; the challenge waits on
 * the partial session for one answer (identity/passkey-sign-in.ts).
 */
export async function passkeySignInOptions(db: Db, now: number, partialSessionId: string, relyingParty: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const partial = await findLivePartialSession(db, partialSessionId, 'second_factor', now);
  if (partial === undefined) throw errors.partialSessionExpired();
  return passkeyAuthenticationOptions(db, partial.id, partial.userId, relyingParty);
}

/**
 * The answer to a challenge with a passkey (the browser's answer to passkeySignInOptions), sent
 * with the partial session: as a code's answer, it takes one of the partial session's tries, and a
 * wrong one is recorded and counts toward the username's lockout.
 */
export async function signInWithPasskey(
  db: Db, now: number, input: { partialSessionId: string; webauthn: unknown; relyingParty: RelyingParty; clientIp: string; interface: PasswordSignIn['interface'] },
): Promise<User> {
  const { partial, checked } = await takeSecondFactorAnswer(db, now, input);
  if (!(await verifyPasskeySignIn(db, partial.id, checked.user.id, input.webauthn, input.relyingParty, now))) {
    await refuseSignIn(db, checked, 'two_factor_mismatch', true);
    throw errors.passkeyNotAccepted();
  }
  return finishSecondFactor(db, now, partial, checked, 'a passkey');
}

/** Takes the code (an authenticator code or a recovery code) and says in words which it was; a wrong one is recorded, counted and refused. */
async function checkCode(db: Db, box: SecretBox, now: number, checked: CheckedPassword, otp: string): Promise<string> {
  const userId = checked.user.id;
  const recovery = looksLikeRecoveryCode(otp);
  const accepted = recovery ? await spendRecoveryCodeOf(db, userId, otp, now) : await acceptTotpCode(db, box, userId, otp, now, false);
  if (!accepted) {
    await refuseSignIn(db, checked, 'two_factor_mismatch', true);
    throw errors.oneTimePasswordIncorrect();
  }
  return recovery ? 'a recovery code' : 'an authenticator code';
}

/**
 * The sign-in a required enrolment waited for, once its first second factor is set up: the
 * partial session is spent (it opens one session), and the sign-in is recorded as complete.
 */
export async function completeEnrolmentSignIn(db: Db, now: number, partial: PartialSession, user: User, at: { clientIp: string; interface: PasswordSignIn['interface'] }): Promise<User> {
  const checked = await checkSignInAllowed(db, now, user, at);
  if (!(await spendPartialSession(db, partial, now))) throw errors.partialSessionExpired();
  return completeSignIn(db, checked, 'a second factor just set up');
}

/** The live enrolment partial session the secret names, with its user; a dead one is `partialSessionExpired`. */
export async function findEnrolment(db: Db, secret: string, now: number): Promise<{ partial: PartialSession; user: User }> {
  const partial = await findLivePartialSession(db, secret, 'enrolment', now);
  const user = partial === undefined ? undefined : await findUserById(db, partial.userId);
  if (partial === undefined || user === undefined) throw errors.partialSessionExpired();
  return { partial, user };
}

/**
 * Confirms the authenticator app a required enrolment set up, and completes the sign-in it waited
 * for, as one step: the partial session's turn is taken first, so that of identical confirmations
 * at once the first confirms and signs in, and every other finds the partial session spent, as it
 * would one after the other.
 */
export async function confirmEnrolmentAndSignIn(
  db: Db, box: SecretBox, now: number, secret: string, otp: string, at: { clientIp: string; interface: PasswordSignIn['interface']; origin: Origin },
): Promise<{ user: User; recoveryCodes: string[] }> {
  return inTransaction(db, async (tx) => {
    const { partial } = await findEnrolment(tx, secret, now);
    await takeTurn(tx, `partial-session:${partial.id}`);
    // Read again under the turn: an identical request before this one may have spent it.
    const { user } = await findEnrolment(tx, secret, now);
    const { recoveryCodes } = await confirmTotpEnrolment(tx, box, { user, keepSessionId: undefined, now, origin: at.origin }, otp);
    return { user: await completeEnrolmentSignIn(tx, now, partial, user, at), recoveryCodes };
  });
}
