import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openPostgres, openSqlite, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { TestDatabaseTarget } from '../support/databases.js';

/**
 * A migrated database of `target` opened twice, as two nodes open it: two SQLite connections to
 * one file, or two PostgreSQL pools on one schema, so that their claims really race. (PGlite,
 * which is one in-process database, is opened once and shared.)
 */
export async function openAsTwoNodes(target: TestDatabaseTarget): Promise<{ first: Database; second: Database; close(): Promise<void> }> {
  if (target.name === 'sqlite') {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'atrium-jobs-'));
    const file = path.join(dir, 'atrium.sqlite');
    const first = openSqlite(file);
    await migrateToLatest(first);
    const second = openSqlite(file, { mustExist: true });
    return {
      first,
      second,
      async close() {
        await second.close();
        await first.close();
        await fs.rm(dir, { recursive: true, force: true });
      },
    };
  }
  const { database: first, url, drop } = await target.open();
  await migrateToLatest(first);
  const second = url === undefined ? first : openPostgres(url, { max: 4 });
  return {
    first,
    second,
    async close() {
      if (second !== first) await second.close();
      await first.close();
      await drop();
    },
  };
}
