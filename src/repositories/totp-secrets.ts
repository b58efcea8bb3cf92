import type { Db } from '../db/database.js';

export interface StoredTotp {
  userId: number;
  secretSealed: string;
  createdAt: number;
  /** Null while enrolment waits for its first code. */
  confirmedAt: number | null;
  lastUsedStep: number | null;
}

export async function findTotp(db: Db, userId: number): Promise<StoredTotp | undefined> {
  const row = await db.selectFrom('user_totp').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return row === undefined ? undefined : {
    userId: row.user_id,
    secretSealed: row.secret_sealed,
    createdAt: Number(row.created_at),
    confirmedAt: row.confirmed_at === null ? null : Number(row.confirmed_at),
    lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
  };
}

/** Starts (or starts again) an enrolment: a new, unconfirmed secret in place of any earlier one. */
export async function putPendingTotp(db: Db, userId: number, secretSealed: string, now: number): Promise<void> {
  // One statement, so that two starts at once leave one of them, never a clash of keys.
  await db.insertInto('user_totp').values({ user_id: userId, secret_sealed: secretSealed, created_at: now, confirmed_at: null, last_used_step: null })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret_sealed: secretSealed, created_at: now, confirmed_at: null, last_used_step: null }))
    .execute();
}

/**
 * Takes the 30-second step a code was accepted for, once: true only for the first caller to take
 * a step later than every step taken before, so a code, or an older one, never counts twice, even
 * when two requests carry it at the same moment. Confirms a pending enrolment as it does.
 */
export async function takeTotpStep(db: Db, userId: number, step: number, now: number): Promise<boolean> {
  const result = await db.updateTable('user_totp')
    .set((eb) => ({ last_used_step: step, confirmed_at: eb.fn.coalesce('confirmed_at', eb.val(now)) }))
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteTotp(db: Db, userId: number): Promise<boolean> {
  const result = await db.deleteFrom('user_totp').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Which of these users have a confirmed authenticator app (the users' list shows `active_2fa`). */
export async function usersWithTotp(db: Db, userIds: readonly number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db.selectFrom('user_totp').select('user_id').where('user_id', 'in', [...new Set(userIds)]).where('confirmed_at', 'is not', null).execute();
  return new Set(rows.map((row) => row.user_id));
}
