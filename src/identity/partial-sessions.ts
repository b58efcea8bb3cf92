import type { Db } from '../db/database.js';
import {
  endPartialSession, findPartialSessionCandidates, insertPartialSession, prunePartialSessions, reservePartialSessionTry,
  type PartialSession, type PartialSessionPurpose,
} from '../repositories/partial-sessions.js';
import { hashesEqual, hashSecret, newSessionId } from './secrets.js';

/**
 * What a correct password earns a user who has (or must set up) a second factor: not a session,
 * but an id good for a few minutes and for one thing. `second_factor`: answering the challenge of
 * POST /sessions (a code, a recovery code or a passkey), five tries at most. `enrolment`: setting
 * up a first second factor when the site requires one, and nothing else (the /2fa endpoints).
 * Like a session id, it is shown once and stored hashed.
 */
const LIFETIME_MS: Readonly<Record<PartialSessionPurpose, number>> = {
  second_factor: 5 * 60_000,
  // Time to install an authenticator app and scan a code.
  enrolment: 15 * 60_000,
};
export const MAX_SECOND_FACTOR_TRIES = 5;

export interface IssuedPartialSession {
  id: number;
  /** The secret the client sends back as `partial_session_id`. */
  secret: string;
}

export async function issuePartialSession(db: Db, userId: number, purpose: PartialSessionPurpose, now: number): Promise<IssuedPartialSession> {
  // Whoever asks for one also sweeps out the expired: they are worth nothing after their minutes.
  await prunePartialSessions(db, now - LIFETIME_MS.enrolment);
  const secret = newSessionId();
  const { lookup, hash } = hashSecret(secret);
  const id = await insertPartialSession(db, { userId, lookup, secretHash: hash, purpose, now, expiresAt: now + LIFETIME_MS[purpose] });
  return { id, secret };
}

/** The live partial session of this purpose the secret names, or undefined (unknown, ended, expired, or another purpose). */
export async function findLivePartialSession(db: Db, secret: string, purpose: PartialSessionPurpose, now: number): Promise<PartialSession | undefined> {
  if (secret.length === 0 || secret.length > 256) return undefined;
  const { lookup, hash } = hashSecret(secret);
  const candidate = (await findPartialSessionCandidates(db, lookup)).find((c) => hashesEqual(c.secretHash, hash));
  const partial = candidate?.partial;
  if (partial === undefined || partial.endedAt !== null || partial.expiresAt <= now || partial.purpose !== purpose) return undefined;
  return partial;
}

/** Counts one try at the second factor: false once the partial session has had all its tries (it is then ended). */
export async function takeSecondFactorTry(db: Db, partial: PartialSession, now: number): Promise<boolean> {
  if (await reservePartialSessionTry(db, partial.id, MAX_SECOND_FACTOR_TRIES)) return true;
  await endPartialSession(db, partial.id, now);
  return false;
}

/** Spends it: true for the one request that does, so that one partial session opens one session. */
export function spendPartialSession(db: Db, partial: PartialSession, now: number): Promise<boolean> {
  return endPartialSession(db, partial.id, now);
}
