import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { findDavLock } from '../../src/repositories/dav-locks.js';
import { testDatabaseTargets } from '../support/databases.js';
import { freshDatabase, migrateTo } from './migrate-to.js';

/** A WebDAV lock held across the upgrade to migration 016 stays one only its holder may use. */
describe.each(testDatabaseTargets())('migration 016, locks any user may use [$name]', (target) => {
  const fresh = freshDatabase(target);

  it('keeps a lock taken before it, allowing access to its holder alone', async () => {
    const database = fresh();
    await migrateTo(database, '015-listing-provided-mtime-index');
    await sql`insert into dav_locks (token, path, path_key, collection, depth, scope, owner_xml, user_id, timeout_seconds, created_at, expires_at)
      values ('urn:x-atrium:old', 'a.txt', 'a.txt', ${database.dialect === 'sqlite' ? 0 : false}, '0', 'exclusive', null, null, 600, 1, 600001)`.execute(database.db);
    await migrateToLatest(database);
    expect(await findDavLock(database.db, 'urn:x-atrium:old', 2)).toMatchObject({ token: 'urn:x-atrium:old', pathKey: 'a.txt', allowAccessByAnyUser: false });
  });
});
