import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { columnTypes } from './column-types.js';

/**
 * What a file's entry answers besides its SHA-256: its MD5, SHA-1 and CRC-32 (computed as the
 * bytes arrive, as the SHA-256 is), the modification time its client gave (`provided_mtime`), and
 * the users who created it and who last replaced its contents. All are null for folders where
 * they do not apply, and for what was stored before this migration: the digests are not computed
 * again by reading every file back, and who wrote a file was not kept.
 */
export function fileEntryFields(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('entries').addColumn('md5', 'text').execute();
      await db.schema.alterTable('entries').addColumn('sha1', 'text').execute();
      await db.schema.alterTable('entries').addColumn('crc32', 'text').execute();
      await db.schema.alterTable('entries').addColumn('provided_mtime', t.time).execute();
      await db.schema.alterTable('entries').addColumn('created_by_id', 'integer').execute();
      await db.schema.alterTable('entries').addColumn('last_modified_by_id', 'integer').execute();
    },
    async down(db: Kysely<unknown>) {
      for (const column of ['last_modified_by_id', 'created_by_id', 'provided_mtime', 'crc32', 'sha1', 'md5']) {
        await db.schema.alterTable('entries').dropColumn(column).execute();
      }
    },
  };
}
