import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { isReadOnlySql, type WriteCounter } from './data-version.js';

/**
 * The pool as Kysely sees it, with every statement that may write (transaction control included:
 * a commit is when a write becomes visible) reported to `writes` before it is sent.
 */
export function countingPool(pool: pg.Pool, writes: WriteCounter): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      return {
        query(...args: unknown[]) {
          if (typeof args[0] !== 'string' || !isReadOnlySql(args[0])) writes.noteWrite();
          return (client.query as (...a: unknown[]) => never)(...args);
        },
        release: () => client.release(),
      } as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
}
