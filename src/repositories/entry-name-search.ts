import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { escapeLike } from '../lib/name-glob.js';
import { ENTRY_COLUMNS, toEntry, type Entry, type EntryType } from './entries.js';

/**
 * Where a search of a subtree stands: the last entry it looked at. Entries below a folder are
 * searched in one order on both databases: by parent key, then type (folders first), then path
 * key, all compared by bytes. So the results come folder by folder, each folder's entries
 * together, and a position is a single keyset bound.
 */
export interface SubtreeOrderPosition {
  readonly parentKey: string;
  readonly type: EntryType;
  readonly pathKey: string;
}

/** What the entries must be besides below the folder; each is applied by the database. */
export interface NameConditions {
  /** Text the name (as its path key: lower case, NFC) contains, taken literally. */
  readonly contains: string | undefined;
  /** LIKE patterns (escape `\`) the whole name matches. */
  readonly nameLike: readonly string[];
  readonly type: EntryType | undefined;
  /** Only entries modified strictly after this time (epoch milliseconds). */
  readonly modifiedAfter: number | undefined;
}

/** The shortest text the trigram indexes can look up: a name search needs a whole trigram. */
export const MIN_INDEXED_SEARCH = 3;

/** Whether the name index can find the entries containing `text` (else the search scans in order). */
export function indexedSearch(text: string | undefined): text is string {
  return text !== undefined && Array.from(text).length >= MIN_INDEXED_SEARCH;
}

/**
 * The keys of PostgreSQL's name index of a Workspace (migration 036, `entry_name_keys`) that every
 * entry below `segment` whose name contains `text` holds: the segment, a colon and each run of
 * three characters of the text (code points, as PostgreSQL counts them). Exported for its test.
 */
export function nameKeys(text: string, segment: string): string[] {
  const characters = Array.from(text);
  const keys = new Set<string>();
  for (let i = 0; i + 3 <= characters.length; i += 1) keys.add(`${segment}:${characters.slice(i, i + 3).join('')}`);
  return [...keys];
}

/**
 * The entry's name, as migration 034 indexes it on PostgreSQL: the text of that index's
 * expression, which PostgreSQL must recognise to use the index.
 */
const NAME = sql.raw(`substr(e.path_key, length(e.parent_key) + case when e.parent_key = '' then 1 else 2 end)`);

const COLUMNS = sql.raw(ENTRY_COLUMNS.map((column) => `e.${column}`).join(', '));

function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Text compared by bytes on both databases: SQLite does already; PostgreSQL's default collation may not. */
function bytes(db: Db, column: 'parent_key' | 'path_key'): RawBuilder<string> {
  return isPostgres(db) ? sql<string>`${sql.raw(`e.${column}`)} collate "C"` : sql<string>`${sql.raw(`e.${column}`)}`;
}

/**
 * The ranges of parent keys of the entries strictly below `rootKey`, in byte order: its children
 * (parent key = the root) and everything deeper (parent keys from `root/` up to `root0`, `0`
 * being the character after `/`). Keys that merely start with the root's text (`root-old`) fall
 * between the two and outside both.
 */
function parentRanges(rootKey: string): { from: string; to: string | undefined; equal: boolean }[] {
  if (rootKey === '') return [{ from: '', to: undefined, equal: false }];
  return [{ from: rootKey, to: undefined, equal: true }, { from: `${rootKey}/`, to: `${rootKey}0`, equal: false }];
}

function inRange(db: Db, range: { from: string; to: string | undefined; equal: boolean }): RawBuilder<boolean> {
  const parent = bytes(db, 'parent_key');
  if (range.equal) return sql<boolean>`${parent} = ${range.from}`;
  if (range.to === undefined) return sql<boolean>`${parent} >= ${range.from}`;
  return sql<boolean>`${parent} >= ${range.from} and ${parent} < ${range.to}`;
}

function rowAfter(db: Db, position: SubtreeOrderPosition, comparison: '>' | '<='): RawBuilder<boolean> {
  return sql<boolean>`(${bytes(db, 'parent_key')}, e.type, ${bytes(db, 'path_key')}) ${sql.raw(comparison)} (${position.parentKey}, ${position.type}, ${position.pathKey})`;
}

const ORDER = (db: Db) => sql`order by ${bytes(db, 'parent_key')}, e.type, ${bytes(db, 'path_key')}`;

/**
 * The conditions on the entry itself. `byWorkspace`: the search's text is looked up in migration
 * 036's index of the Workspace (below), so the text is tested with strpos, which no index serves,
 * and a pattern is left to `filters`, applied after the index's matches are gathered: with LIKE,
 * which pg_trgm's index of migration 034 serves, the planner could AND that index's whole-site
 * lists into the plan.
 */
function conditionsSql(db: Db, conditions: NameConditions, byWorkspace: boolean): { where: RawBuilder<boolean>[]; filters: RawBuilder<boolean>[] } {
  const where: RawBuilder<boolean>[] = [];
  const filters: RawBuilder<boolean>[] = [];
  const contains = conditions.contains;
  if (contains !== undefined) {
    // SQLite: instr is literal. PostgreSQL: strpos is literal, and so is LIKE with the text escaped.
    if (!isPostgres(db)) where.push(sql<boolean>`instr(${NAME}, ${contains}) > 0`);
    else if (byWorkspace) where.push(sql<boolean>`strpos(${NAME}, ${contains}) > 0`);
    else where.push(sql<boolean>`${NAME} like ${`%${escapeLike(contains)}%`}`);
  }
  for (const like of conditions.nameLike) (byWorkspace ? filters : where).push(sql<boolean>`${NAME} like ${like} escape '\\'`);
  if (conditions.type !== undefined) where.push(sql<boolean>`e.type = ${conditions.type}`);
  if (conditions.modifiedAfter !== undefined) where.push(sql<boolean>`e.mtime > ${conditions.modifiedAfter}`);
  return { where, filters };
}

/**
 * The rows of one range of the order that meet `where` and `filters`, the first `limit` of them.
 * Through SQLite's name index, the index drives and its matches are then sorted (a CROSS JOIN fixes
 * the join's order). On PostgreSQL the planner chooses between the GIN index and reading the
 * order's index, testing each name, which finds a first page of a common text at once; with
 * `gather`, the index's matches are gathered first in a materialized CTE and then sorted, which
 * costs what the matches are, whatever the planner guesses: what a search asks once it has found
 * that the caller may see few of the matches, and a long read in order would find few.
 *
 * `byWorkspace` (a search through migration 036's index, below a Workspace's folder): the range
 * below the folder is applied, with `filters`, after the gathering too, and on the first query
 * already. Left to the planner, the range is estimated from the histogram of parent keys, in which
 * a Workspace's 1% of a large site can fall inside one bucket: estimated at one row, read as
 * 100,875 (docs/benchmarks.md, "A large site on PostgreSQL"). Gathered, the query costs the
 * Workspace's matches. The folder's own children (`range.equal`) stay with the planner: an equal
 * key is estimated well, and they are one folder's.
 */
async function rangeRows(
  db: Db,
  range: { from: string; to: string | undefined; equal: boolean },
  conditions: { where: readonly RawBuilder<boolean>[]; filters: readonly RawBuilder<boolean>[]; byWorkspace: boolean },
  limit: number,
  throughNameIndex: boolean,
  gather: boolean,
): Promise<Entry[]> {
  const all = sql.join([inRange(db, range), ...conditions.where, ...conditions.filters], sql` and `);
  let query;
  if (conditions.byWorkspace && !range.equal) {
    query = sql<Parameters<typeof toEntry>[0]>`
      with found as materialized (select ${COLUMNS} from entries e where ${sql.join(conditions.where, sql` and `)})
      select * from found e where ${sql.join([inRange(db, range), ...conditions.filters], sql` and `)} ${ORDER(db)} limit ${limit}`;
  } else if (throughNameIndex && gather && isPostgres(db)) {
    query = sql<Parameters<typeof toEntry>[0]>`
      with found as materialized (select ${COLUMNS} from entries e where ${all})
      select * from found e ${ORDER(db)} limit ${limit}`;
  } else {
    const source = throughNameIndex && !isPostgres(db) ? sql`from entry_names cross join entries e on e.id = entry_names.rowid` : sql`from entries e`;
    query = sql<Parameters<typeof toEntry>[0]>`select ${COLUMNS} ${source} where ${all} ${ORDER(db)} limit ${limit}`;
  }
  return (await query.execute(db)).rows.map(toEntry);
}

/**
 * Up to `limit` entries strictly below `rootKey` that meet the conditions, in the search order,
 * after `after` and not past `until` (inclusive). A `contains` text long enough for the trigram
 * indexes is looked up there (SQLite's `entry_names`; PostgreSQL's `entries_name_keys` below a
 * third segment, else `entries_name_in_workspace`) and its matches sorted; otherwise the database
 * reads the order's index (`entries_parent` on SQLite, `entries_subtree_order` on PostgreSQL) and
 * checks each row.
 */
export async function entriesBelow(
  db: Db,
  rootKey: string,
  page: { after: SubtreeOrderPosition | undefined; until: SubtreeOrderPosition | undefined; limit: number; conditions: NameConditions; gather?: boolean },
): Promise<Entry[]> {
  const contains = page.conditions.contains;
  if (contains?.includes('\u0000')) return [];
  const throughNameIndex = indexedSearch(contains);
  const segment = rootKey.split('/')[2];
  const byWorkspace = throughNameIndex && isPostgres(db) && segment !== undefined && segment !== '';
  const { where, filters } = conditionsSql(db, page.conditions, byWorkspace);
  if (throughNameIndex && !isPostgres(db)) {
    // A phrase of the trigram tokenizer: every trigram of the text, in order (a superset, the
    // tokenizer folding case its own way); instr above keeps the exact matches.
    where.push(sql<boolean>`entry_names match ${`"${contains.replaceAll('"', '""')}"`}`);
  }
  if (byWorkspace) {
    // Every entry below a folder this deep shares its third segment (its Workspace's number below
    // `_/workspaces/`): migration 036's index holds each trigram of a name with that segment, so
    // asked for the text's trigrams with it, the index reads that Workspace's entries only, not
    // the whole site's. From higher up, LIKE above is looked up in migration 034's index.
    where.push(sql<boolean>`entry_name_keys(e.path_key, e.parent_key) @> ${nameKeys(contains, segment)}::text[]`);
  }
  // The position goes with the range: gathered first, a Workspace's matches are then placed.
  if (page.after !== undefined) (byWorkspace ? filters : where).push(rowAfter(db, page.after, '>'));
  if (page.until !== undefined) (byWorkspace ? filters : where).push(rowAfter(db, page.until, '<='));
  const found: Entry[] = [];
  for (const range of parentRanges(rootKey)) {
    if (found.length >= page.limit) break;
    if (page.after !== undefined && rangeEndsBefore(range, page.after.parentKey)) continue;
    if (page.until !== undefined && rangeStartsAfter(range, page.until.parentKey)) break;
    found.push(...(await rangeRows(db, range, { where, filters, byWorkspace }, page.limit - found.length, throughNameIndex, page.gather === true)));
  }
  return found;
}

/**
 * The position of the `count`-th entry below `rootKey` after `after`, in the search order, or
 * undefined when fewer follow: the end of a bounded scan, read from the order's index alone.
 */
export async function positionAfter(db: Db, rootKey: string, after: SubtreeOrderPosition | undefined, count: number): Promise<SubtreeOrderPosition | undefined> {
  let remaining = count;
  for (const range of parentRanges(rootKey)) {
    if (after !== undefined && rangeEndsBefore(range, after.parentKey)) continue;
    const where = [inRange(db, range), ...(after === undefined ? [] : [rowAfter(db, after, '>')])];
    const { rows } = await sql<{ parent_key: string; type: EntryType; path_key: string }>`
      select e.parent_key, e.type, e.path_key from entries e where ${sql.join(where, sql` and `)} ${ORDER(db)} limit 1 offset ${remaining - 1}`.execute(db);
    const row = rows[0];
    if (row !== undefined) return { parentKey: row.parent_key, type: row.type, pathKey: row.path_key };
    if (range.equal) {
      // Fewer in this range: count them, and go on in the next one for the rest.
      const counted = await sql<{ n: number | string }>`select count(*) as n from entries e where ${sql.join(where, sql` and `)}`.execute(db);
      remaining -= Number(counted.rows[0]?.n ?? 0);
    }
  }
  return undefined;
}

/** Whether every parent key of the range sorts before `parentKey` (the range is all behind a position there). */
function rangeEndsBefore(range: { from: string; to: string | undefined; equal: boolean }, parentKey: string): boolean {
  if (range.equal) return compareBytes(range.from, parentKey) < 0;
  return range.to !== undefined && compareBytes(range.to, parentKey) <= 0;
}

function rangeStartsAfter(range: { from: string; to: string | undefined; equal: boolean }, parentKey: string): boolean {
  return compareBytes(range.from, parentKey) > 0;
}

/** Byte order of UTF-8 text, as both databases compare it here. */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
