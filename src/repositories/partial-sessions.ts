import type { Db } from '../db/database.js';

export type PartialSessionPurpose = 'second_factor' | 'enrolment';

export interface PartialSession {
  id: number;
  userId: number;
  purpose: PartialSessionPurpose;
  createdAt: number;
  expiresAt: number;
  endedAt: number | null;
  failures: number;
  webauthnChallenge: string | null;
}

export interface PartialSessionCandidate {
  partial: PartialSession;
  secretHash: string;
}

export async function insertPartialSession(db: Db, row: { userId: number; lookup: string; secretHash: string; purpose: PartialSessionPurpose; now: number; expiresAt: number }): Promise<number> {
  const inserted = await db.insertInto('partial_sessions').values({
    user_id: row.userId, lookup: row.lookup, secret_hash: row.secretHash, purpose: row.purpose, created_at: row.now, expires_at: row.expiresAt, ended_at: null, webauthn_challenge: null,
  }).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** Partial sessions whose hash starts with `lookup`; the caller compares the full hash. */
export async function findPartialSessionCandidates(db: Db, lookup: string): Promise<PartialSessionCandidate[]> {
  const rows = await db.selectFrom('partial_sessions').selectAll().where('lookup', '=', lookup).execute();
  return rows.map((row) => ({
    secretHash: row.secret_hash,
    partial: {
      id: row.id,
      userId: row.user_id,
      purpose: row.purpose === 'enrolment' ? 'enrolment' : 'second_factor',
      createdAt: Number(row.created_at),
      expiresAt: Number(row.expires_at),
      endedAt: row.ended_at === null ? null : Number(row.ended_at),
      failures: Number(row.failures),
      webauthnChallenge: row.webauthn_challenge,
    },
  }));
}

/** Counts a wrong answer; false when the partial session had already used its `max` tries (or ended). */
export async function reservePartialSessionTry(db: Db, id: number, max: number): Promise<boolean> {
  const result = await db.updateTable('partial_sessions').set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('id', '=', id).where('ended_at', 'is', null).where('failures', '<', max).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Ends it: true only for the request that ended it, so one partial session yields one session. */
export async function endPartialSession(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db.updateTable('partial_sessions').set({ ended_at: now }).where('id', '=', id).where('ended_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function endPartialSessionsOfUser(db: Db, userId: number, now: number): Promise<void> {
  await db.updateTable('partial_sessions').set({ ended_at: now }).where('user_id', '=', userId).where('ended_at', 'is', null).execute();
}

export async function setPartialSessionChallenge(db: Db, id: number, challenge: string | null): Promise<void> {
  await db.updateTable('partial_sessions').set({ webauthn_challenge: challenge }).where('id', '=', id).execute();
}

/** Removes partial sessions that expired before `before`: they are worth nothing after their few minutes. */
export async function prunePartialSessions(db: Db, before: number): Promise<void> {
  await db.deleteFrom('partial_sessions').where('expires_at', '<', before).execute();
}
