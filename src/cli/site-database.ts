import path from 'node:path';
import { prepareDataDir, SQLITE_FILE } from '../config/data-dir.js';
import type { Config } from '../config/settings.js';
import { openPostgres, openSqlite, type Database } from '../db/database.js';

/**
 * Opens the database the server uses, beside a running server: SQLite in WAL mode lets one
 * writer and many readers share the file (a busy writer is waited for), and PostgreSQL is shared
 * anyway. A small pool is enough for one command.
 */
export function openSiteDatabase(config: Config): Database {
  if (config.databaseUrl !== undefined) return openPostgres(config.databaseUrl, { max: 2 });
  for (const warning of prepareDataDir(config.dataDir)) process.stderr.write(`atrium: warning: ${warning}\n`);
  return openSqlite(path.join(config.dataDir, SQLITE_FILE));
}

/** Runs `work` on the open database and always closes it, so the process can exit. */
export async function withSiteDatabase<T>(config: Config, work: (database: Database) => Promise<T>): Promise<T> {
  const database = openSiteDatabase(config);
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}
