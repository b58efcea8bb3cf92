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

/**
 * Every stored file's count and bytes in one aggregate query, one pass over the entries (the
 * entries_parent_size index holds every column it reads), grouped by the Custom Workspace a key
 * may lie in. The id is cut out with functions both databases share: the digits after the prefix
 * are as long as what `ltrim` of the digits removes. The answer is kept until the data changes.
 */
export function storedFilesBySegment(db: Db): Promise<readonly SegmentUsage[]> {
  return cachedRead(db, 'storage-usage', '', async () => {
    const rest = sql<string>`substr(path_key, ${sql.lit(WORKSPACES_PREFIX_LENGTH + 1)})`;
    const digits = sql<number>`length(${rest}) - length(ltrim(${rest}, '0123456789'))`;
    const segment = sql<string>`case when path_key like '\\_/workspaces/%' escape '\\' then substr(${rest}, 1, ${digits} + 1) else '' end`;
    const rows = await db
      .selectFrom('entries')
      .select([segment.as('segment'), (eb) => eb.fn.countAll<number>().as('files'), sql<number | string | null>`sum(size)`.as('bytes')])
      .where('type', '=', 'file')
      .groupBy(sql`1`)
      .execute();
    return Object.freeze(rows.map((row) => ({ segment: row.segment, files: Number(row.files), bytes: Number(row.bytes ?? 0) })));
  });
}
