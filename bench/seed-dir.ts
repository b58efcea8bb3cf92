import fs from 'node:fs/promises';
import path from 'node:path';
import { openSqlite } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { benchOptions } from './options.js';
import { sqliteWriter } from './seed/bulk-writer.js';
import { finishSeeding, growGrants, seedSite } from './seed/seed-site.js';

/**
 * Seeds the bench's site into a SQLite data directory and keeps it, for profiling one request by
 * hand (start Atrium on it with `ATRIUM_DATA_DIR=<dir>`, load it with any tool). Writes what the
 * scenarios need (keys, session, the listed folder) to `<dir>/site.json`.
 *   node dist/.bench/bench/seed-dir.js <empty or new directory>
 */
async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (dataDir === undefined) throw new Error('usage: seed-dir.js <directory>');
  const options = benchOptions(process.env);
  await fs.mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, 'atrium.sqlite');
  const database = openSqlite(file);
  try {
    await migrateToLatest(database);
  } finally {
    await database.close();
  }
  const writer = await sqliteWriter(file);
  const site = await seedSite(writer, options.site, options.folderSizes);
  await growGrants(writer, site, options.site.grants);
  await finishSeeding(writer);
  await writer.close();
  const summary = {
    listedFolder: site.plan.listedFolder,
    member: site.member,
    workspaceAdmin: site.workspaceAdmin,
    siteKey: site.siteKey,
    grants: site.grants,
  };
  await fs.writeFile(path.join(dataDir, 'site.json'), `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
