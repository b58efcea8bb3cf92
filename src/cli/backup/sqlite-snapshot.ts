import BetterSqlite3 from 'better-sqlite3';

/**
 * A consistent copy of the live SQLite database in `destination`, by SQLite's online backup API:
 * it copies pages while the server goes on writing, and restarts over pages a write changed, so
 * the copy is the database as of one moment. Done on a connection of its own: the backup is the
 * CLI's concern, not the data layer's, and needs the raw driver rather than the query builder.
 */
export async function snapshotSqlite(source: string, destination: string): Promise<void> {
  const connection = new BetterSqlite3(source, { fileMustExist: true });
  try {
    connection.pragma('busy_timeout = 5000');
    await connection.backup(destination);
  } finally {
    connection.close();
  }
}
