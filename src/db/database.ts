import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Dialect, type LogEvent } from 'kysely';
import { CurrentSchemaPostgresDialect } from './current-schema-introspector.js';
import pg from 'pg';
import { SQLITE_FILE } from './data-dir.js';
import type { DialectName } from './dialect.js';
import { countingPool } from './counting-pool.js';
import { postgresDataVersion, sqliteDataVersion } from './data-version.js';
import { registerDataVersion } from './read-cache.js';
import { withStatementCache } from './sqlite-statement-cache.js';
import type { Db } from './db.js';
import type { Tables } from './tables.js';

export type { Db } from './db.js';

/** The open database: the query builder, which dialect it speaks, and how to close it. */
export interface Database {
  readonly db: Db;
  readonly dialect: DialectName;
  /** For PostgreSQL, the URL (used to take the start-up migration lock on its own connection). */
  readonly url: string | undefined;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** The PostgreSQL pool's connections now; undefined for SQLite, which has one connection. */
  poolUse(): PoolUse | undefined;
  /** Calls `listener` after every statement with how long it took, when opened with `timeQueries`. */
  onQuery(listener: QueryListener): void;
}

export interface PoolUse {
  total: number;
  idle: number;
  /** Requests waiting for a connection: the pool is too small, or the database too slow. */
  waiting: number;
}

export type QueryListener = (durationMs: number, failed: boolean) => void;

// PostgreSQL returns bigint (int8) as a string; Atrium's int8 columns hold epoch milliseconds
// and sizes, well inside Number's exact range.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

const PING_TIMEOUT_MS = 2_000;
// A request must fail within a few seconds when PostgreSQL is gone, never hang: connecting and
// each query are bounded, and TCP keepalive notices a peer that vanished without closing.
const CONNECT_TIMEOUT_MS = 3_000;
const QUERY_TIMEOUT_MS = 5_000;

/** How a database is opened. */
export interface OpenOptions {
  /** PostgreSQL pool size (10 by default). */
  max?: number;
  /** Time every statement for onQuery listeners (metrics); off, statements run untimed. */
  timeQueries?: boolean;
  /** SQLite: open the file only if it exists, never creating it or its folder (a PostgreSQL database exists by connecting). */
  mustExist?: boolean;
}

/** The database the settings name: PostgreSQL at `databaseUrl`, else the embedded file in `dataDir`. */
export function openConfiguredDatabase(settings: { databaseUrl: string | undefined; dataDir: string }, options: OpenOptions = {}): Database {
  if (settings.databaseUrl !== undefined) return openPostgres(settings.databaseUrl, options);
  return openSqlite(path.join(settings.dataDir, SQLITE_FILE), options);
}

/**
 * Opens the SQLite database in `file` (`:memory:` for one held in memory), or, given the bytes of
 * a database file, an in-memory copy of that database.
 */
export function openSqlite(file: string | Buffer, options: OpenOptions = {}): Database {
  const mustExist = options.mustExist === true;
  if (typeof file === 'string' && file !== ':memory:' && !mustExist) fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new BetterSqlite3(file, { fileMustExist: mustExist });
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const version = sqliteDataVersion(sqlite);
  const database = fromDialect(new SqliteDialect({ database: withStatementCache(sqlite, version) }), 'sqlite', undefined, { timeQueries: options.timeQueries });
  registerDataVersion(database.db, version);
  return database;
}

export function openPostgres(url: string, options: OpenOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    keepAlive: true,
  });
  // A client losing its connection must never crash the process. The pool handles idle clients
  // ('error' on the pool); a client checked out by a request emits 'error' on itself, so every
  // client gets a listener. The query in flight still fails (answered 503), and the pool drops
  // the dead client when it is released.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  const version = postgresDataVersion(pool);
  const poolUse = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  const database = fromDialect(new CurrentSchemaPostgresDialect({ pool: countingPool(pool, version) }), 'postgres', url, { poolUse, timeQueries: options.timeQueries });
  registerDataVersion(database.db, version);
  return database;
}

export function fromDialect(
  dialect: Dialect,
  name: DialectName,
  url: string | undefined,
  options: { poolUse?: () => PoolUse; timeQueries?: boolean } = {},
): Database {
  const listeners: QueryListener[] = [];
  // Kysely times every statement once it has a log function, so it gets one only when asked.
  const log = (event: LogEvent) => {
    for (const listener of listeners) listener(event.queryDurationMillis, event.level === 'error');
  };
  const db = new Kysely<Tables>({ dialect, ...(options.timeQueries === true ? { log } : {}) });
  const poolUse = options.poolUse ?? (() => undefined);
  return {
    db,
    dialect: name,
    url,
    async ping() {
      const probe = sql`select 1`.execute(db).then(() => true, () => false);
      const timeout = new Promise<boolean>((resolve) => setTimeout(resolve, PING_TIMEOUT_MS, false).unref());
      return Promise.race([probe, timeout]);
    },
    close: () => db.destroy(),
    poolUse,
    onQuery: (listener) => {
      listeners.push(listener);
    },
  };
}
