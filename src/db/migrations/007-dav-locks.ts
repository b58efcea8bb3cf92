import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { columnTypes } from './column-types.js';

/**
 * WebDAV locks (RFC 4918 class 2), kept in the database so that a lock taken through one worker
 * or node holds on every other. A lock is a row until it is unlocked, released with its resource
 * or found expired; nothing else refers to it.
 */
export function davLocks(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('dav_locks')
        // `urn:uuid:<random>`: what the client quotes back in If and Lock-Token headers.
        .addColumn('token', 'text', (c) => c.primaryKey())
        // The lock root as a site path, its display spelling and its comparison key.
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('path_key', 'text', (c) => c.notNull())
        // Whether the root is a folder: its href in lockdiscovery ends with `/`.
        .addColumn('collection', t.flag, (c) => c.notNull())
        .addColumn('depth', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        // The client's <D:owner> element as it sent it (an XML fragment), answered back in lockdiscovery.
        .addColumn('owner_xml', 'text')
        // Who took it (null for a site-wide key): only this user, or an administrator, may use or remove it.
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('expires_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('dav_locks_path').on('dav_locks').columns(['path_key']).execute();
      await db.schema.createIndex('dav_locks_expires').on('dav_locks').columns(['expires_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('dav_locks').execute();
    },
  };
}
