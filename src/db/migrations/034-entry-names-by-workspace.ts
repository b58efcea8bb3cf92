import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { nameOfEntry } from './028-entry-name-search.js';
import { extensionSchema } from './postgres-extensions.js';

/**
 * PostgreSQL: the name index of migration 028 held names alone, so a search below a folder found
 * the text's matches in the whole site, read each of them, and kept those below the folder: in a
 * site of 10^7 entries in 100 Workspaces a search in one Workspace read 12,300 rows to keep 61
 * (docs/benchmarks.md, "A large site on PostgreSQL"). This index holds each entry's third path
 * segment (the Workspace's number below `_/workspaces/`) beside its name, with btree_gin, so the
 * index itself keeps the Workspace's matches (repositories/entry-name-search.ts asks for the
 * segment whenever the folder searched lies that deep). It serves searches without the segment
 * too, so it replaces 028's. SQLite's FTS5 table is unchanged.
 */
export function entryNamesByWorkspace(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'sqlite') return;
      const trgm = await extensionSchema(db, 'pg_trgm');
      await extensionSchema(db, 'btree_gin');
      await sql.raw(`create index entries_name_in_workspace on entries using gin ((split_part(path_key, '/', 3)), (${nameOfEntry('')}) "${trgm}".gin_trgm_ops)`).execute(db);
      await sql.raw('drop index entries_name_trgm').execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') return;
      const trgm = await extensionSchema(db, 'pg_trgm');
      await sql.raw(`create index entries_name_trgm on entries using gin ((${nameOfEntry('')}) "${trgm}".gin_trgm_ops)`).execute(db);
      await sql.raw('drop index entries_name_in_workspace').execute(db);
    },
  };
}
