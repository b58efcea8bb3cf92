import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { appendEvents } from '../history/index.js';
import { clientAddressKey } from '../identity/index.js';
import { bundlePasswordFailuresSince, insertBundlePasswordFailure, pruneBundlePasswordFailures } from '../repositories/bundle-visits.js';
import { bundlePasswordMatches, type FoundBundle } from './bundle-lookup.js';

// A share link's password, as its visitors give it (docs/sharing.md#visiting-a-link). Guessing is
// limited as sign-in is (identity/login-protection.ts): the wrong passwords of the last hour are
// kept in the database, so the limit holds on every worker and node, and counted per link (a
// flood from many addresses) and per client address (one client trying many links); past either
// limit the password is not even looked at. Each wrong password is recorded in History.

const WINDOW_MS = 60 * 60_000;
/** Wrong passwords one link takes in an hour, from anyone. */
export const LINK_PASSWORD_FAILURES_PER_HOUR = 30;
/** Wrong passwords one client address may give in an hour, to any link. */
export const CLIENT_PASSWORD_FAILURES_PER_HOUR = 10;
const MAX_PASSWORD = 1024;

/**
 * Passes when the link has no password or `password` is its password; else refuses with
 * `rate-limited/too-many-bundle-password-attempts` (past a limit: the password is not checked, and
 * nothing recorded) or `not-authenticated/bundle-password-incorrect` (recorded).
 */
export async function assertPasswordAccepted(db: Db, found: FoundBundle, password: string | undefined, ip: string, now: number): Promise<void> {
  const { bundle } = found;
  if (bundle.passwordHash === null) return;
  const clientKey = clientAddressKey(ip);
  const since = now - WINDOW_MS;
  const failures = await bundlePasswordFailuresSince(db, { bundleId: bundle.id, clientKey }, since);
  const limited = [
    failures.link.count >= LINK_PASSWORD_FAILURES_PER_HOUR ? failures.link.oldest : undefined,
    failures.client.count >= CLIENT_PASSWORD_FAILURES_PER_HOUR ? failures.client.oldest : undefined,
  ].filter((oldest): oldest is number => oldest !== undefined && oldest !== null);
  if (limited.length > 0) {
    // When the oldest failure that holds the limit leaves the window.
    const freesAt = Math.max(...limited) + WINDOW_MS;
    throw errors.tooManyBundlePasswordAttempts(Math.max(1, Math.ceil((freesAt - now) / 1000)));
  }
  const given = typeof password === 'string' && password.length <= MAX_PASSWORD ? password : '';
  if (await bundlePasswordMatches(bundle, given)) return;
  await inTransaction(db, async (tx) => {
    await insertBundlePasswordFailure(tx, { bundleId: bundle.id, clientKey, now });
    await pruneBundlePasswordFailures(tx, since);
    await appendEvents(tx, {
      now,
      origin: { interface: 'web', ip, bundle: { id: bundle.id, code: bundle.code, registrationId: null } },
      actor: { userId: null, username: null, apiKeyId: null },
    }, [{
      action: 'bundle_password_failed', workspaceId: bundle.workspaceId, failureType: 'password_mismatch',
      display: `Wrong password given for share link ${bundle.settings.internal_name ?? bundle.code}`,
    }]);
  });
  throw errors.bundlePasswordIncorrect();
}
