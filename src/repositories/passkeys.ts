import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { UserPasskeysTable } from '../db/tables.js';

export interface Passkey {
  id: number;
  userId: number;
  name: string;
  /** base64url */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  aaguid: string | null;
  backedUp: boolean;
  createdAt: number;
  lastUsedAt: number | null;
}

function toPasskey(row: Selectable<UserPasskeysTable>): Passkey {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    credentialId: row.credential_id,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: row.transports === '' ? [] : row.transports.split(','),
    aaguid: row.aaguid,
    backedUp: Boolean(row.backed_up),
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

export interface NewPasskey {
  userId: number;
  name: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: readonly string[];
  aaguid: string | null;
  backedUp: boolean;
  now: number;
}

export async function insertPasskey(db: Db, passkey: NewPasskey): Promise<Passkey> {
  const row = await db
    .insertInto('user_passkeys')
    .values({
      user_id: passkey.userId,
      name: passkey.name,
      credential_id: passkey.credentialId,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: passkey.transports.join(','),
      aaguid: passkey.aaguid,
      backed_up: passkey.backedUp,
      created_at: passkey.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toPasskey(row);
}

/** A user's passkeys, oldest first. */
export async function listPasskeysOfUser(db: Db, userId: number): Promise<Passkey[]> {
  return (await db.selectFrom('user_passkeys').selectAll().where('user_id', '=', userId).orderBy('id').execute()).map(toPasskey);
}

export async function userHasPasskeys(db: Db, userId: number): Promise<boolean> {
  return (await db.selectFrom('user_passkeys').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst()) !== undefined;
}

/** Which of these users have a passkey. */
export async function usersWithPasskeys(db: Db, userIds: readonly number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db.selectFrom('user_passkeys').select('user_id').distinct().where('user_id', 'in', userIds).execute();
  return new Set(rows.map((row) => row.user_id));
}

/** One passkey of one user: another user's passkey is not found. */
export async function findPasskeyOfUser(db: Db, userId: number, id: number): Promise<Passkey | undefined> {
  const row = await db.selectFrom('user_passkeys').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return row === undefined ? undefined : toPasskey(row);
}

export async function findPasskeyByCredentialId(db: Db, userId: number, credentialId: string): Promise<Passkey | undefined> {
  const row = await db.selectFrom('user_passkeys').selectAll().where('user_id', '=', userId).where('credential_id', '=', credentialId).executeTakeFirst();
  return row === undefined ? undefined : toPasskey(row);
}

/** Whether any user registered this credential already (credential ids are unique on the site). */
export async function credentialIdRegistered(db: Db, credentialId: string): Promise<boolean> {
  return (await db.selectFrom('user_passkeys').select('id').where('credential_id', '=', credentialId).executeTakeFirst()) !== undefined;
}

export async function renamePasskey(db: Db, id: number, name: string): Promise<void> {
  await db.updateTable('user_passkeys').set({ name }).where('id', '=', id).execute();
}

/** Answers whether this call deleted it (another request may have, meanwhile). */
export async function deletePasskey(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('user_passkeys').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deletePasskeysOfUser(db: Db, userId: number): Promise<number> {
  const result = await db.deleteFrom('user_passkeys').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * A verified assertion: the counter moves to what the authenticator reported, and the use is
 * noted. Only while the counter is still the one the assertion was checked against, so of two
 * assertions checked at once against the same counter only one counts.
 */
export async function recordPasskeyUse(db: Db, id: number, checkedCounter: number, newCounter: number, now: number): Promise<boolean> {
  const result = await db.updateTable('user_passkeys')
    .set({ counter: newCounter, last_used_at: now })
    .where('id', '=', id)
    .where('counter', '=', checkedCounter)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// Challenges. A challenge is issued to one session (a registration by a signed-in user) or one
// partial session (a sign-in's second step, or a registration during enrolment), and taken by the
// one answer that uses it: a compare-and-clear, so two answers to one challenge cannot both pass.

export async function setSessionChallenge(db: Db, sessionId: number, challenge: string, expiresAt: number): Promise<void> {
  await db.updateTable('sessions').set({ webauthn_challenge: challenge, webauthn_challenge_expires_at: expiresAt }).where('id', '=', sessionId).execute();
}

/** The session's challenge, cleared; undefined when it has none, or it has expired (cleared too). */
export async function takeSessionChallenge(db: Db, sessionId: number, now: number): Promise<string | undefined> {
  const row = await db.selectFrom('sessions').select(['webauthn_challenge', 'webauthn_challenge_expires_at']).where('id', '=', sessionId).executeTakeFirst();
  const challenge = row?.webauthn_challenge ?? null;
  if (challenge === null) return undefined;
  const taken = await db.updateTable('sessions')
    .set({ webauthn_challenge: null, webauthn_challenge_expires_at: null })
    .where('id', '=', sessionId)
    .where('webauthn_challenge', '=', challenge)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 0) return undefined;
  const expiresAt = row?.webauthn_challenge_expires_at ?? null;
  return expiresAt !== null && Number(expiresAt) > now ? challenge : undefined;
}

/** Sets the challenge of a live partial session of this user; false when there is none. */
export async function setPartialSessionChallenge(db: Db, partialSessionId: number, userId: number, challenge: string): Promise<boolean> {
  const result = await db.updateTable('partial_sessions').set({ webauthn_challenge: challenge })
    .where('id', '=', partialSessionId).where('user_id', '=', userId).where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The partial session's challenge, cleared; undefined when it has none, or the partial session is
 * not this user's, has ended or has expired.
 */
export async function takePartialSessionChallenge(db: Db, partialSessionId: number, userId: number, now: number): Promise<string | undefined> {
  const row = await db.selectFrom('partial_sessions').select(['webauthn_challenge', 'expires_at', 'ended_at'])
    .where('id', '=', partialSessionId).where('user_id', '=', userId).executeTakeFirst();
  const challenge = row?.webauthn_challenge ?? null;
  if (row === undefined || challenge === null) return undefined;
  const taken = await db.updateTable('partial_sessions').set({ webauthn_challenge: null })
    .where('id', '=', partialSessionId)
    .where('webauthn_challenge', '=', challenge)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 0) return undefined;
  return row.ended_at === null && Number(row.expires_at) > now ? challenge : undefined;
}
