/**
 * Why a sign-in with a provider did not sign anyone in, as the console is told it (the sign-in
 * page's `sso_error`): a code, never text from the provider, so nothing a provider or an attacker
 * wrote reaches the page.
 */
export type RefusalCode =
  /** An Atrium user has this user name, but this account is not linked to it: an administrator links it. */
  | 'not_linked'
  /** No Atrium user for this account, and the provider makes none. */
  | 'no_account'
  /** The provider sent no usable user name for a new user. */
  | 'no_username'
  /** The user is disabled (or past `authenticate_until`). */
  | 'disabled'
  /** The user's own settings refuse the console or this address. */
  | 'not_allowed'
  /** The provider's answer failed a check, or the provider could not be reached. */
  | 'failed'
  /** The sign-in was not started in this browser, took too long, or was already used. */
  | 'expired'
  /** The provider is unknown or disabled. */
  | 'unavailable'
  /** A reauthentication signed in someone else, or the session it confirms has ended. */
  | 'reauthentication_failed';

export class SsoRefusal extends Error {
  constructor(readonly code: RefusalCode, message: string, readonly returnTo: string = '/files') {
    super(message);
    this.name = 'SsoRefusal';
  }
}
