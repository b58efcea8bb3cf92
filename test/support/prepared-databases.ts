import type { Database } from '../../src/db/database.js';
import type { OpenedTestDatabase, TestDatabaseTarget } from './databases.js';

/**
 * Databases brought to a state once per worker process and copied for each test that starts
 * there. Every test app begins as a migrated, bootstrapped site: running the thirty migrations
 * (a third of a second on PostgreSQL, mostly the server's) and hashing the administrator's
 * password with argon2 for each of the suite's hundreds of apps cost more than many of the tests
 * that use them. A copy is a fresh database of its own (a new schema, a new in-memory SQLite);
 * where the target cannot copy, each database is prepared as before.
 */
const copiers = new Map<string, Promise<(() => Promise<OpenedTestDatabase>) | undefined>>();

export async function openPrepared(target: TestDatabaseTarget, state: string, prepare: (database: Database) => Promise<void>): Promise<OpenedTestDatabase> {
  const key = `${target.name}: ${state}`;
  let copier = copiers.get(key);
  if (copier === undefined) {
    copier = originalCopier(target, prepare);
    copiers.set(key, copier);
    // A failure is reported to the test that met it, and the next one tries again.
    copier.catch(() => copiers.delete(key));
  }
  const copy = await copier;
  if (copy !== undefined) return copy();
  const opened = await target.open();
  await prepare(opened.database);
  return opened;
}

async function originalCopier(target: TestDatabaseTarget, prepare: (database: Database) => Promise<void>): Promise<(() => Promise<OpenedTestDatabase>) | undefined> {
  if (target.copier === undefined) return undefined;
  const { database, drop } = await target.open();
  try {
    await prepare(database);
    return await target.copier(database);
  } finally {
    await database.close();
    await drop();
  }
}
