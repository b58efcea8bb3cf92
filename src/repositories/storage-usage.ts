import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { cachedRead } from '../db/read-cache.js';

/** Files and their bytes under one first path segment group (see storedFilesBySegment). */
export interface SegmentUsage {
  /**
   * For a key under `_/workspaces/`: the digits that follow it and the character after them
   * (`12/` for `_/workspaces/12/...`); '' for every other file.
   */
  segment: string;
  files: number;
  bytes: number;
}

/** Characters of `_/workspaces/`: the Workspace id starts one after. */
const WORKSPACES_PREFIX_LENGTH = 13;

/** The Custom Workspace segment of a path key column (see SegmentUsage), cut with functions both databases share. */
function segmentOf(column: string) {
  const rest = sql<string>`substr(${sql.ref(column)}, ${sql.lit(WORKSPACES_PREFIX_LENGTH + 1)})`;
  const digits = sql<number>`length(${rest}) - length(ltrim(${rest}, '0123456789'))`;
  return sql<string>`case when ${sql.ref(column)} like '\\_/workspaces/%' escape '\\' then substr(${rest}, 1, ${digits} + 1) else '' end`;
}

function toUsage(rows: readonly { segment: string; files: number | string | null; bytes: number | string | null }[]): readonly SegmentUsage[] {
  return Object.freeze(rows.map((row) => ({ segment: row.segment, files: Number(row.files ?? 0), bytes: Number(row.bytes ?? 0) })));
}

/**
 * Every stored file's count and bytes in one aggregate query, one pass over the entries (the
 * entries_parent_size index holds every column it reads), grouped by the Custom Workspace a key
 * may lie in. The id is cut out with functions both databases share: the digits after the prefix
 * are as long as what `ltrim` of the digits removes. The answer is kept until the data changes.
 */
export function storedFilesBySegment(db: Db): Promise<readonly SegmentUsage[]> {
  return cachedRead(db, 'storage-usage', '', async () => {
    const rows = await db
      .selectFrom('entries')
      .select([segmentOf('path_key').as('segment'), (eb) => eb.fn.countAll<number>().as('files'), sql<number | string | null>`sum(size)`.as('bytes')])
      .where('type', '=', 'file')
      .groupBy(sql`1`)
      .execute();
    return toUsage(rows);
  });
}

/** The files and bytes the trash holds, by the segment of the path each deletion had (its row keeps the sums). */
export function trashedFilesBySegment(db: Db): Promise<readonly SegmentUsage[]> {
  return cachedRead(db, 'storage-usage-trash', '', async () => {
    const rows = await db
      .selectFrom('trash')
      .select([segmentOf('path_key').as('segment'), sql<number | string | null>`sum(files)`.as('files'), sql<number | string | null>`sum(bytes)`.as('bytes')])
      .groupBy(sql`1`)
      .execute();
    return toUsage(rows);
  });
}

/**
 * The versions kept and their bytes, by the segment of their file's path: a file's own, or for a
 * file in the trash, the path its deletion had. Two aggregate queries, each over the versions joined to its files.
 */
export function versionsBySegment(db: Db): Promise<readonly SegmentUsage[]> {
  return cachedRead(db, 'storage-usage-versions', '', async () => {
    const [live, trashed] = await Promise.all([
      db.selectFrom('file_versions')
        .innerJoin('entries', 'entries.id', 'file_versions.entry_id')
        .select([segmentOf('entries.path_key').as('segment'), (eb) => eb.fn.countAll<number>().as('files'), sql<number | string | null>`sum(file_versions.size)`.as('bytes')])
        .groupBy(sql`1`)
        .execute(),
      db.selectFrom('file_versions')
        .innerJoin('trash_items', 'trash_items.entry_id', 'file_versions.entry_id')
        .innerJoin('trash', 'trash.id', 'trash_items.trash_id')
        .select([segmentOf('trash.path_key').as('segment'), (eb) => eb.fn.countAll<number>().as('files'), sql<number | string | null>`sum(file_versions.size)`.as('bytes')])
        .groupBy(sql`1`)
        .execute(),
    ]);
    return toUsage([...live, ...trashed]);
  });
}
