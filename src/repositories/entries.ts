import type { Db } from '../db/database.js';
import { startsWith } from '../db/like-prefix.js';
import { parentPath, pathKey } from '../lib/paths.js';

/** Creates the directory and any missing ancestors (used for Workspace root folders). */
export async function ensureDirectory(db: Db, path: string, now: number): Promise<void> {
  const segments = path.split('/');
  for (let i = 1; i <= segments.length; i += 1) {
    const current = segments.slice(0, i).join('/');
    const key = pathKey(current);
    const existing = await db.selectFrom('entries').select('id').where('path_key', '=', key).executeTakeFirst();
    if (existing !== undefined) continue;
    await db
      .insertInto('entries')
      .values({ path: current, path_key: key, parent_key: pathKey(parentPath(current)), type: 'directory', size: null, storage_key: null, created_at: now, mtime: now })
      .execute();
  }
}

/** Number of entries strictly below a folder. */
export async function countEntriesBelow(db: Db, path: string): Promise<number> {
  const key = pathKey(path);
  const row = await db
    .selectFrom('entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(startsWith('path_key', `${key}/`))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteEntry(db: Db, path: string): Promise<void> {
  await db.deleteFrom('entries').where('path_key', '=', pathKey(path)).execute();
}
