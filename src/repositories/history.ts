import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { HistoryChainTable, HistoryTable } from '../db/tables.js';

export type HistoryRow = Selectable<HistoryTable>;
export type NewHistoryRow = Insertable<HistoryTable>;
export type HistoryChain = Selectable<HistoryChainTable>;

/**
 * Takes the next `count` ids of the History chain and returns the first with the hash before it.
 * The update locks the chain row until the transaction ends (PostgreSQL's row lock, SQLite's write
 * lock), so every writer on every node extends the chain in id order. Call it last in a
 * transaction: the lock is then held only until the commit.
 */
export async function reserveChainIds(tx: Db, count: number): Promise<{ firstId: number; previousHash: string }> {
  const row = await tx
    .updateTable('history_chain')
    .set((eb) => ({ last_id: eb('last_id', '+', count) }))
    .where('id', '=', 1)
    .returning(['last_id', 'last_hash'])
    .executeTakeFirstOrThrow();
  return { firstId: row.last_id - count + 1, previousHash: row.last_hash };
}

/** Stores records whose ids were reserved by reserveChainIds and moves the chain's end to the last. */
export async function appendHistoryRows(tx: Db, rows: readonly NewHistoryRow[]): Promise<void> {
  const last = rows.at(-1);
  if (last === undefined) return;
  await tx.insertInto('history').values([...rows]).execute();
  await tx.updateTable('history_chain').set({ last_hash: last.hash }).where('id', '=', 1).execute();
}

export async function readHistoryChain(db: Db): Promise<HistoryChain> {
  return db.selectFrom('history_chain').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
}

/** Records in id order after `afterId`, at most `limit`: what verification walks. */
export async function historyRowsAfter(db: Db, afterId: number, limit: number): Promise<HistoryRow[]> {
  return db.selectFrom('history').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
}
