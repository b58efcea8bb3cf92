import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { extensionSchema } from './postgres-extensions.js';

/**
 * An index of entry names for searching by part of a name across folders (docs/files.md, "What a
 * search costs"). A name is the last segment of the entry's path key (lower case, NFC), so the
 * index is case-insensitive in the way paths compare.
 *
 * - SQLite: `entry_names`, an FTS5 table with the trigram tokenizer, one row per entry (its rowid
 *   is the entry's id), filled here and kept in step by triggers on `entries`. Triggers, not the
 *   file layer's commit path: every write to `entries` (a subtree move's bulk UPDATE, a recursive
 *   delete, a restore, a bulk insert) updates the index in the same statement and transaction, by
 *   whichever process or node makes it, so the index can never disagree with the table.
 * - PostgreSQL: a GIN index with pg_trgm's `gin_trgm_ops` on the name expression of `entries`
 *   itself, which PostgreSQL keeps in step with the table as it does any index; and a B-tree over
 *   (parent key, type, path key) in byte order (`collate "C"`), the order search results come in
 *   on both databases (SQLite compares text by bytes already, with `entries_parent`).
 */
export function entryNameSearch(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'sqlite') {
        await sql.raw(`create virtual table entry_names using fts5(name, tokenize = 'trigram')`).execute(db);
        await sql.raw(`insert into entry_names (rowid, name) select id, ${nameOfEntry('')} from entries`).execute(db);
        await sql.raw(`create trigger entry_names_insert after insert on entries begin
            insert into entry_names (rowid, name) values (new.id, ${nameOfEntry('new.')});
          end`).execute(db);
        await sql.raw(`create trigger entry_names_delete after delete on entries begin
            delete from entry_names where rowid = old.id;
          end`).execute(db);
        // Only when the name itself changed: a folder's move or rename rewrites the keys of
        // everything below it, whose names stay as they were, and rewriting a trigram row costs
        // (a move of 50,000 entries spent three times as long with every row rewritten).
        await sql.raw(`create trigger entry_names_rename after update of path_key, parent_key on entries
          when ${nameOfEntry('new.')} <> ${nameOfEntry('old.')} begin
            update entry_names set name = ${nameOfEntry('new.')} where rowid = new.id;
          end`).execute(db);
        return;
      }
      const trgm = await extensionSchema(db, 'pg_trgm');
      await sql.raw(`create index entries_name_trgm on entries using gin ((${nameOfEntry('')}) "${trgm}".gin_trgm_ops)`).execute(db);
      await sql.raw(`create index entries_subtree_order on entries (parent_key collate "C", type, path_key collate "C")`).execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') {
        for (const trigger of ['entry_names_insert', 'entry_names_delete', 'entry_names_rename']) await sql.raw(`drop trigger ${trigger}`).execute(db);
        await sql.raw('drop table entry_names').execute(db);
        return;
      }
      await sql.raw('drop index entries_subtree_order').execute(db);
      await sql.raw('drop index entries_name_trgm').execute(db);
    },
  };
}

/**
 * An entry's name from its columns: its path key after its parent's key and the slash (the whole
 * key at the root). Both databases count characters in `length` and `substr` alike, and the
 * expression is immutable, so PostgreSQL indexes it. The search's query writes the same expression
 * (repositories/entry-name-search.ts): PostgreSQL uses the index only for that expression.
 */
export function nameOfEntry(row: string): string {
  return `substr(${row}path_key, length(${row}parent_key) + case when ${row}parent_key = '' then 1 else 2 end)`;
}
