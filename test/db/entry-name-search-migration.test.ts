import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { entriesBelow } from '../../src/repositories/entry-name-search.js';
import { testDatabaseTargets } from '../support/databases.js';
import { freshDatabase, migrateTo } from './migrate-to.js';

/** Entries stored before migration 028 are in the name index it makes, and found through it. */
describe.each(testDatabaseTargets())('migration 028, the index of entry names [$name]', (target) => {
  const fresh = freshDatabase(target);

  it('indexes the entries already there', async () => {
    const database = fresh();
    await migrateTo(database, '026-bundle-visits');
    await sql`insert into entries (path, path_key, parent_key, type, size, storage_key, created_at, mtime) values
      ('Docs', 'docs', '', 'directory', null, null, 1, 1),
      ('Docs/Old Report.txt', 'docs/old report.txt', 'docs', 'file', 3, 'k', 1, 2),
      ('Docs/Other.txt', 'docs/other.txt', 'docs', 'file', 3, 'k', 1, 2)`.execute(database.db);
    await migrateToLatest(database);
    const found = await entriesBelow(database.db, '', {
      after: undefined, until: undefined, limit: 10, conditions: { contains: 'old rep', nameLike: [], type: undefined, modifiedAfter: undefined },
    });
    expect(found.map((entry) => entry.path)).toEqual(['Docs/Old Report.txt']);
  });
});
