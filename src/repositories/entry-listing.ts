import type { Db } from '../db/database.js';
import { cachedRead } from '../db/read-cache.js';
import { ENTRY_COLUMNS, toEntry, type Entry, type EntryType } from './entries.js';

/** Which children a listing may show (contract 6). */
export type ChildFilter =
  | { kind: 'all' }
  | { kind: 'directories' }
  /** Only these children (path keys): the ones on the way to the caller's grants. */
  | { kind: 'keys'; keys: readonly string[] };

export interface ChildPosition {
  type: EntryType;
  pathKey: string;
}

/** Cached children pages hold at most this many rows in all (about 20 MB). */
const MAX_KEPT_ROWS = 50_000;

/**
 * One page of a folder's children, folders first, then by path key: the order of the
 * entries_parent index (parent_key, type, path_key), which 'directory' < 'file' makes folders-first.
 * The page starts after `after` (keyset pagination), so the cost of a page follows its size, never
 * the folder's. The comparison uses the column's own collation, the same one ORDER BY uses, so
 * pages neither skip nor repeat entries on either database.
 */
export function listChildren(
  db: Db,
  folderKey: string,
  filter: ChildFilter,
  page: { after: ChildPosition | undefined; limit: number },
): Promise<readonly Readonly<Entry>[]> {
  if (filter.kind === 'keys' && filter.keys.length === 0) return Promise.resolve([]);
  // Cached until the data changes (db/read-cache.ts): the same page of the same folder is what
  // every member of a team lists. Shared answers are frozen.
  const cacheKey = [folderKey, filter.kind, ...(filter.kind === 'keys' ? filter.keys : []), page.after?.type ?? '', page.after?.pathKey ?? '', page.limit].join('\u0000');
  return cachedRead(db, 'entry-children', cacheKey, async () => Object.freeze((await loadChildren(db, folderKey, filter, page)).map((entry) => Object.freeze(entry))), {
    weigh: (rows) => rows.length,
    maxWeight: MAX_KEPT_ROWS,
  });
}

async function loadChildren(db: Db, folderKey: string, filter: ChildFilter, page: { after: ChildPosition | undefined; limit: number }): Promise<Entry[]> {
  let query = db.selectFrom('entries').select(ENTRY_COLUMNS).where('parent_key', '=', folderKey);
  if (filter.kind === 'directories') query = query.where('type', '=', 'directory');
  if (filter.kind === 'keys') query = query.where('path_key', 'in', filter.keys);
  const after = page.after;
  if (after !== undefined) {
    // A row-value comparison, which both databases serve as a range of the index; the equivalent
    // `type > a or (type = a and path_key > b)` makes PostgreSQL walk the folder from its start.
    query = query.where((eb) => eb(eb.refTuple('type', 'path_key'), '>', eb.tuple(after.type, after.pathKey)));
  }
  const rows = await query.orderBy('type').orderBy('path_key').limit(page.limit).execute();
  return rows.map(toEntry);
}
