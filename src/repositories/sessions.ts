import type { Db } from '../db/database.js';
import { TOUCH_INTERVAL_MS } from './touch-interval.js';
import { cachedRead } from '../db/read-cache.js';
import { JOINED_USER_COLUMNS, toUser, unprefixUser, type User } from './users.js';

export interface Session {
  id: number;
  userId: number;
  createdAt: number;
  lastActiveAt: number;
  endedAt: number | null;
  reauthFailures: number;
}

export interface SessionCandidate {
  session: Session;
  secretHash: string;
  user: User;
}

/**
 * Sessions whose hash starts with `lookup`, each with its user; the caller compares the full hash.
 * Read on every request, so cached until the data changes (db/read-cache.ts); frozen because shared.
 */
export function findSessionCandidates(db: Db, lookup: string): Promise<readonly SessionCandidate[]> {
  return cachedRead(db, 'session-candidates', lookup, () => loadSessionCandidates(db, lookup));
}

async function loadSessionCandidates(db: Db, lookup: string): Promise<readonly SessionCandidate[]> {
  const rows = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('s')
    .select(JOINED_USER_COLUMNS)
    .where('s.lookup', '=', lookup)
    .execute();
  return Object.freeze(rows.map((row) => Object.freeze({
    session: Object.freeze({
      id: row.id,
      userId: row.user_id,
      createdAt: row.created_at,
      lastActiveAt: row.last_active_at,
      endedAt: row.ended_at,
      reauthFailures: row.reauth_failures,
    }),
    secretHash: row.secret_hash,
    user: Object.freeze(toUser(unprefixUser(row.user_id, row))),
  })));
}

/** Ends the session unless it has ended already; answers whether this call ended it. */
export async function endSession(db: Db, sessionId: number, now: number): Promise<boolean> {
  const result = await db.updateTable('sessions').set({ ended_at: now }).where('id', '=', sessionId).where('ended_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Moves the idle clock forward. Written at most once a minute per session, so a busy session
 * is not a database write on every request; the idle timeout is therefore exact to a minute.
 */
export async function touchSession(db: Db, sessionId: number, now: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_active_at: now })
    .where('id', '=', sessionId)
    .where('last_active_at', '<', now - TOUCH_INTERVAL_MS)
    .execute();
}

/** Ends every live session of a user, except `exceptSessionId` (the one changing its own password). */
export async function endSessionsOfUser(db: Db, userId: number, now: number, exceptSessionId?: number): Promise<void> {
  let query = db.updateTable('sessions').set({ ended_at: now }).where('user_id', '=', userId).where('ended_at', 'is', null);
  if (exceptSessionId !== undefined) query = query.where('id', '!=', exceptSessionId);
  await query.execute();
}

export interface NewSession {
  userId: number;
  lookup: string;
  secretHash: string;
  now: number;
}

export async function insertSession(db: Db, session: NewSession): Promise<number> {
  const row = await db
    .insertInto('sessions')
    .values({ user_id: session.userId, lookup: session.lookup, secret_hash: session.secretHash, created_at: session.now, last_active_at: session.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Counts one reauthentication attempt against a live session before its password is checked,
 * unless `limit` attempts have already failed: parallel wrong guesses cannot get past the limit.
 * False when the limit is reached (or the session has ended).
 */
export async function reserveReauthenticationAttempt(db: Db, sessionId: number, limit: number): Promise<boolean> {
  const row = await db
    .updateTable('sessions')
    .set((eb) => ({ reauth_failures: eb('reauth_failures', '+', 1) }))
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .where('reauth_failures', '<', limit)
    .returning('reauth_failures')
    .executeTakeFirst();
  return row !== undefined;
}

/** A successful reauthentication: the reserved attempt, and earlier failures, no longer count. */
export async function clearReauthenticationFailures(db: Db, sessionId: number): Promise<void> {
  await db.updateTable('sessions').set({ reauth_failures: 0 }).where('id', '=', sessionId).execute();
}
