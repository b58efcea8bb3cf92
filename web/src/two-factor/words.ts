import { ApiError } from '../api/client';

/** The answer of POST /sessions when the password was right and a second step is needed. */
export const SECOND_STEP_NEEDED = 'not-authenticated/two-factor-authentication-error';
/** The answer of POST /sessions when the site requires two-factor authentication the person has not set up. */
export const SETUP_REQUIRED = 'not-authorized/two-factor-authentication-required';
const CODE_INCORRECT = 'not-authenticated/one-time-password-incorrect';

/** Whether a refusal is a wrong code, which the person may simply try again. */
export function isWrongCode(caught: unknown): boolean {
  return caught instanceof ApiError && caught.type === CODE_INCORRECT;
}

/**
 * Whether a refusal means the sign-in's partial session is over (it expired, or too many wrong
 * codes ended it): the person starts again from their password. A wrong code is not that, nor a
 * refusal that says what to fix.
 */
export function isSignInOver(caught: unknown): boolean {
  return caught instanceof ApiError && (caught.status === 401 || caught.status === 403 || caught.status === 429) && caught.type !== CODE_INCORRECT;
}

export const WRONG_APP_CODE = 'That code is not right. A code changes every 30 seconds: enter the one your app shows now.';
export const WRONG_RECOVERY_CODE = 'That recovery code is not right, or it has been used already. Each recovery code works once.';

/** What to tell a person sent back to the password step: the server's words when it was a lockout, else that time ran out. */
export function signInOverNotice(caught: unknown): string {
  if (caught instanceof ApiError && (caught.type === 'not-authenticated/locked-out' || caught.status === 429)) return caught.message;
  return 'That sign-in took too long or had too many wrong codes, so it was stopped. Enter your password again to start over.';
}

/**
 * The methods a person has, in words (a user's `type_of_2fa`: 'totp', 'webauthn' or
 * 'totp_webauthn'): as a table's label ("Authenticator app and passkey"), or inside a sentence
 * ("an authenticator app and a passkey").
 */
export function methodsInWords(typeOf2fa: string | null | undefined, form: 'label' | 'in a sentence' = 'label'): string {
  const kinds = (typeOf2fa ?? '').split('_').filter((kind) => kind !== '');
  const words = kinds.map((kind) => {
    const word = kind === 'totp' ? 'authenticator app' : kind === 'webauthn' ? 'passkey' : kind;
    return form === 'label' ? word : `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;
  });
  if (words.length === 0) return form === 'label' ? 'Not set up' : 'nothing';
  const joined = words.join(' and ');
  return form === 'label' ? joined.charAt(0).toUpperCase() + joined.slice(1) : joined;
}

/** A key for typing: groups of four characters, easier to copy by hand than one long run. */
export function inGroupsOfFour(secret: string): string {
  return secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** A message for any other failure: the server's words, or `fallback` when it could not be reached. */
export function messageOf(caught: unknown, fallback: string): string {
  return caught instanceof Error && caught.message !== '' ? caught.message : fallback;
}
