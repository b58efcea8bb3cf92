import type { Db } from '../db/database.js';
import { appendEvents, type FailureType } from '../history/index.js';
import type { Origin } from '../lib/origin.js';
import type { User } from '../repositories/users.js';

/** Failure types whose name alone would not say what happened. */
const FAILURE_WORDS: Partial<Record<FailureType, string>> = {
  two_factor_mismatch: 'wrong second factor (authenticator code, recovery code or passkey)',
  two_factor_required: 'a password alone does not sign this two-factor user in here; use an API key or an SSH key',
};

/** An unknown username is recorded as typed, but no longer than this: it may be anything a client sent. */
const MAX_RECORDED_USERNAME = 100;

/**
 * Records a sign-in, successful or not, in the transaction `tx` (the one that wrote the login
 * records it goes with). A failure is recorded under the account it named when that exists, so
 * the user and its administrators see attempts on it; an unknown username's attempt is
 * site-level. The password is never recorded.
 */
export async function recordSignIn(
  tx: Db,
  attempt: { now: number; origin: Origin; username: string },
  account: User | undefined,
  failureType: FailureType | undefined,
  /** How the second factor was answered, in words ("an authenticator code"), when one was. */
  secondFactor?: string,
): Promise<void> {
  const username = account?.username ?? attempt.username.slice(0, MAX_RECORDED_USERNAME);
  const door = attempt.origin.interface;
  await appendEvents(tx, { now: attempt.now, origin: attempt.origin, actor: { userId: account?.id ?? null, username, apiKeyId: null } }, [
    failureType === undefined
      ? { action: 'login', workspaceId: account?.workspaceId ?? null, display: `${username} signed in (${door}${secondFactor === undefined ? '' : `, with ${secondFactor}`})` }
      : {
          action: 'failedlogin',
          failureType,
          workspaceId: account?.workspaceId ?? null,
          display: `Failed sign-in as ${username} (${door}): ${FAILURE_WORDS[failureType] ?? failureType.replaceAll('_', ' ')}`,
        },
  ]);
}
