import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { columnTypes } from './column-types.js';

/**
 * Locks taken through the REST API (`POST /locks/<path>`) live in the same table as WebDAV's, so
 * that every door honours both. The REST API's `allow_access_by_any_user` is kept with the lock:
 * such a lock stops nobody's writes and any user may remove it. Every lock taken before is one
 * only its holder may use, as it was.
 */
export function lockAnyUserAccess(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('dav_locks').addColumn('allow_access_by_any_user', t.flag, (c) => c.notNull().defaultTo(t.falseValue)).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('dav_locks').dropColumn('allow_access_by_any_user').execute();
    },
  };
}
