import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { fromDialect, openPostgres, openSqlite, type Database } from '../../src/db/database.js';
import { currentSchema } from '../../src/db/migrate.js';
import { PGliteDialect } from './pglite-dialect.js';
import { adminQuery, POSTGRES_TEST_URL } from './postgres-server.js';
import { ReusableSchemas } from './reusable-schemas.js';

export interface OpenedTestDatabase {
  database: Database;
  url: string | undefined;
  drop(): Promise<void>;
}

export interface TestDatabaseTarget {
  /** Appears in test names, so a run's report shows which dialects ran: `sqlite`, `postgres`, `postgres-pglite`. */
  name: string;
  open(): Promise<OpenedTestDatabase>;
  /**
   * Takes what `database` holds now and gives a function that opens fresh databases holding the
   * same, each its own; undefined where this target cannot copy one (PGlite, or a machine without
   * pg_dump), and the caller builds each database itself.
   */
  copier?(database: Database): Promise<(() => Promise<OpenedTestDatabase>) | undefined>;
}

/** A schema name no other test run or worker uses. */
function newSchemaName(): string {
  return `${inject('schemaTag')}${process.pid}_${randomBytes(4).toString('hex')}`;
}

function schemaUrl(schema: string): string {
  return `${POSTGRES_TEST_URL}${POSTGRES_TEST_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
}

/**
 * pg_dump's script of one schema (tables, indexes, triggers, functions and their rows), made to
 * create a schema of another name in one transaction: its session settings become the
 * transaction's (SET LOCAL), so they end with it.
 */
async function schemaScript(schema: string): Promise<(copy: string) => string> {
  const { stdout } = await promisify(execFile)('pg_dump', ['--dbname', POSTGRES_TEST_URL, '--schema', schema, '--no-owner', '--no-privileges', '--inserts'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const script = stdout
    // psql's meta-commands (\restrict and \unrestrict) are not SQL.
    .replace(/^\\.*$/gm, '')
    .replace(/^SET (\w+)/gm, 'SET LOCAL $1')
    .replace(/pg_catalog\.set_config\('search_path', '', false\)/, "pg_catalog.set_config('search_path', '', true)");
  return (copy) => `begin;\n${script.replaceAll(schema, copy)}\ncommit;`;
}

/** Every database the suite runs against. Each `open` gives a fresh, empty database. */
export function testDatabaseTargets(): TestDatabaseTarget[] {
  const postgres: TestDatabaseTarget =
    inject('postgresMode') === 'server'
      ? {
          name: 'postgres',
          async open() {
            // Each test file gets its own schema, so files run in parallel on one server.
            const schema = newSchemaName();
            await adminQuery(`create schema ${schema}`);
            const url = schemaUrl(schema);
            return { database: openPostgres(url, { max: 4 }), url, drop: () => adminQuery(`drop schema if exists ${schema} cascade`) };
          },
          async copier(database) {
            // Creating a schema from pg_dump's script takes half the time of running every
            // migration; reusing one a test is done with takes far less (reusable-schemas.ts).
            const script = await schemaScript(await currentSchema(database)).catch(() => undefined);
            if (script === undefined) return undefined;
            const create = async () => {
              const schema = newSchemaName();
              await adminQuery(script(schema));
              return schema;
            };
            const schemas = await ReusableSchemas.of(await create(), create);
            return async () => {
              const schema = await schemas.take();
              const url = schemaUrl(schema);
              return { database: openPostgres(url, { max: 4 }), url, drop: () => schemas.giveBack(schema) };
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
    async copier(database) {
      const file = path.join(os.tmpdir(), `atrium-copy-${process.pid}-${randomBytes(4).toString('hex')}.sqlite`);
      await sql`vacuum into ${file}`.execute(database.db);
      const image = await fs.readFile(file);
      await fs.rm(file);
      return async () => ({ database: openSqlite(image), url: undefined, drop: async () => undefined });
    },
  };
  return [sqlite, postgres];
}
