import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A file's MD5, SHA-1 and CRC-32 are computed after a large upload instead of while its bytes
 * arrive (docs/files.md#checksums; the `file-digests` job): the entries still waiting for them
 * are found by their blob. The index holds only files whose `md5` is null (those waiting, and
 * files stored before the digests were kept), so it stays small whatever the site's size and
 * costs the writes of every other file nothing. Versions and the trash have an index on
 * `storage_key` already (migration 027).
 */
export function pendingFileDigests(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('entries_digests_pending')
        .on('entries')
        .column('storage_key')
        .where(sql.ref('md5'), 'is', null)
        .where(sql.ref('storage_key'), 'is not', null)
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('entries_digests_pending').execute();
    },
  };
}
