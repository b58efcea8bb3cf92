import { Migrator } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { currentSchema } from '../../src/db/migrate.js';
import { migrationProvider } from '../../src/db/migrations/index.js';
import type { TestDatabaseTarget } from '../support/databases.js';

/**
 * A fresh, unmigrated database of the target for the tests of the describe block it is called in,
 * closed and dropped after them; the returned function gives it once the block has started.
 */
export function freshDatabase(target: TestDatabaseTarget): () => Database {
  let database: Database | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ database, drop } = await target.open());
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });
  return () => {
    if (database === undefined) throw new Error('the database opens when the describe block starts');
    return database;
  };
}

/**
 * Brings a fresh test database to the schema of one migration, as an older Atrium left it, so that
 * a test can put in rows of that time and then run the migrations after it.
 */
export async function migrateTo(database: Database, migration: string): Promise<void> {
  const migrator = new Migrator({
    db: database.db,
    provider: migrationProvider(database.dialect),
    // As the server's own migrator: its bookkeeping in this database's schema (src/db/migrate.ts).
    ...(database.dialect === 'postgres' ? { migrationTableSchema: await currentSchema(database) } : {}),
  });
  const { error } = await migrator.migrateTo(migration);
  if (error !== undefined) throw error;
}
