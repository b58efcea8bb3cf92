import type { Kysely, Migration } from 'kysely';

/**
 * A folder listing sorted by size or by modification time reads a page as a range of an index,
 * folders then files, ties by path key, forward or backward: never a sort of the whole folder.
 * (By name it uses entries_parent.)
 */
export function listingSortIndexes(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('entries_parent_size').on('entries').columns(['parent_key', 'type', 'size', 'path_key']).execute();
      await db.schema.createIndex('entries_parent_mtime').on('entries').columns(['parent_key', 'type', 'mtime', 'path_key']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('entries_parent_mtime').execute();
      await db.schema.dropIndex('entries_parent_size').execute();
    },
  };
}
