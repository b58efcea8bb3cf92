import { errors } from '../errors/catalogue.js';
import type { Caller } from './caller.js';
import { actsAtSiteLevel } from './site-level.js';

/**
 * A user's second factors are changed by that user, present: signed in with a password (a
 * session, which reauthenticates for the change) or, when the site requires a second factor the
 * user lacks, with the partial session its sign-in earned. An API key cannot: it is a credential
 * made for unattended use, and whoever holds one must not be able to remove, or replace, what
 * protects the account's password sign-in. An administrator resets another's (directory/), never
 * sets them up.
 */
export function assertChangesOwnSecondFactors(caller: Caller): void {
  if (caller.credential.kind !== 'session' || caller.user === null) {
    throw errors.secondFactorsNeedSession();
  }
}

/**
 * Requiring a user's second factor is for any administrator of the user; exempting a user from the
 * site's requirement (`require_2fa` `never_require`) undoes a Site Administrators' decision, so it
 * is theirs alone, at the site level: a Workspace Administrator could otherwise exempt itself, or
 * those it administers, from the policy that binds them.
 */
export function assertMaySetTwoFactorRequirement(caller: Caller, value: string | undefined): void {
  if (value === 'never_require' && !actsAtSiteLevel(caller)) {
    throw errors.insufficientPermissionForParams('Only a Site Administrator may exempt a user from two-factor authentication (require_2fa never_require).');
  }
}
