import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { columnTypes } from './column-types.js';

/**
 * File contents and uploads: a checksum on file entries, uploads in progress with their parts,
 * and secrets the server generates once and every node shares (the key that signs transfer URLs).
 */
export function filesAndUploads(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('entries').addColumn('sha256', 'text').execute();

      // An upload becomes an entry only when it ends; until then nothing of it is visible.
      // The owner is a user, or for a site-wide key (no user) that key: only the owner may go on.
      // Deleting the owner leaves the upload ownerless rather than deleting the row, so that it
      // expires and the purge removes its parts' blobs (a cascade would leave them on disk).
      await t.withId(db.schema.createTable('uploads'))
        .addColumn('ref', 'text', (c) => c.notNull().unique())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('path_key', 'text', (c) => c.notNull())
        .addColumn('context_workspace_id', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('api_key_id', 'integer', (c) => c.references('api_keys.id').onDelete('set null'))
        .addColumn('mkdir_parents', t.flag, (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('expires_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('uploads_expires').on('uploads').columns(['expires_at', 'id']).execute();

      await db.schema.createTable('upload_parts')
        .addColumn('upload_id', 'integer', (c) => c.notNull().references('uploads.id').onDelete('cascade'))
        .addColumn('part_number', 'integer', (c) => c.notNull())
        .addColumn('storage_key', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('upload_parts_pk', ['upload_id', 'part_number'])
        .execute();

      await db.schema.createTable('server_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .execute();
    },
  };
}
