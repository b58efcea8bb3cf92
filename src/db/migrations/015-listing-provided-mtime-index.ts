import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A folder listing sorted by `provided_modified_at` orders by the time the file protocols show:
 * the client's own (`provided_mtime`) where one was given, else `mtime`. Its pages are ranges of
 * this index on that expression, as the other sorts' are of theirs (004), so a page never sorts
 * the whole folder. Both databases index an expression and use it when a query repeats it.
 */
export function listingProvidedMtimeIndex(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`create index entries_parent_provided_mtime on entries (parent_key, type, (coalesce(provided_mtime, mtime)), path_key)`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('entries_parent_provided_mtime').execute();
    },
  };
}
