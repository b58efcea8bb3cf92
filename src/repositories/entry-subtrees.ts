import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { startsWith } from './like-patterns.js';
import { ENTRY_COLUMNS, toEntry, type Entry } from './entries.js';

/** An entry and everything below it, shallowest first. */
export async function subtreeOf(db: Db, key: string): Promise<Entry[]> {
  const rows = await db
    .selectFrom('entries')
    .select(ENTRY_COLUMNS)
    .where((eb) => eb.or([eb('path_key', '=', key), startsWith('path_key', `${key}/`)]))
    .orderBy('path_key')
    .execute();
  return rows.map(toEntry).sort((a, b) => depth(a.pathKey) - depth(b.pathKey) || (a.pathKey < b.pathKey ? -1 : 1));
}

function depth(key: string): number {
  let n = 0;
  for (const c of key) if (c === '/') n += 1;
  return n;
}

export interface SubtreeMove {
  from: { path: string; key: string };
  to: { path: string; key: string; parentKey: string };
}

/**
 * Renames an entry and every path below it in one statement: contents stay where they are (blobs
 * are keyed by id, not by path), so a move costs one row update per entry and no byte copying.
 * Prefix lengths are measured by the database in its own character units, the same ones substr
 * counts in, so a display spelling whose lower-case form has another length cannot misalign them.
 * Answers how many entries moved.
 */
export async function moveSubtree(db: Db, move: SubtreeMove, now: number): Promise<number> {
  const { from, to } = move;
  const text = (value: string) => sql<string>`cast(${value} as text)`;
  const result = await db
    .updateTable('entries')
    .set({
      path: sql<string>`${text(to.path)} || substr(path, length(${text(from.path)}) + 1)`,
      path_key: sql<string>`${text(to.key)} || substr(path_key, length(${text(from.key)}) + 1)`,
      parent_key: sql<string>`case when path_key = ${text(from.key)} then ${text(to.parentKey)} else ${text(to.key)} || substr(parent_key, length(${text(from.key)}) + 1) end`,
      mtime: sql<number>`case when path_key = ${text(from.key)} then ${now} else mtime end`,
    })
    .where((eb) => eb.or([eb('path_key', '=', from.key), startsWith('path_key', `${from.key}/`)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Inserts entries made elsewhere (a copied subtree), shallowest first so parents come first. */
export async function insertEntries(db: Db, entries: readonly Omit<Entry, 'id'>[]): Promise<void> {
  for (const entry of entries) {
    await db
      .insertInto('entries')
      .values({
        path: entry.path,
        path_key: entry.pathKey,
        parent_key: entry.parentKey,
        type: entry.type,
        size: entry.size,
        storage_key: entry.storageKey,
        sha256: entry.sha256,
        md5: entry.md5,
        sha1: entry.sha1,
        crc32: entry.crc32,
        created_at: entry.createdAt,
        mtime: entry.mtime,
        provided_mtime: entry.providedMtime,
        created_by_id: entry.createdById,
        last_modified_by_id: entry.lastModifiedById,
      })
      .execute();
  }
}
