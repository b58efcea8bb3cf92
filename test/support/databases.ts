import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { fromDialect, openPostgres, openSqlite, type Database } from '../../src/db/database.js';
import { PGliteDialect } from './pglite-dialect.js';
import { adminQuery, POSTGRES_TEST_URL } from './postgres-server.js';

export interface TestDatabaseTarget {
  /** Appears in test names, so a run's report shows which dialects ran: `sqlite`, `postgres`, `postgres-pglite`. */
  name: string;
  open(): Promise<{ database: Database; url: string | undefined; drop(): Promise<void> }>;
}

/** Every database the suite runs against. Each `open` gives a fresh, empty database. */
export function testDatabaseTargets(): TestDatabaseTarget[] {
  const postgres: TestDatabaseTarget =
    inject('postgresMode') === 'server'
      ? {
          name: 'postgres',
          async open() {
            // Each test file gets its own schema, so files run in parallel on one server.
            const schema = `atrium_test_${process.pid}_${randomBytes(4).toString('hex')}`;
            await adminQuery(`create schema ${schema}`);
            const url = `${POSTGRES_TEST_URL}${POSTGRES_TEST_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
            return {
              database: openPostgres(url, { max: 4 }),
              url,
              drop: () => adminQuery(`drop schema if exists ${schema} cascade`),
            };
          },
        }
      : {
          name: 'postgres-pglite',
          async open() {
            const { PGlite } = await import('@electric-sql/pglite');
            // pg_trgm backs the search of entry names (migration 028), as on a server.
            const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
            return { database: fromDialect(new PGliteDialect(new PGlite({ extensions: { pg_trgm } })), 'postgres', undefined), url: undefined, drop: async () => undefined };
          },
        };
  const sqlite: TestDatabaseTarget = {
    name: 'sqlite',
    async open() {
      return { database: openSqlite(':memory:'), url: undefined, drop: async () => undefined };
    },
  };
  return [sqlite, postgres];
}
