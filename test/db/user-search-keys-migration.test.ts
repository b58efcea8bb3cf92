import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { testDatabaseTargets } from '../support/databases.js';
import { freshDatabase, migrateTo } from './migrate-to.js';

/**
 * Users who existed before the search keys get theirs from the migration, computed as the server
 * computes a new user's: an upgraded site finds its old users by name and email as it finds new ones.
 */
describe.each(testDatabaseTargets())('migration 011, user search keys [$name]', (target) => {
  const fresh = freshDatabase(target);

  it('fills name_key and email_key of the users already there', async () => {
    const database = fresh();
    await migrateTo(database, '010-user-name-parts');
    await sql`insert into users (workspace_id, username, username_key, name, email, site_admin, workspace_admin, disabled, created_at)
      values (0, 'Old', 'old', ${'E\u0301LOÏSE Cléo'}, 'Old.Timer@Example.COM', false, false, false, 0),
             (0, 'blank', 'blank', '', '', false, false, false, 0)`.execute(database.db);
    await migrateToLatest(database);
    const rows = await sql<{ username: string; name_key: string; email_key: string }>`select username, name_key, email_key from users order by username`.execute(database.db);
    expect(rows.rows).toEqual([
      { username: 'Old', name_key: 'éloïse cléo', email_key: 'old.timer@example.com' },
      { username: 'blank', name_key: '', email_key: '' },
    ]);
  });
});
