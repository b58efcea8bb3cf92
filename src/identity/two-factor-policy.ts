import type { Db } from '../db/database.js';
import { usersWithPasskeys } from '../repositories/passkeys.js';
import { findSecondFactorPresence } from '../repositories/second-factors.js';
import { usersWithTotp } from '../repositories/totp-secrets.js';
import type { User } from '../repositories/users.js';
import type { SiteSettings } from './site-settings.js';

/** The second factors a user has set up. */
export interface SecondFactors {
  /** A confirmed authenticator app. */
  totp: boolean;
  passkeys: boolean;
}

/** Files.com's names of the methods, as `two_factor_authentication_methods` and `type_of_2fa` spell them. */
export type TwoFactorMethod = 'totp' | 'webauthn';

export function secondFactorsOf(db: Db, userId: number): Promise<SecondFactors> {
  return findSecondFactorPresence(db, userId);
}

/** The second factors of each of these users, for the users' list (`active_2fa`, `type_of_2fa`). */
export async function secondFactorsOfUsers(db: Db, userIds: readonly number[]): Promise<Map<number, SecondFactors>> {
  const withTotp = await usersWithTotp(db, userIds);
  const withPasskeys = await usersWithPasskeys(db, userIds);
  return new Map(userIds.map((id) => [id, { totp: withTotp.has(id), passkeys: withPasskeys.has(id) }]));
}

export function hasSecondFactor(factors: SecondFactors): boolean {
  return factors.totp || factors.passkeys;
}

/**
 * Whether the user must have a second factor (docs/authentication.md#who-must-use-two-factor-authentication):
 * the user's own `require_2fa` when it says always or never; otherwise the site's `require_2fa` for
 * the kind of user `require_2fa_user_type` names. Users who sign in at an identity provider are
 * exempt while `require_2fa_exempt_all_sso_users` is on (their provider asks for its own factor).
 */
export function mustUseTwoFactor(settings: SiteSettings, user: User): boolean {
  if (user.authentication.method === 'sso' && settings.require_2fa_exempt_all_sso_users) return false;
  if (user.profile.require2fa === 'always_require') return true;
  if (user.profile.require2fa === 'never_require') return false;
  if (!settings.require_2fa) return false;
  switch (settings.require_2fa_user_type) {
    case 'all': return true;
    case 'site_admins': return user.siteAdmin;
    case 'workspace_admins': return user.siteAdmin || user.workspaceAdmin;
  }
}

/**
 * The methods a sign-in may answer its challenge with. A passkey needs a browser on the site's
 * own address, so only the console is offered one; an API client (the SDKs, the CLI) is offered
 * what it can type. A method set up stays usable if the site later stops offering it for new
 * setups: taking it away would lock its users out.
 */
export function challengeMethods(factors: SecondFactors, fromConsole: boolean): TwoFactorMethod[] {
  const methods: TwoFactorMethod[] = [];
  if (factors.totp) methods.push('totp');
  if (factors.passkeys && fromConsole) methods.push('webauthn');
  return methods;
}

/** Files.com's `type_of_2fa`: the methods, sorted, joined by `_`; null for none. */
export function typeOf2fa(factors: SecondFactors): string | null {
  const methods: TwoFactorMethod[] = [];
  if (factors.totp) methods.push('totp');
  if (factors.passkeys) methods.push('webauthn');
  return methods.length === 0 ? null : methods.sort().join('_');
}

/**
 * Whether a password alone may sign the user in at a door that cannot ask for a second factor
 * (WebDAV, SFTP): yes for a user with no second factor who is not required to have one, or when
 * the site allows it (`allowed_2fa_method_bypass_for_ftp_sftp_dav`). API keys and SSH keys are
 * not passwords and are never asked for a second factor.
 */
export function passwordAloneSuffices(settings: SiteSettings, user: User, factors: SecondFactors): boolean {
  if (settings.allowed_2fa_method_bypass_for_ftp_sftp_dav) return true;
  return !hasSecondFactor(factors) && !mustUseTwoFactor(settings, user);
}
