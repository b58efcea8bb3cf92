import type { Db } from '../db/database.js';
import { sessionConfirmedSince } from '../repositories/sso-flows.js';

/**
 * The reauthentication header's value for a session whose user confirmed it at its identity
 * provider (docs/authentication.md#single-sign-on-openid-connect): users who sign in with a
 * provider have no password to give, so they sign in at the provider again (POST
 * /sso_reauthentications), and for a short while after, `sso` stands for their password.
 * No password is this short (the shortest allowed has 8 characters), so it never shadows one.
 */
export const SSO_CONFIRMATION = 'sso';

/** How long a confirmation at the provider stands for a password. */
export const SSO_CONFIRMATION_WINDOW_MS = 5 * 60 * 1000;

/** Whether the session was confirmed at its user's provider within the window. */
export function confirmedAtProvider(db: Db, sessionId: number, now: number): Promise<boolean> {
  return sessionConfirmedSince(db, sessionId, now - SSO_CONFIRMATION_WINDOW_MS);
}
