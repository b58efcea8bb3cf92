import { callerFromApiKey, callerFromSession, type Caller } from '../access/index.js';
import { hashesEqual, hashSecret } from './secrets.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import type { Clock } from '../lib/time.js';
import { findKeyCandidates, touchApiKey } from '../repositories/api-keys.js';
import { endSession, findSessionCandidates, touchSession } from '../repositories/sessions.js';
import { TOUCH_INTERVAL_MS } from '../repositories/touch-interval.js';
import { readSiteSettings } from './site-settings.js';

const MINUTE_MS = 60_000;

/** The credentials a request presented, already read from its headers (contract 3.1). */
export interface PresentedCredentials {
  sessionId: string | undefined;
  apiKey: string | undefined;
}

/**
 * Resolves the caller from the first credential present, in the contract's order: session id,
 * then API key. Unknown credentials are `invalid-credentials`; an ended or timed-out session
 * is `invalid-session`. It takes the database and the clock rather than a Call: it is what
 * produces the caller.
 */
export async function authenticate(db: Db, clock: Clock, presented: PresentedCredentials): Promise<Caller> {
  if (presented.sessionId !== undefined) return authenticateSession(db, clock, presented.sessionId);
  if (presented.apiKey !== undefined) return authenticateApiKey(db, clock, presented.apiKey);
  throw errors.authenticationRequired();
}

async function authenticateApiKey(db: Db, clock: Clock, secret: string): Promise<Caller> {
  const { lookup, hash } = hashSecret(secret);
  const candidate = (await findKeyCandidates(db, lookup)).find((c) => hashesEqual(c.secretHash, hash));
  const now = clock.now();
  if (candidate === undefined) throw errors.invalidCredentials();
  if (candidate.key.expiresAt !== null && candidate.key.expiresAt <= now) throw errors.invalidCredentials();
  // A disabled user's keys stop at once; they come back if the user is enabled again.
  if (candidate.user?.disabled === true) throw errors.invalidCredentials();
  // Skipping a touch that would change nothing keeps a busy key from writing (and from moving the
  // data version that cached reads depend on) on every request.
  const lastUseAt = candidate.key.lastUseAt;
  if (lastUseAt === null || lastUseAt < now - TOUCH_INTERVAL_MS) await touchApiKey(db, candidate.key.id, now);
  return callerFromApiKey(candidate.user, candidate.key);
}

async function authenticateSession(db: Db, clock: Clock, sessionId: string): Promise<Caller> {
  const { lookup, hash } = hashSecret(sessionId);
  const candidate = (await findSessionCandidates(db, lookup)).find((c) => hashesEqual(c.secretHash, hash));
  if (candidate === undefined) throw errors.invalidCredentials();
  const { session, user } = candidate;
  if (session.endedAt !== null) throw errors.invalidSession();
  const now = clock.now();
  const settings = await readSiteSettings(db);
  const idleTooLong = now - session.lastActiveAt > settings.session_expiry_minutes * MINUTE_MS;
  const livedTooLong = now - session.createdAt > settings.session_max_lifetime_minutes * MINUTE_MS;
  if (idleTooLong || livedTooLong || user.disabled) {
    await endSession(db, session.id, now);
    throw errors.invalidSession();
  }
  if (session.lastActiveAt < now - TOUCH_INTERVAL_MS) await touchSession(db, session.id, now);
  return callerFromSession(user, session.id, session.reauthFailures);
}
