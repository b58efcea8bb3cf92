import fs from 'node:fs/promises';
import path from 'node:path';
import { openPostgres, openSqlite } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { benchOptions } from './options.js';
import { postgresWriter, sqliteWriter } from './seed/bulk-writer.js';
import { finishSeeding, growGrants, seedSite } from './seed/seed-site.js';

/**
 * Seeds the bench's site and keeps it, for profiling one request by hand: into a SQLite data
 * directory, or with a PostgreSQL URL into that database (its search_path, e.g.
 * `...?options=-c%20search_path%3Dmy_schema`, must name an existing empty schema). Start Atrium on
 * it with `ATRIUM_DATA_DIR=<dir>` (and `ATRIUM_DATABASE_URL=<url>`), load it with any tool. Writes
 * what the scenarios need (keys, session, the listed folder) to `<dir>/site.json`.
 *   node dist/.bench/bench/seed-dir.js <directory> [<postgres url>]
 */
async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (dataDir === undefined) throw new Error('usage: seed-dir.js <directory>');
  const options = benchOptions(process.env);
  await fs.mkdir(dataDir, { recursive: true });
  const postgresUrl = process.argv[3];
  const file = path.join(dataDir, 'atrium.sqlite');
  const database = postgresUrl === undefined ? openSqlite(file) : openPostgres(postgresUrl);
  try {
    await migrateToLatest(database);
  } finally {
    await database.close();
  }
  const writer = postgresUrl === undefined ? sqliteWriter(file) : await postgresWriter(postgresUrl);
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
