import type { Db } from '../db/database.js';

/** Replaces a user's recovery codes with a new set, given as hashes. */
export async function replaceRecoveryCodes(db: Db, userId: number, codeHashes: readonly string[], now: number): Promise<void> {
  await deleteRecoveryCodes(db, userId);
  if (codeHashes.length === 0) return;
  await db.insertInto('user_recovery_codes').values(codeHashes.map((codeHash) => ({ user_id: userId, code_hash: codeHash, created_at: now, used_at: null }))).execute();
}

/** The unused codes' hashes with their row ids; the caller compares them in constant time. */
export async function unusedRecoveryCodes(db: Db, userId: number): Promise<{ id: number; codeHash: string }[]> {
  const rows = await db.selectFrom('user_recovery_codes').select(['id', 'code_hash']).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  return rows.map((row) => ({ id: row.id, codeHash: row.code_hash }));
}

/** Spends a code: true only for the one request that spent it. */
export async function spendRecoveryCode(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db.updateTable('user_recovery_codes').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countUnusedRecoveryCodes(db: Db, userId: number): Promise<number> {
  const row = await db.selectFrom('user_recovery_codes').select((eb) => eb.fn.countAll<number | string>().as('n')).where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Whether there were any to delete. */
export async function deleteRecoveryCodes(db: Db, userId: number): Promise<boolean> {
  const result = await db.deleteFrom('user_recovery_codes').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
