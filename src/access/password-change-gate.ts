import { errors } from '../errors/catalogue.js';
import type { Caller } from './caller.js';

/**
 * What a route offers a session whose user must change its password (`require_password_change`):
 * - `own-user`: the user's own record, when the route's `:id` names it (reading it tells the
 *   console who signed in and that a change is due; updating it is how the password changes);
 * - `always`: what a password form needs to be filled in (the site's password rules).
 * Every other route is refused until the password is changed.
 */
export type PasswordChangeReach = 'own-user' | 'always';

/**
 * Whether the caller is a session of a user who must change its password. Only sessions wait:
 * a key is a credential for unattended use, which cannot answer a password form, and an SFTP or
 * WebDAV sign-in has no way to offer one (docs/authentication.md).
 */
export function passwordChangePending(caller: Caller): boolean {
  return caller.credential.kind === 'session' && caller.user?.profile.requirePasswordChange === true;
}

/** The gate at the REST door: a waiting session reaches only the routes that serve the change. */
export function assertPasswordChangeAllows(caller: Caller, reach: PasswordChangeReach | undefined, targetUserId: number | undefined): void {
  if (!passwordChangePending(caller)) return;
  if (reach === 'always') return;
  if (reach === 'own-user' && targetUserId === caller.user?.id) return;
  throw errors.passwordChangeRequired();
}

/** An update of one's own record by a waiting session must set the password: nothing else goes first. */
export function assertUpdateChangesPassword(caller: Caller, targetUserId: number, setsPassword: boolean): void {
  if (passwordChangePending(caller) && caller.user?.id === targetUserId && !setsPassword) throw errors.passwordChangeRequired();
}
