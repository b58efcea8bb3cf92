import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { cachedRead } from '../db/read-cache.js';
import { ENTRY_COLUMNS, toEntry, type Entry, type EntryType } from './entries.js';
import { escapeLike } from '../lib/name-glob.js';

/** Which children a listing may show (contract 6). */
export type ChildFilter =
  /** Every child, or every subfolder, but those in `except` (path keys). */
  | { kind: 'all'; except: readonly string[] }
  | { kind: 'directories'; except: readonly string[] }
  /** Only these children (path keys): the ones on the way to the caller's grants. */
  | { kind: 'keys'; keys: readonly string[] };

/**
 * What the listed children must be, beyond visible: searches and filters narrow a listing with
 * these, inside the same index range, so a page still costs what the range holds up to it.
 */
export interface ChildConditions {
  /**
   * LIKE patterns (escape character `\`) each child's name must match, as its path key: lower
   * case, NFC. The folder's own key is put before each, so one range of the index serves them.
   */
  readonly nameLike: readonly string[];
  /** Only children of this type. */
  readonly type: EntryType | undefined;
  /** Only children modified strictly after this time (epoch milliseconds). */
  readonly modifiedAfter: number | undefined;
}

export const NO_CONDITIONS: ChildConditions = Object.freeze({ nameLike: [], type: undefined, modifiedAfter: undefined });

/**
 * What a folder's children are ordered by: the name, the size, the server's modification time, or
 * the one the file protocols show (`provided_mtime` where a client gave one, else `mtime`).
 */
export type ListingSortField = 'path' | 'size' | 'mtime' | 'provided_mtime';
export type SortDirection = 'asc' | 'desc';

export interface ListingSort {
  field: ListingSortField;
  direction: SortDirection;
}

export const DEFAULT_LISTING_SORT: ListingSort = Object.freeze({ field: 'path', direction: 'asc' });

/** Where a page ends: the last entry's type, its value in the sort (null when sorted by name), its path key. */
export interface ChildPosition {
  type: EntryType;
  value: number | null;
  pathKey: string;
}

/** Folders come first in every sort; files after them. */
const TYPES_IN_ORDER: readonly EntryType[] = ['directory', 'file'];

/** Cached children pages hold at most this many rows in all (about 20 MB). */
const MAX_KEPT_ROWS = 50_000;

/**
 * The column an entry of this type is ordered by before its path key, if any. Folders have no
 * size, so sorted by size they are listed by name, A to Z, whichever the direction.
 */
function sortColumn(sort: ListingSort, type: EntryType): 'size' | 'mtime' | 'provided_mtime' | undefined {
  if (sort.field === 'path' || (sort.field === 'size' && type === 'directory')) return undefined;
  return sort.field;
}

/**
 * A sort column as SQL: `provided_mtime` sorts as the expression of its index
 * (entries_parent_provided_mtime), written as the index writes it so that both databases use it.
 */
function sortExpression(column: 'size' | 'mtime' | 'provided_mtime') {
  return column === 'provided_mtime' ? sql<number>`coalesce(${sql.ref('provided_mtime')}, ${sql.ref('mtime')})` : sql.ref(column);
}

function segmentDirection(sort: ListingSort, type: EntryType): SortDirection {
  return sort.field === 'size' && type === 'directory' ? 'asc' : sort.direction;
}

/** An entry's value in a sort, as a position carries it (null when the entry is ordered by name alone). */
export function sortValueOf(sort: ListingSort, entry: Readonly<Entry>): number | null {
  const column = sortColumn(sort, entry.type);
  if (column === undefined) return null;
  if (column === 'size') return entry.size ?? 0;
  return column === 'provided_mtime' ? (entry.providedMtime ?? entry.mtime) : entry.mtime;
}

/** Whether a position can belong to a listing in this sort (it has a value exactly when the sort needs one). */
export function positionFitsSort(sort: ListingSort, position: ChildPosition): boolean {
  return (sortColumn(sort, position.type) === undefined) === (position.value === null);
}

/**
 * One page of a folder's children, folders first, then in the sort's order, ties broken by path key
 * in the same direction, so the order is total. Each type is read as its own range of an index
 * (parent_key, type, [size | mtime | coalesce(provided_mtime, mtime),] path_key), forward or backward, starting after `after`
 * (keyset pagination): the cost of a page follows its size, never the folder's, in every sort. The
 * comparison uses the column's own collation, the same one ORDER BY uses, so pages neither skip
 * nor repeat entries on either database.
 */
export function listChildren(
  db: Db,
  folderKey: string,
  filter: ChildFilter,
  page: { after: ChildPosition | undefined; limit: number; sort: ListingSort },
  conditions: ChildConditions = NO_CONDITIONS,
): Promise<readonly Readonly<Entry>[]> {
  if (filter.kind === 'keys' && filter.keys.length === 0) return Promise.resolve([]);
  // Cached until the data changes (db/read-cache.ts): the same page of the same folder is what
  // every member of a team lists. Shared answers are frozen.
  const { after, sort } = page;
  const cacheKey = [
    folderKey, filter.kind, ...(filter.kind === 'keys' ? filter.keys : filter.except),
    sort.field, sort.direction, after?.type ?? '', after?.value ?? '', after?.pathKey ?? '', page.limit,
    conditions.type ?? '', conditions.modifiedAfter ?? '', conditions.nameLike.length, ...conditions.nameLike,
  ].join('\u0000');
  return cachedRead(db, 'entry-children', cacheKey, async () => Object.freeze((await loadChildren(db, folderKey, filter, page, conditions)).map((entry) => Object.freeze(entry))), {
    weigh: (rows) => rows.length,
    maxWeight: MAX_KEPT_ROWS,
  });
}

async function loadChildren(
  db: Db,
  folderKey: string,
  filter: ChildFilter,
  page: { after: ChildPosition | undefined; limit: number; sort: ListingSort },
  conditions: ChildConditions,
): Promise<Entry[]> {
  const types = TYPES_IN_ORDER.filter((type) => (filter.kind !== 'directories' || type === 'directory') && (conditions.type === undefined || type === conditions.type));
  const start = page.after === undefined ? 0 : types.indexOf(page.after.type);
  if (start < 0) return [];
  const rows: Entry[] = [];
  for (const type of types.slice(start)) {
    const remaining = page.limit - rows.length;
    if (remaining <= 0) break;
    const after = page.after?.type === type ? page.after : undefined;
    rows.push(...(await loadOfType(db, folderKey, filter, type, page.sort, after, remaining, conditions)));
  }
  return rows;
}

/** The LIKE prefix of a child's path key in a folder: the folder's key and a slash, escaped. */
function childKeyPrefixLike(folderKey: string): string {
  return folderKey === '' ? '' : `${escapeLike(folderKey)}/`;
}

async function loadOfType(
  db: Db,
  folderKey: string,
  filter: ChildFilter,
  type: EntryType,
  sort: ListingSort,
  after: ChildPosition | undefined,
  limit: number,
  conditions: ChildConditions,
): Promise<Entry[]> {
  let query = db.selectFrom('entries').select(ENTRY_COLUMNS).where('parent_key', '=', folderKey).where('type', '=', type);
  if (filter.kind === 'keys') query = query.where('path_key', 'in', filter.keys);
  else if (filter.except.length > 0) query = query.where('path_key', 'not in', filter.except);
  // Each child's key is the folder's key, a slash and its name (no slash in it): so the pattern
  // after the prefix applies to the name alone.
  for (const nameLike of conditions.nameLike) {
    query = query.where(sql<boolean>`${sql.ref('path_key')} like ${childKeyPrefixLike(folderKey) + nameLike} escape '\\'`);
  }
  if (conditions.modifiedAfter !== undefined) query = query.where('mtime', '>', conditions.modifiedAfter);
  const column = sortColumn(sort, type);
  const direction = segmentDirection(sort, type);
  const beyond = direction === 'asc' ? '>' : '<';
  if (after !== undefined) {
    // A row-value comparison, which both databases serve as a range of the index; the equivalent
    // `a > x or (a = x and b > y)` makes PostgreSQL walk the folder from its start.
    const afterValue = after.value;
    query = column === undefined || afterValue === null
      ? query.where('path_key', beyond, after.pathKey)
      : query.where(sql<boolean>`(${sortExpression(column)}, ${sql.ref('path_key')}) ${sql.raw(beyond)} (${afterValue}, ${after.pathKey})`);
    // SQLite reads a row value over an expression's index only up to the equal columns: the
    // expression alone bounded too makes its range one of the index (PostgreSQL uses either).
    if (column === 'provided_mtime' && afterValue !== null) query = query.where(sortExpression(column), direction === 'asc' ? '>=' : '<=', afterValue);
  }
  if (column !== undefined) query = query.orderBy(sortExpression(column), direction);
  const rows = await query.orderBy('path_key', direction).limit(limit).execute();
  return rows.map(toEntry);
}
