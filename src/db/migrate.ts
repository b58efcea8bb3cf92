import { Migrator, sql } from 'kysely';
import type { Database } from './database.js';
import { migrationProvider } from './migrations/index.js';

/** Brings the schema to the latest migration; throws with the failing migration's name. */
export async function migrateToLatest(database: Database): Promise<void> {
  const migrator = await migratorFor(database);
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'bookkeeping';
    throw new Error(`migration ${failed} failed: ${(error as Error).message ?? String(error)}`, { cause: error });
  }
}

/**
 * Whether the database holds Atrium's schema: at least one migration has run in it. Reads Kysely's
 * bookkeeping only, and creates nothing (not even the bookkeeping tables).
 */
export async function hasAtriumSchema(database: Database): Promise<boolean> {
  const migrator = await migratorFor(database);
  const migrations = await migrator.getMigrations();
  return migrations.some((migration) => migration.executedAt !== undefined);
}

async function migratorFor(database: Database): Promise<Migrator> {
  return new Migrator({
    db: database.db,
    provider: migrationProvider(database.dialect),
    // The bookkeeping tables in the connection's schema, the only one the introspector reads
    // (current-schema-introspector.ts), whatever else the server holds.
    ...(database.dialect === 'postgres' ? { migrationTableSchema: await currentSchema(database) } : {}),
  });
}

/** The PostgreSQL schema Atrium's tables are in: the first schema of the connection's search_path that exists. */
export async function currentSchema(database: Database): Promise<string> {
  const result = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  const schema = result.rows[0]?.schema;
  if (schema === undefined || schema === null) throw new Error('PostgreSQL has no current schema: check search_path');
  return schema;
}
