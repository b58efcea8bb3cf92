import pg from 'pg';
import type { Database } from './database.js';

// An arbitrary constant that names Atrium's start-up lock among PostgreSQL advisory locks.
const STARTUP_LOCK_KEY = 727_170_001;

/**
 * Runs `work` while holding a database-wide lock, so that several nodes starting together on one
 * PostgreSQL migrate and bootstrap it once: the first runs, the others wait, then find nothing to do.
 * The lock is a session advisory lock held on its own connection, so it is released even if this
 * process dies. SQLite serves one machine, where only one process migrates (the only one, or the
 * primary before it starts its workers), so it needs no lock.
 */
export async function withStartupLock<T>(database: Database, work: () => Promise<T>): Promise<T> {
  if (database.dialect !== 'postgres' || database.url === undefined) return work();
  const client = new pg.Client({ connectionString: database.url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
    return await work();
  } finally {
    await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
