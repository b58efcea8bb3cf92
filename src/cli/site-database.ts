import fs from 'node:fs';
import path from 'node:path';
import { prepareDataDir, SQLITE_FILE } from '../db/data-dir.js';
import type { Config } from '../config/settings.js';
import { openConfiguredDatabase, type Database } from '../db/database.js';
import { currentSchema, hasAtriumSchema } from '../db/migrate.js';
import { CliError } from './failure.js';
import type { CliOutput } from './cli-io.js';

/**
 * Runs an administration command's `work` on the site's database, which must exist already: the
 * SQLite file in the data dir, or Atrium's schema in the PostgreSQL database. Nothing is created
 * when it does not (a mistyped or missing ATRIUM_DATA_DIR must not leave an empty site behind);
 * only `atrium migrate` creates a database.
 */
export async function withSiteDatabase<T>(config: Config, stderr: CliOutput, work: (database: Database) => Promise<T>): Promise<T> {
  if (config.databaseUrl === undefined) assertSqliteFileExists(config.dataDir);
  return usingDatabase(openSiteDatabase(config, stderr, { mustExist: true }), async (database) => {
    if (!(await hasAtriumSchema(database))) throw new CliError(await noSchema(database, config));
    return work(database);
  });
}

/** `atrium migrate`'s way in: the one command that may create the database (SQLite's file and its data dir). */
export async function withNewOrExistingSiteDatabase<T>(config: Config, stderr: CliOutput, work: (database: Database) => Promise<T>): Promise<T> {
  return usingDatabase(openSiteDatabase(config, stderr, { mustExist: false }), work);
}

/**
 * Opens the database the server uses, beside a running server: SQLite in WAL mode lets one
 * writer and many readers share the file (a busy writer is waited for), and PostgreSQL is shared
 * anyway. A small pool is enough for one command.
 */
function openSiteDatabase(config: Config, stderr: CliOutput, options: { mustExist: boolean }): Database {
  // Only the embedded database lives in the data dir; a command on PostgreSQL leaves it alone.
  if (config.databaseUrl === undefined) for (const warning of prepareDataDir(config.dataDir)) stderr.write(`atrium: warning: ${warning}\n`);
  try {
    return openConfiguredDatabase(config, { max: 2, mustExist: options.mustExist });
  } catch (error) {
    // The file went away between the check and the opening.
    if (options.mustExist && (error as { code?: unknown }).code === 'SQLITE_CANTOPEN') throw new CliError(noDatabaseIn(config.dataDir));
    throw error;
  }
}

/** Runs `work` on the open database and always closes it, so the process can exit. */
async function usingDatabase<T>(database: Database, work: (database: Database) => Promise<T>): Promise<T> {
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

function assertSqliteFileExists(dataDir: string): void {
  if (!fs.existsSync(path.join(dataDir, SQLITE_FILE))) throw new CliError(noDatabaseIn(dataDir));
}

function noDatabaseIn(dataDir: string): string {
  return `no Atrium database in ${dataDir} (no ${SQLITE_FILE} there; the data dir is ATRIUM_DATA_DIR or --data-dir, ./data by default): `
    + "point it at the server's data dir, or create a new site's database with `atrium migrate`";
}

async function noSchema(database: Database, config: Config): Promise<string> {
  const where = database.dialect === 'postgres'
    ? `the PostgreSQL database of ATRIUM_DATABASE_URL (schema "${await currentSchema(database)}")`
    : path.join(config.dataDir, SQLITE_FILE);
  return `${where} holds no Atrium schema: create it with \`atrium migrate\` (or by starting the server), or check that this is the server's database`;
}
