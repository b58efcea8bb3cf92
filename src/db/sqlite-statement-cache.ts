import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { isUncountedWrite, isTransactionControl, type WriteCounter } from './data-version.js';

const MAX_CACHED_STATEMENTS = 512;

/**
 * Kysely opens every transaction with a plain (deferred) `begin`, which takes the write lock only
 * at the first write. With other processes on the same file (workers, the atrium command), one
 * that commits between this transaction's first read and first write makes that write fail at
 * once with SQLITE_BUSY, which waiting cannot cure. `begin immediate` takes the write lock at the
 * start, waiting (busy_timeout) for another process's transaction to end: transactions from all
 * processes then run one after the other, as they already do within one process (one connection).
 */
function immediateTransactions(sqlText: string): string {
  return sqlText === 'begin' ? 'begin immediate' : sqlText;
}

/**
 * Hands Kysely's SQLite driver a database whose `prepare` reuses statements by SQL text.
 * Kysely prepares every query anew, which on the hot path (authentication, context,
 * permission checks) cost about 2.6 times a reused statement. The cache is a small LRU so
 * queries with varying shapes (IN lists) cannot grow it without bound. Every statement that may
 * write is reported to `writes` before it runs, so cached reads know the data moved.
 */
export function withStatementCache(sqlite: BetterSqlite3.Database, writes: WriteCounter): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string): SqliteStatement {
      const cached = cache.get(sqlText);
      if (cached !== undefined) {
        // Re-insert to mark as most recently used.
        cache.delete(sqlText);
        cache.set(sqlText, cached);
        return cached;
      }
      const statement = wrapStatement(sqlite.prepare(immediateTransactions(sqlText)), sqlText, writes);
      if (cache.size >= MAX_CACHED_STATEMENTS) cache.delete(cache.keys().next().value as string);
      cache.set(sqlText, statement);
      return statement;
    },
  };
}

/**
 * Whether running a statement changes what this process's cached reads could have seen. Every
 * write does, but a write to History's own tables or the jobs' queue, which no cached read reads:
 * a download or a failed sign-in records a row, a runner takes a job, and neither must empty every
 * cache of the site. Of transaction
 * control only a rollback does (it takes back writes already counted); a commit does not, since
 * one connection serves the process and a transaction holds it until its end, so no cached read
 * can have been made between a write and its commit.
 */
export function movesDataVersion(statement: { readonly: boolean }, sqlText: string): boolean {
  // By the text: SQLite calls `begin immediate` a write, since it takes the write lock.
  if (isTransactionControl(sqlText)) return ROLLBACK.test(sqlText);
  return !statement.readonly && !isUncountedWrite(sqlText);
}

const ROLLBACK = /^\s*rollback\b/i;

/** better-sqlite3 refuses to bind JavaScript booleans; SQLite stores them as 0 and 1. */
function wrapStatement(statement: BetterSqlite3.Statement, sqlText: string, writes: WriteCounter): SqliteStatement {
  const moves = movesDataVersion(statement, sqlText);
  const bind = (parameters: ReadonlyArray<unknown>) => {
    if (moves) writes.noteWrite();
    return parameters.map((p) => (typeof p === 'boolean' ? Number(p) : p));
  };
  return {
    reader: statement.reader,
    all: (parameters) => statement.all(bind(parameters)),
    run: (parameters) => statement.run(bind(parameters)),
    iterate: (parameters) => statement.iterate(bind(parameters)),
  };
}
