import { AsyncLocalStorage } from 'node:async_hooks';
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';

/**
 * A stamp of the database's committed data: two reads of it give the same value only if nothing
 * was written in between, by this process or by any other. Cached reads are tagged with the stamp
 * read before loading them and served only while the stamp is unchanged (db/read-cache.ts), so a
 * change is seen by the very next request, on this node and on every other.
 */
export interface DataVersion {
  /** The stamp now, or undefined when reads cannot be cached here (see the PostgreSQL source). */
  current(): string | undefined | Promise<string | undefined>;
  /** Cached values, one map per kind of read, emptied whenever the stamp moves. */
  readonly caches: Map<string, { version: string | undefined; entries: Map<string, unknown>; weight: number }>;
  /**
   * Runs `next`, the rest of a request that has just arrived (an HTTP request, an SFTP request or
   * sign-in): every cached read it makes uses a stamp read after this moment, so a change
   * committed before the request arrived, anywhere, is seen.
   */
  arrived<T>(next: () => T): T;
  /**
   * Work that no request carries has begun (a background job, a duty of the job runner): the
   * reads it makes through the cache must see every change committed before now, as a request's do.
   */
  workBegins(): void;
}

/** Called by the drivers before every statement that may write (or end a transaction). */
export interface WriteCounter {
  noteWrite(): void;
}

/**
 * On PostgreSQL, what other nodes have committed is read once per request, on its first cached
 * read, and kept in the request's scope: a change committed before the request arrived is seen,
 * and one committed while it runs is seen by the next. This process's own writes are counted as
 * they happen, so a request that writes and then reads sees its own change. (SQLite needs no
 * scope: see sqliteDataVersion.)
 */
interface RequestScope {
  external?: string | Promise<string>;
}

const requestScope = new AsyncLocalStorage<RequestScope>();

/**
 * One read of an external stamp shared by every request that asks for it while it has not begun:
 * a read begins only after all of them asked (setImmediate, after the poll phase that delivered
 * them), so it is still made after each of them arrived, which is all a stamp needs. A change
 * committed before a request arrived is therefore always seen, and a busy node reads far less
 * often than once per request.
 *
 * At most one read is under way at a time. A request that asks while one is under way (begun,
 * maybe, before it arrived) waits for the next, which begins when that one ends: on PostgreSQL a
 * read is a round trip of many event-loop turns, and starting one per turn sent nearly a query
 * per request under load. SQLite's read is synchronous, so this is one read per turn there.
 */
export function sharedReads(read: () => string | Promise<string>): () => Promise<string> {
  /** The read the next askers share, not begun yet. */
  let waiting: Promise<string> | undefined;
  /** The read under way, if any. */
  let running: Promise<string> | undefined;
  return () => {
    waiting ??= (async () => {
      if (running === undefined) await new Promise<void>((resolve) => setImmediate(resolve));
      else await running.catch(() => undefined);
      waiting = undefined;
      const reading = Promise.resolve().then(read);
      running = reading;
      try {
        return await reading;
      } finally {
        if (running === reading) running = undefined;
      }
    })();
    return waiting;
  };
}

/**
 * SQLite: `PRAGMA data_version` changes when any other connection (another process on the same
 * file: a worker, the command line, the sqlite3 shell) commits; this connection's own writes are
 * counted as they run (sqlite-statement-cache.ts). In WAL mode the pragma opens a read transaction
 * (file locks, several system calls), the one database touch left on a cached request, so the
 * requests of one event-loop turn share it (sharedReads).
 *
 * No request scope is needed here, and none is kept: a scope costs a hook on every promise
 * (Node 20's AsyncLocalStorage), 10 to 20% of a cached request's CPU. The pragma is read
 * synchronously, so no read is ever under way when something arrives, and one rule is enough: a
 * stamp is kept from its read until the next arrival (an HTTP or SFTP request, a background job
 * or duty: `arrived` and `workBegins`) or until the loop's next round of immediates, whichever
 * comes first. So whatever uses a stamp began before it was read, or began with no arrival since
 * and runs at most one turn of the loop after it (a long job's next step, say): a change committed
 * before a request or a job began, anywhere, is always seen.
 *
 * Reading the pragma at once when a request arrives, instead of sharing a read after the turn's
 * arrivals, was tried (with a scope): the read was no longer shared, and, worse, each response was
 * written as soon as its request was read instead of with the others of its turn, waking the
 * client once per response: the listing cost 50% more CPU under load.
 */
export function sqliteDataVersion(sqlite: BetterSqlite3.Database): DataVersion & WriteCounter {
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  let writes = 0;
  let stamp: string | undefined;
  const forget = () => {
    stamp = undefined;
  };
  const readShared = sharedReads(() => {
    stamp = String(dataVersion.get());
    // Immediates queued while the loop runs its immediates wait for its next turn.
    setImmediate(forget);
    return stamp;
  });
  return {
    current() {
      if (stamp !== undefined) return `${stamp}:${writes}`;
      return readShared().then((read) => `${read}:${writes}`);
    },
    arrived(next) {
      stamp = undefined;
      return next();
    },
    workBegins() {
      stamp = undefined;
    },
    noteWrite: () => {
      writes += 1;
    },
    caches: new Map(),
  };
}

/**
 * PostgreSQL: the external stamp is the counter of Atrium's committed writes in its own schema
 * (`data_version`, migrations/009-data-version.ts), which every transaction that writes one of
 * Atrium's tables, on whichever node, moves as it commits, History's records excepted. Writes to
 * other databases or schemas on the same server leave it alone. Outside a request there is no
 * stamp and nothing is cached, which spares a round trip per read. Requests share one query, one
 * at a time (sharedReads).
 */
export function postgresDataVersion(pool: pg.Pool): DataVersion & WriteCounter {
  const readShared = sharedReads(async () => String((await pool.query<{ version: string | number }>('select version from data_version where id = 1')).rows[0]?.version ?? ''));
  let writes = 0;
  return {
    // In a request the counter is read once (shared with the requests that ask before the read
    // begins, then kept as a plain string so later reads answer at once); this process's own
    // writes are counted live. A read begun before a request arrived, which may still be under way
    // when it does, is never the request's: that is what the request's scope is for.
    current() {
      const scope = requestScope.getStore();
      if (scope === undefined) return undefined;
      const external = (scope.external ??= readShared().then((stamp) => (scope.external = stamp)));
      return typeof external === 'string' ? `${external}:${writes}` : external.then((stamp) => `${stamp}:${writes}`);
    },
    arrived: (next) => requestScope.run({}, next),
    // Outside a request nothing is cached: the work reads what is committed now.
    workBegins: () => undefined,
    noteWrite: () => {
      writes += 1;
    },
    caches: new Map(),
  };
}

/** Whether a statement begins, ends or marks a point in a transaction (either database's spelling). */
export function isTransactionControl(sqlText: string): boolean {
  return TRANSACTION_CONTROL.test(sqlText);
}

const TRANSACTION_CONTROL = /^\s*(?:begin|start\s+transaction|commit|end|rollback|savepoint|release|prepare\s+transaction)\b/i;

/** Whether a statement only reads: anything else, transaction control included, counts as a write. */
export function isReadOnlySql(sqlText: string): boolean {
  return /^\s*select\b/i.test(sqlText);
}

/**
 * Whether a statement writes History's records or the end of its chain and nothing else (both
 * databases' spellings, PostgreSQL's `WITH` that does both in one statement included). Such writes
 * do not move the data version: no cached read reads those tables (db/read-cache.ts), and every
 * download and failed sign-in writes them.
 */
export function isHistoryWrite(sqlText: string): boolean {
  return HISTORY_WRITE.test(sqlText) || HISTORY_WITH_WRITE.test(sqlText) || HISTORY_APPEND_AFTER.test(sqlText);
}

const HISTORY_TABLE = String.raw`"?(?:history|history_chain)"?[\s(]`;
const HISTORY_WRITE = new RegExp(String.raw`^\s*(?:insert\s+into|update|delete\s+from)\s+${HISTORY_TABLE}`, 'i');
// The statements repositories/history.ts sends on PostgreSQL for a single record (appendHistoryRows,
// appendAfter); were their spelling to change, a record would only move the version again (less
// caching, never stale).
const HISTORY_WITH_WRITE = new RegExp(String.raw`^\s*with\s+"recorded"\s+as\s+\(\s*insert\s+into\s+"history"\s+[^;]*\)\s*update\s+"history_chain"\s`, 'i');
const HISTORY_APPEND_AFTER = new RegExp(String.raw`^\s*with\s+"moved"\s+as\s+\(\s*update\s+"history_chain"\s+[^;]*\),\s*"recorded"\s+as\s+\(\s*insert\s+into\s+"history"\s+[^;]*\)\s*select\s`, 'i');

/**
 * Whether a statement writes the background jobs' queue and nothing else (repositories/jobs.ts).
 * Such writes do not move the data version either: no cached read reads the queue, and every
 * node's runner writes it whenever it takes, finishes or keeps a job.
 */
export function isJobsWrite(sqlText: string): boolean {
  return JOBS_WRITE.test(sqlText);
}

const JOBS_WRITE = /^\s*(?:insert\s+into|update|delete\s+from)\s+"?jobs"?[\s(]/i;

/** Whether a statement writes only tables that no cached read reads (History's, the jobs' queue). */
export function isUncountedWrite(sqlText: string): boolean {
  return isHistoryWrite(sqlText) || isJobsWrite(sqlText);
}
