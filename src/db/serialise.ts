import { createHash } from 'node:crypto';
import { PostgresAdapter, sql } from 'kysely';
import type { Db } from './db.js';

// Writers that read before they write (is the name taken? which grants does this one replace? is
// there another Site Administrator?) must not both read the state the other is about to change:
// each of them would decide on a world without the other's change. These make such writers of the
// same thing wait for each other inside their transactions, until the commit.
//
// SQLite needs nothing more: it has one writer at a time, and every transaction begins as that
// writer (`begin immediate`, db/sqlite-statement-cache.ts), so no other process sharing the file
// (a worker) can change anything between its reads and its writes. On PostgreSQL these must come
// before the transaction's reads.

/**
 * Waits until no other transaction holds the turn of `subject` (any string naming what the writers
 * share: `grants-of:user:7`), then holds it until this transaction ends. PostgreSQL: a
 * transaction-scoped advisory lock on a 64-bit hash of the subject (two subjects sharing a hash
 * only wait for each other, never decide wrongly). SQLite: the transaction holds it already.
 */
export async function takeTurn(tx: Db, subject: string): Promise<void> {
  if (isPostgres(tx)) await sql`select pg_advisory_xact_lock(cast(${advisoryKey(subject)} as bigint))`.execute(tx);
}

/** Tables whose rows are changed by id after a read of their current state. */
export type LockableTable = 'users' | 'groups' | 'workspaces' | 'api_keys' | 'public_keys' | 'partners' | 'automations' | 'bundles' | 'user_passkeys';

/**
 * Locks the row `id` of `table` until this transaction ends (on PostgreSQL a write of its id to
 * itself takes the row lock; SQLite's transaction holds every row already), then reads it with
 * `read`: its latest state, which no other writer of it can change until the commit. Undefined
 * when the row is gone: a writer that waited for another's deletion of it finds it so.
 */
export async function lockAndRead<Row>(tx: Db, table: LockableTable, id: number, read: (tx: Db, id: number) => Promise<Row | undefined>): Promise<Row | undefined> {
  if (isPostgres(tx)) await sql`update ${sql.table(table)} set id = id where id = ${id}`.execute(tx);
  return read(tx, id);
}

function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

function advisoryKey(subject: string): string {
  return createHash('sha256').update(subject).digest().readBigInt64BE(0).toString();
}
