import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';
import { nameOfEntry } from './028-entry-name-search.js';

/**
 * PostgreSQL: the index of migration 034 holds the path's third segment and the name's trigrams as
 * separate keys of one GIN index, so a search in a Workspace intersected that Workspace's list of
 * entries with the lists of the text's trigrams, and those lists are the whole site's: on a site of
 * 10^7 entries in 100 Workspaces, whose entries lie mixed on the table's pages, a search in one
 * Workspace read 3,943 pages of the index to find 121 entries (89 pages on a site of that Workspace
 * alone; docs/benchmarks.md, "A large site on PostgreSQL"). This index's keys are each a trigram of
 * the name together with the segment (`12:rev`), so a key's list holds that Workspace's entries only,
 * and a search below a folder with a third segment reads what that Workspace holds, however many
 * Workspaces the site has. A search from higher up (the site's root, Workspace 0's first two
 * levels) covers the whole site anyway and keeps 034's index, whose statistics on the name also
 * give the planner its estimate of how many names hold the text.
 *
 * The keys come from `entry_name_keys(path_key, parent_key)`, a function of the entry's columns
 * that PostgreSQL inlines (one SQL expression, immutable, no FROM), so the index is built and kept
 * at the speed of its regular expressions. Its trigrams are the name's runs of three characters,
 * every character counting (spaces, punctuation), not pg_trgm's words: a name that contains the
 * text then holds every run of the text, whatever the characters, and a name that holds them all
 * rarely lacks the text (repositories/entry-name-search.ts computes the text's runs the same
 * way). An entry without a third segment has no keys. SQLite's FTS5 table is unchanged.
 */
export function entryNameKeys(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'sqlite') return;
      await sql.raw(`create function entry_name_keys(path_key text, parent_key text) returns text[] language sql immutable parallel safe as $body$ ${entryNameKeysSql()} $body$`).execute(db);
      await sql.raw('create index entries_name_keys on entries using gin (entry_name_keys(path_key, parent_key))').execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') return;
      await sql.raw('drop index entries_name_keys').execute(db);
      await sql.raw('drop function entry_name_keys(text, text)').execute(db);
    },
  };
}

/**
 * The body of `entry_name_keys`: the segment, a colon and each run of three characters of the name.
 * Three passes of `regexp_replace` over the name from its first, second and third character, each
 * cut to a whole number of runs, write every run after the segment and before a slash (neither a
 * name nor a segment holds one), and the result is split there. The segment goes into the
 * replacement text, so its `\` and `&` are escaped. No FROM and no subquery: PostgreSQL inlines the
 * function into the index's expression and into the search's condition alike. Exported so that
 * the SQL can be printed, to build the index by hand on a site kept by the bench.
 */
export function entryNameKeysSql(): string {
  const name = nameOfEntry('');
  const length = `(length(path_key) - length(parent_key) - case when parent_key = '' then 0 else 1 end)`;
  const segment = `split_part(path_key, '/', 3)`;
  const replacement = `replace(replace(${segment}, '\\', '\\\\'), '&', '\\&') || ':\\&/'`;
  const passes = [1, 2, 3].map((from) => `regexp_replace(substr(${name}, ${from}, (${length} - ${from - 1}) / 3 * 3), '...', ${replacement}, 'g')`);
  return `select case when ${segment} = '' then '{}'::text[] else string_to_array(rtrim(${passes.join(' || ')}, '/'), '/') end`;
}
