import { callerFromPassword } from '../access/index.js';
import { hashesEqual, hashSecret, newSessionId } from './secrets.js';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import { appendEvents } from '../history/index.js';
import type { Origin } from '../lib/origin.js';
import type { Clock } from '../lib/time.js';
import { endSession, findSessionCandidates, insertSession } from '../repositories/sessions.js';
import { recordLastLogin } from '../repositories/user-credentials.js';
import { findUserById, type User } from '../repositories/users.js';
import { admitAtDoor } from './door-admission-history.js';
import { verifyPasswordSignIn, type PasswordSignIn } from './sign-in.js';
import { noteActivity } from './user-activity.js';

// Signing in and out have no caller yet (or none any more), so these take the database and the
// clock, or the moment, rather than a Call.

export interface NewSession {
  /** The session id: shown once, here; only its hash is stored. */
  id: string;
  user: User;
  createdAt: number;
}

/**
 * POST /sessions (contract 3.2): a verified password sign-in (sign-in.ts, with its throttling and
 * its one answer for every failure), then a session. One moment serves both, so the session's
 * `created_at` and the user's `last_login_at` are the time the login was attempted.
 */
export async function logIn(db: Db, clock: Clock, input: PasswordSignIn & { encrypted: boolean }): Promise<NewSession> {
  const now = clock.now();
  const user = await verifyPasswordSignIn(db, now, input);
  // A user whose own settings close the REST API (or this address) gets no session to use it with.
  const caller = callerFromPassword(user);
  await admitAtDoor(db, caller, 'rest', { ip: input.clientIp, encrypted: input.encrypted, interface: input.interface }, now);
  const session = await startSession(db, now, user);
  await noteActivity(db, caller, input.interface === 'web' ? 'web-login' : 'restapi-login', now);
  return session;
}

/**
 * A new session for a user a sign-in has just verified, and its `last_login_at`, in one
 * transaction. Checks nothing itself: call it only with the answer of verifyPasswordSignIn.
 */
export async function startSession(db: Db, now: number, user: User): Promise<NewSession> {
  const id = newSessionId();
  const { lookup, hash } = hashSecret(id);
  await db.transaction().execute(async (tx) => {
    await insertSession(tx, { userId: user.id, lookup, secretHash: hash, now });
    await recordLastLogin(tx, user.id, now);
  });
  return { id, user: { ...user, lastLoginAt: now }, createdAt: now };
}

/**
 * DELETE /sessions: ends the session the id names. An unknown, already ended or missing id
 * changes nothing and is not an error (contract 3.2), so the answer tells a caller nothing.
 */
export async function logOut(db: Db, clock: Clock, sessionId: string | undefined, origin: Origin): Promise<void> {
  if (sessionId === undefined) return;
  const { lookup, hash } = hashSecret(sessionId);
  const candidate = (await findSessionCandidates(db, lookup)).find((c) => hashesEqual(c.secretHash, hash));
  if (candidate === undefined || candidate.session.endedAt !== null) return;
  const user = await findUserById(db, candidate.session.userId);
  const now = clock.now();
  await inTransaction(db, async (tx) => {
    // Ended meanwhile by another request (a sign-out sent twice at once): that one's record.
    if (!(await endSession(tx, candidate.session.id, now))) return;
    const actor = { userId: candidate.session.userId, username: user?.username ?? null, apiKeyId: null };
    await appendEvents(tx, { now, origin, actor }, [
      { action: 'logout', workspaceId: user?.workspaceId ?? null, display: `${user?.username ?? 'A user'} signed out (${origin.interface})` },
    ]);
  });
}
