import type { Call } from '../access/index.js';
import { verifyPasswordOrDummy } from './passwords.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory, type FailureType, type HistoryEvent } from '../history/index.js';
import { clearReauthenticationFailures, endSession, reserveReauthenticationAttempt } from '../repositories/sessions.js';
import { passwordHashOfUser } from '../repositories/user-credentials.js';
import { confirmedAtProvider, SSO_CONFIRMATION } from './provider-confirmation.js';

/** Failed reauthentications a session may have; the next attempt ends it (contract 3.3). */
export const MAX_REAUTHENTICATION_FAILURES = 5;

const PASSWORD_METHOD = 'password:';

/**
 * Confirms that the person holding a session is its user before a sensitive change (contract
 * 3.3), from the `X-<Brand>-Reauthentication` header. A no-op for API-key callers: a key is a
 * credential made for unattended use and has no password to ask for.
 *
 * - header missing: `bad-request/reauthentication-needed-fields` (need `fields`) or
 *   `not-authorized/reauthentication-needed-action` (need `action`);
 * - wrong password: `not-authorized/reauthentication-failed`, counted in `sessions.reauth_failures`;
 * - after MAX_REAUTHENTICATION_FAILURES failures: `rate-limited/reauthentication-rate-limited`, and
 *   the session is ended, so a stolen session cannot be used to guess its user's password.
 */
export async function requireReauthentication(a: Call, headerValue: string | undefined, need: 'fields' | 'action'): Promise<void> {
  const { db, caller } = a;
  const credential = caller.credential;
  if (credential.kind !== 'session') return;
  if (headerValue === undefined) {
    throw need === 'fields' ? errors.reauthenticationNeededFields() : errors.reauthenticationNeededAction();
  }
  if (headerValue === SSO_CONFIRMATION) {
    // A user of an identity provider confirmed at the provider moments ago; no password to count.
    if (await confirmedAtProvider(db, credential.sessionId, a.now)) return;
    throw errors.reauthenticationFailed();
  }
  // The attempt is counted before the password is checked, so parallel wrong guesses cannot
  // get past the limit; a success clears the count again.
  if (!(await reserveReauthenticationAttempt(db, credential.sessionId, MAX_REAUTHENTICATION_FAILURES))) {
    await inTransaction(db, async (tx) => {
      await endSession(tx, credential.sessionId, a.now);
      await recordHistory(tx, a, [failedReauthentication(a, 'rate_limited')]);
    });
    throw errors.reauthenticationRateLimited();
  }
  const hash = caller.user === null ? null : await passwordHashOfUser(db, caller.user.id);
  if (!(await verifyPasswordOrDummy(hash, passwordOf(headerValue)))) {
    // The failure was counted by the reservation above; the record follows it at once. The
    // password check cannot share their transaction: a transaction must never wait for argon2.
    await inTransaction(db, (tx) => recordHistory(tx, a, [failedReauthentication(a, 'password_mismatch')]));
    throw errors.reauthenticationFailed();
  }
  await clearReauthenticationFailures(db, credential.sessionId);
}

/** Confirms identity for a service when it decides a change needs it (after its own checks). */
export type ConfirmIdentity = (need: 'fields' | 'action') => Promise<void>;

/** The confirmation for a call, from the reauthentication header value the request carried. */
export function identityConfirmation(a: Call, headerValue: string | undefined): ConfirmIdentity {
  return (need) => requireReauthentication(a, headerValue, need);
}

/**
 * `password:<PASSWORD>` is the documented form. The files CLI sends the password bare, so a value
 * without the `password:` prefix is taken whole as the password (a password that itself starts
 * with `password:` must then be sent in the prefixed form).
 */
function passwordOf(headerValue: string): string {
  return headerValue.startsWith(PASSWORD_METHOD) ? headerValue.slice(PASSWORD_METHOD.length) : headerValue;
}

function failedReauthentication(a: Call, failureType: FailureType): HistoryEvent {
  const who = a.caller.user?.username ?? 'A user';
  const ended = failureType === 'rate_limited' ? '; the session was ended' : '';
  return { action: 'failedreauth', failureType, workspaceId: a.caller.user?.workspaceId ?? null, display: `${who} failed to confirm their password${ended}` };
}
