import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { testDatabaseTargets } from '../support/databases.js';
import { freshDatabase, migrateTo } from './migrate-to.js';

/**
 * Entries stored before migration 014 keep what they had and answer null for what was not kept
 * then (the other digests, the client's time, the authors): nothing is guessed or read back.
 */
describe.each(testDatabaseTargets())('migration 014, file entry fields [$name]', (target) => {
  const fresh = freshDatabase(target);

  it('leaves the new fields of the entries already there null', async () => {
    const database = fresh();
    await migrateTo(database, '013-api-key-description');
    await sql`insert into entries (path, path_key, parent_key, type, size, storage_key, sha256, created_at, mtime)
      values ('old.txt', 'old.txt', '', 'file', 3, 'k', 'abc', 1, 2)`.execute(database.db);
    await migrateToLatest(database);
    const rows = await sql<Record<string, unknown>>`select sha256, md5, sha1, crc32, provided_mtime, created_by_id, last_modified_by_id from entries where path_key = 'old.txt'`.execute(database.db);
    expect(rows.rows).toEqual([{ sha256: 'abc', md5: null, sha1: null, crc32: null, provided_mtime: null, created_by_id: null, last_modified_by_id: null }]);
  });
});
