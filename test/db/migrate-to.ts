import { Migrator } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { currentSchema } from '../../src/db/migrate.js';
import { migrationProvider } from '../../src/db/migrations/index.js';

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
