import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { addTrigger } from './009-data-version.js';
import { columnTypes } from './column-types.js';

/**
 * The trash and file versions (docs/files.md#trash-and-versions). Both keep file contents by
 * reference: a row names the blob the file held, and the blob stays until the row goes.
 *
 * `trash` holds one row per deletion: the path the deleted file or folder had (`path`, `path_key`),
 * when and by whom, and what it held in all. `trash_items` holds the deleted entries themselves,
 * the root and everything that was below it, each with its path relative to the root (`path_suffix`
 * and `key_suffix`: '' for the root, `/a/b` below it; `parent_suffix`, its folder's key suffix), so
 * that it can be put back under another name. `entry_id` is the id the entry had, and has again
 * when restored: ids are never reused on either database, so a trashed file's versions keep
 * pointing at it and are its versions again once it is back.
 *
 * `file_versions` holds the earlier contents of a file (`entry_id`), each as it was when replaced:
 * its bytes (the blob), digests, modification times and author, and when and by whom it was replaced.
 */
export function trashAndVersions(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await t.withId(db.schema.createTable('trash'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('path_key', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('deleted_at', t.time, (c) => c.notNull())
        .addColumn('deleted_by_id', 'integer')
        .addColumn('entries', 'integer', (c) => c.notNull())
        .addColumn('files', 'integer', (c) => c.notNull())
        .addColumn('bytes', t.bigInteger, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('trash_path_key').on('trash').columns(['path_key', 'id']).execute();
      await db.schema.createIndex('trash_deleted_at').on('trash').columns(['deleted_at', 'id']).execute();

      await t.withId(db.schema.createTable('trash_items'))
        .addColumn('trash_id', 'integer', (c) => c.notNull().references('trash.id').onDelete('cascade'))
        .addColumn('entry_id', 'integer', (c) => c.notNull())
        .addColumn('path_suffix', 'text', (c) => c.notNull())
        .addColumn('key_suffix', 'text', (c) => c.notNull())
        .addColumn('parent_suffix', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('size', t.bigInteger)
        .addColumn('storage_key', 'text')
        .addColumn('sha256', 'text')
        .addColumn('md5', 'text')
        .addColumn('sha1', 'text')
        .addColumn('crc32', 'text')
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('mtime', t.time, (c) => c.notNull())
        .addColumn('provided_mtime', t.time)
        .addColumn('created_by_id', 'integer')
        .addColumn('last_modified_by_id', 'integer')
        .execute();
      await db.schema.createIndex('trash_items_trash').on('trash_items').columns(['trash_id', 'key_suffix']).execute();
      await db.schema.createIndex('trash_items_entry').on('trash_items').column('entry_id').execute();
      await db.schema.createIndex('trash_items_storage_key').on('trash_items').column('storage_key').execute();

      await t.withId(db.schema.createTable('file_versions'))
        .addColumn('entry_id', 'integer', (c) => c.notNull())
        .addColumn('size', t.bigInteger, (c) => c.notNull())
        .addColumn('storage_key', 'text', (c) => c.notNull())
        .addColumn('sha256', 'text')
        .addColumn('md5', 'text')
        .addColumn('sha1', 'text')
        .addColumn('crc32', 'text')
        .addColumn('mtime', t.time, (c) => c.notNull())
        .addColumn('provided_mtime', t.time)
        .addColumn('author_id', 'integer')
        .addColumn('replaced_at', t.time, (c) => c.notNull())
        .addColumn('replaced_by_id', 'integer')
        .execute();
      await db.schema.createIndex('file_versions_entry').on('file_versions').columns(['entry_id', 'id']).execute();
      await db.schema.createIndex('file_versions_storage_key').on('file_versions').column('storage_key').execute();

      if (dialect === 'postgres') {
        for (const table of ['trash', 'trash_items', 'file_versions']) await addTrigger(db, table);
      }
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['file_versions', 'trash_items', 'trash']) await db.schema.dropTable(table).execute();
    },
  };
}
