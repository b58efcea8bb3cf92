import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { addTrigger } from './009-data-version.js';

/**
 * `automation_watch_version`: one counter, moved by every write of an automation's settings, that
 * tells each node when the automations its file actions are matched against have changed
 * (automations/action-watch-index.ts). The data version cannot: every upload moves it, so an index
 * kept under it would be rebuilt on every upload; this counter moves only when an automation is
 * created, changed or deleted, and one read of its row says whether the index still holds.
 */
export function automationWatchVersion(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('automation_watch_version')
        .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
        .addColumn('version', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
        .execute();
      await sql`insert into automation_watch_version (id, version) values (1, 0)`.execute(db);
      if (dialect === 'postgres') await addTrigger(db, 'automation_watch_version');
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('automation_watch_version').execute();
    },
  };
}
