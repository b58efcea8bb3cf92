import { Migrator, sql } from 'kysely';
import type { Database } from './database.js';
import { migrationProvider } from './migrations/index.js';

/** Brings the schema to the latest migration; throws with the failing migration's name. */
export async function migrateToLatest(database: Database): Promise<void> {
  const migrator = await migratorFor(database);
  let { error, results } = await migrator.migrateToLatest();
  for (let retry = 0; retry < 3 && error !== undefined && results === undefined && isSchemaDroppedMeanwhile(error); retry++) {
    ({ error, results } = await migrator.migrateToLatest());
  }
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'bookkeeping';
    throw new Error(`migration ${failed} failed: ${(error as Error).message ?? String(error)}`, { cause: error });
  }
}

/**
 * Kysely finds its bookkeeping tables by listing the tables of every schema on the server, and
 * PostgreSQL fails that listing when another schema is dropped while it runs: the schema is gone
 * (`3F000`), one of its tables is (`42P01`), or a column of one (`42703`, seen while the listing
 * read a dropped table's columns). Nothing has run then (no results), so the step is simply tried
 * again.
 */
function isSchemaDroppedMeanwhile(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '3F000' || code === '42P01' || code === '42703';
}

/**
 * Whether the database holds Atrium's schema: at least one migration has run in it. Reads Kysely's
 * bookkeeping only, and creates nothing (not even the bookkeeping tables).
 */
export async function hasAtriumSchema(database: Database): Promise<boolean> {
  const migrator = await migratorFor(database);
  for (let attempt = 0; ; attempt++) {
    try {
      const migrations = await migrator.getMigrations();
      return migrations.some((migration) => migration.executedAt !== undefined);
    } catch (error) {
      // The same listing as migrateToLatest's: tried again when another schema was dropped meanwhile.
      if (attempt >= 3 || !isSchemaDroppedMeanwhile(error)) throw error;
    }
  }
}

async function migratorFor(database: Database): Promise<Migrator> {
  return new Migrator({
    db: database.db,
    provider: migrationProvider(database.dialect),
    // Kysely looks for its bookkeeping tables in every schema unless told which one: another
    // schema's tables on the same server would make it skip creating its own.
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
