import { prepareDataDir } from '../db/data-dir.js';
import type { Config } from '../config/settings.js';
import { openConfiguredDatabase, type Database } from '../db/database.js';

/**
 * Opens the database the server uses, beside a running server: SQLite in WAL mode lets one
 * writer and many readers share the file (a busy writer is waited for), and PostgreSQL is shared
 * anyway. A small pool is enough for one command.
 */
function openSiteDatabase(config: Config): Database {
  // Only the embedded database lives in the data dir; a command on PostgreSQL leaves it alone.
  if (config.databaseUrl === undefined) for (const warning of prepareDataDir(config.dataDir)) process.stderr.write(`atrium: warning: ${warning}\n`);
  return openConfiguredDatabase(config, { max: 2 });
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
