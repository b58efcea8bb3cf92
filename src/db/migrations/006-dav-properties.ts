import type { Kysely, Migration } from 'kysely';

/**
 * WebDAV dead properties (RFC 4918 4.3): what a client stored on a file or folder with PROPPATCH,
 * kept per entry. Keyed by the entry's id, not its path: a move keeps the entry and so its
 * properties, and deleting the entry deletes them (cascade). A copy copies them (files/file-moves.ts).
 * `value` is the property element as a self-contained XML fragment.
 */
export function davProperties(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('dav_properties')
        .addColumn('entry_id', 'integer', (c) => c.notNull().references('entries.id').onDelete('cascade'))
        .addColumn('namespace', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('dav_properties_pk', ['entry_id', 'namespace', 'name'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('dav_properties').execute();
    },
  };
}
