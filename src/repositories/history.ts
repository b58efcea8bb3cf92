import { PostgresAdapter, type Insertable, type Selectable } from 'kysely';
import { compiledOnce } from '../db/compiled-once.js';
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
  const { rows } = await reserveStatement<{ last_id: number; last_hash: string }>(tx, count);
  const row = rows[0];
  if (row === undefined) throw new Error('the History chain row is missing');
  return { firstId: Number(row.last_id) - count + 1, previousHash: row.last_hash };
}

// A record is written by these statements inside every change: compiled once, they cost the
// database's work and little more (db/compiled-once.ts).
const reserveStatement = compiledOnce(1, (db, [count]: [number]) =>
  db.updateTable('history_chain').set((eb) => ({ last_id: eb('last_id', '+', count) })).where('id', '=', 1).returning(['last_id', 'last_hash']));

const HISTORY_COLUMNS = [
  'id', 'created_at', 'action', 'failure_type', 'interface', 'ip', 'user_id', 'username', 'api_key_id', 'workspace_id',
  'path', 'path_key', 'source', 'destination', 'destination_key', 'display', 'targets', 'hash', 'automation_id', 'automation_name',
] as const satisfies readonly (keyof NewHistoryRow)[];

/** A row of the placeholders, column by column, for the statements below. */
const placeholderRow = (values: unknown[]) => Object.fromEntries(HISTORY_COLUMNS.map((column, i) => [column, values[i]])) as NewHistoryRow;

const insertOneStatement = compiledOnce<unknown[]>(HISTORY_COLUMNS.length, (db, values) => db.insertInto('history').values(placeholderRow(values)));

const moveChainEndStatement = compiledOnce(1, (db, [hash]: [string]) =>
  db.updateTable('history_chain').set({ last_hash: hash }).where('id', '=', 1));

const HASH_ARGUMENT = HISTORY_COLUMNS.indexOf('hash');

// PostgreSQL writes in a WITH: the insert and the move of the chain's end go in one round trip,
// which on PostgreSQL costs more than either statement's own work.
const insertOneAndMoveChainEndStatement = compiledOnce<unknown[]>(HISTORY_COLUMNS.length, (db, values) =>
  db.with('recorded', (creator) => creator.insertInto('history').values(placeholderRow(values)).returning('id'))
    .updateTable('history_chain').set({ last_hash: values[HASH_ARGUMENT] as string }).where('id', '=', 1));

const INSERT_SLICE = 500;

/** The end of the chain as a writer last saw it: where it expects the next record to go. */
export interface ChainEnd {
  lastId: number;
  lastHash: string;
}

// The types PostgreSQL must be told for the columns that are not text: a parameter in a select
// list has none of its own.
const POSTGRES_CAST: Partial<Record<(typeof HISTORY_COLUMNS)[number], 'bigint' | 'integer'>> = {
  id: 'bigint', created_at: 'bigint', user_id: 'integer', api_key_id: 'integer', workspace_id: 'integer', automation_id: 'integer',
};
const ID_ARGUMENT = HISTORY_COLUMNS.indexOf('id');
const EXPECTED_ID_ARGUMENT = HISTORY_COLUMNS.length;
const EXPECTED_HASH_ARGUMENT = HISTORY_COLUMNS.length + 1;

// The chain moves only if it still ends where the writer expects, which also takes the chain row's
// lock; on PostgreSQL the record is inserted in the same statement, only if the chain moved.
const moveChainEndFromStatement = compiledOnce(4, (db, [lastId, lastHash, expectedId, expectedHash]: [number, string, number, string]) =>
  db.updateTable('history_chain').set({ last_id: lastId, last_hash: lastHash })
    .where('id', '=', 1).where('last_id', '=', expectedId).where('last_hash', '=', expectedHash));

// The statement also answers where the chain ended when it began: after a miss, that is where the
// next try goes (the parts of one statement all see the data as it was when it began).
const appendAfterStatement = compiledOnce<unknown[]>(HISTORY_COLUMNS.length + 2, (db, values) =>
  db.with('moved', (creator) => creator.updateTable('history_chain')
    .set({ last_id: values[ID_ARGUMENT] as number, last_hash: values[HASH_ARGUMENT] as string })
    .where('id', '=', 1).where('last_id', '=', values[EXPECTED_ID_ARGUMENT] as number).where('last_hash', '=', values[EXPECTED_HASH_ARGUMENT] as string)
    .returning('last_id'))
    .with('recorded', (creator) => creator.insertInto('history').columns([...HISTORY_COLUMNS])
      .expression((eb) => eb.selectFrom('moved').select(HISTORY_COLUMNS.map((column, i) => {
        const type = POSTGRES_CAST[column];
        return (type === undefined ? eb.val(values[i]) : eb.cast(eb.val(values[i]), type)).as(column);
      })))
      .returning('id'))
    .selectFrom('history_chain')
    .select((eb) => [eb.selectFrom('recorded').select((inner) => inner.fn.countAll().as('n')).as('appended'), 'last_id', 'last_hash'])
    .where('id', '=', 1));

/** Whether appendAfter writes in one statement here (PostgreSQL), so it needs no transaction around it. */
export function appendsInOneStatement(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Appends `row` (its id the one after `expected`'s, its hash chained on `expected`'s) if the chain
 * still ends at `expected`, and answers whether it did; if not, nothing is written. The check and
 * the move are one conditional update, which holds the chain row's lock until the transaction ends
 * like reserveChainIds, so two writers can never both append after the same end. On PostgreSQL
 * the insert rides in the same statement: one round trip, and none inside a transaction of its
 * own when this is all a transaction would hold (History's standalone records).
 */
export async function appendAfter(tx: Db, expected: ChainEnd, row: NewHistoryRow): Promise<AppendOutcome> {
  const values = HISTORY_COLUMNS.map((column) => row[column] ?? null);
  if (appendsInOneStatement(tx)) {
    const { rows } = await appendAfterStatement<{ appended: number | string; last_id: number | string; last_hash: string }>(tx, ...values, expected.lastId, expected.lastHash);
    const answer = rows[0];
    if (answer === undefined) throw new Error('the History chain row is missing');
    if (Number(answer.appended) === 1) return { appended: true };
    return { appended: false, endBefore: { lastId: Number(answer.last_id), lastHash: answer.last_hash } };
  }
  const moved = await moveChainEndFromStatement(tx, Number(row.id), row.hash, expected.lastId, expected.lastHash);
  if (Number(moved.numAffectedRows ?? 0) !== 1) return { appended: false };
  await insertOneStatement(tx, ...values);
  return { appended: true };
}

/**
 * What appendAfter did. When it did not append, PostgreSQL also answers where the chain ended as
 * the statement began: the end another writer's committed records left, worth one more try. It may
 * be stale too (a writer that had not committed yet), and it is the same as `expected` then.
 */
export type AppendOutcome = { appended: true } | { appended: false; endBefore?: ChainEnd };

/** Stores records whose ids were reserved by reserveChainIds and moves the chain's end to the last. */
export async function appendHistoryRows(tx: Db, rows: readonly NewHistoryRow[]): Promise<void> {
  const last = rows.at(-1);
  if (last === undefined) return;
  if (rows.length === 1) {
    const values = HISTORY_COLUMNS.map((column) => last[column] ?? null);
    if (tx.getExecutor().adapter instanceof PostgresAdapter) return void (await insertOneAndMoveChainEndStatement(tx, ...values));
    await insertOneStatement(tx, ...values);
  } else {
    // In slices: SQLite takes at most 32,766 bound values in one statement.
    for (let start = 0; start < rows.length; start += INSERT_SLICE) await tx.insertInto('history').values(rows.slice(start, start + INSERT_SLICE)).execute();
  }
  await moveChainEndStatement(tx, last.hash);
}

export async function readHistoryChain(db: Db): Promise<HistoryChain> {
  return db.selectFrom('history_chain').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
}

/** Records in id order after `afterId`, at most `limit`: what verification walks. */
export async function historyRowsAfter(db: Db, afterId: number, limit: number): Promise<HistoryRow[]> {
  return db.selectFrom('history').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
}

/**
 * One retention batch, in a transaction: locks the chain row (so two nodes never prune the same
 * records), takes the oldest records after the last pruned one, removes the leading run of those
 * made before `cutoff`, and moves the chain's pruned start to the last removed. Answers how many.
 */
export async function pruneHistoryBatch(tx: Db, cutoff: number, limit: number): Promise<number> {
  const chain = await tx.updateTable('history_chain').set((eb) => ({ pruned_id: eb.ref('pruned_id') })).where('id', '=', 1)
    .returning(['pruned_id']).executeTakeFirstOrThrow();
  const oldest = await tx.selectFrom('history').select(['id', 'created_at', 'hash']).where('id', '>', chain.pruned_id).orderBy('id').limit(limit).execute();
  const run = oldest.slice(0, firstIndexWhere(oldest, (row) => row.created_at >= cutoff));
  const last = run.at(-1);
  if (last === undefined) return 0;
  await tx.deleteFrom('history').where('id', '>', chain.pruned_id).where('id', '<=', last.id).execute();
  await tx.updateTable('history_chain').set({ pruned_id: last.id, pruned_hash: last.hash }).where('id', '=', 1).execute();
  return run.length;
}

function firstIndexWhere<T>(items: readonly T[], test: (item: T) => boolean): number {
  const index = items.findIndex(test);
  return index === -1 ? items.length : index;
}
