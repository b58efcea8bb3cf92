import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { TrashTable } from '../db/tables.js';
import { startsWith } from './like-patterns.js';
import { ENTRY_COLUMNS, toEntry, type Entry } from './entries.js';

/** A deletion in the trash: the entry's path as it was, when and by whom, and what it held in all. */
export interface Trashed {
  id: number;
  path: string;
  pathKey: string;
  type: TrashTable['type'];
  deletedAt: number;
  deletedById: number | null;
  entries: number;
  files: number;
  bytes: number;
}

const TRASH_COLUMNS = ['id', 'path', 'path_key', 'type', 'deleted_at', 'deleted_by_id', 'entries', 'files', 'bytes'] as const;

function toTrashed(row: { id: number; path: string; path_key: string; type: TrashTable['type']; deleted_at: number; deleted_by_id: number | null; entries: number; files: number; bytes: number }): Trashed {
  return {
    id: Number(row.id),
    path: row.path,
    pathKey: row.path_key,
    type: row.type,
    deletedAt: Number(row.deleted_at),
    deletedById: row.deleted_by_id === null ? null : Number(row.deleted_by_id),
    entries: Number(row.entries),
    files: Number(row.files),
    bytes: Number(row.bytes),
  };
}

/** `key` and everything below it. */
const inSubtree = (column: string, key: string) => sql<boolean>`(${sql.ref(column)} = ${key} or ${startsWith(column, `${key}/`)})`;

/**
 * Moves an entry and everything below it from `entries` into the trash, in the caller's
 * transaction: the entries are deleted first, and exactly what that deleted becomes the trash
 * row's items (a concurrent change can add nothing in between). Blobs stay where they are: the
 * items name them now. Answers the new trash row, or undefined when nothing was there any more
 * (another request deleted it).
 */
export async function moveSubtreeToTrash(db: Db, root: Entry, now: number, userId: number | null): Promise<Trashed | undefined> {
  const deleted = (await db.deleteFrom('entries').where(inSubtree('path_key', root.pathKey)).returning(ENTRY_COLUMNS).execute()).map(toEntry);
  const top = deleted.find((entry) => entry.pathKey === root.pathKey);
  if (top === undefined) return undefined;
  const files = deleted.filter((entry) => entry.type === 'file');
  const row = await db
    .insertInto('trash')
    .values({
      path: top.path, path_key: top.pathKey, type: top.type, deleted_at: now, deleted_by_id: userId,
      entries: deleted.length, files: files.length, bytes: files.reduce((sum, file) => sum + (file.size ?? 0), 0),
    })
    .returning(TRASH_COLUMNS)
    .executeTakeFirstOrThrow();
  const suffix = (key: string, rootKey: string) => key.slice(rootKey.length);
  for (let i = 0; i < deleted.length; i += ITEMS_PER_INSERT) {
    await db.insertInto('trash_items').values(deleted.slice(i, i + ITEMS_PER_INSERT).map((entry) => ({
      trash_id: row.id,
      entry_id: entry.id,
      path_suffix: suffix(entry.path, top.path),
      key_suffix: suffix(entry.pathKey, top.pathKey),
      parent_suffix: entry.pathKey === top.pathKey ? '' : suffix(entry.parentKey, top.pathKey),
      type: entry.type, size: entry.size, storage_key: entry.storageKey, sha256: entry.sha256, md5: entry.md5, sha1: entry.sha1, crc32: entry.crc32,
      created_at: entry.createdAt, mtime: entry.mtime, provided_mtime: entry.providedMtime, created_by_id: entry.createdById, last_modified_by_id: entry.lastModifiedById,
    }))).execute();
  }
  return toTrashed(row);
}

/** Rows per multi-row insert: 17 values each, well under either database's parameter limit. */
const ITEMS_PER_INSERT = 200;

/**
 * Puts a trashed tree back into `entries` under `to` (its old place, or a free name beside it),
 * each entry with the id it had, so that a file's versions are its own again; then removes it from
 * the trash. The caller has checked, in the same transaction, that `to` is free.
 */
export async function restoreTrashedSubtree(db: Db, trashId: number, to: { path: string; key: string; parentKey: string }, now: number): Promise<number> {
  const text = (value: string) => sql<string>`cast(${value} as text)`;
  const result = await db
    .insertInto('entries')
    .columns(['id', 'path', 'path_key', 'parent_key', 'type', 'size', 'storage_key', 'sha256', 'md5', 'sha1', 'crc32',
      'created_at', 'mtime', 'provided_mtime', 'created_by_id', 'last_modified_by_id'])
    .expression((eb) => eb
      .selectFrom('trash_items')
      .select([
        'entry_id',
        sql<string>`${text(to.path)} || path_suffix`.as('path'),
        sql<string>`${text(to.key)} || key_suffix`.as('path_key'),
        sql<string>`case when key_suffix = '' then ${text(to.parentKey)} else ${text(to.key)} || parent_suffix end`.as('parent_key'),
        'type', 'size', 'storage_key', 'sha256', 'md5', 'sha1', 'crc32', 'created_at',
        // The restored root is a change of its folder; what is inside it is as it was.
        sql<number>`case when key_suffix = '' then ${now} else mtime end`.as('mtime'),
        'provided_mtime', 'created_by_id', 'last_modified_by_id',
      ])
      .where('trash_id', '=', trashId)
      .orderBy('key_suffix'))
    .executeTakeFirst();
  // Its items go with it (on delete cascade).
  await db.deleteFrom('trash').where('id', '=', trashId).execute();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/**
 * The trash row, locked for the rest of the transaction (a no-op update, as lockEntryAt does): a
 * restore and a purge of the same deletion queue, and the second finds it gone.
 */
export async function lockTrashed(db: Db, id: number): Promise<Trashed | undefined> {
  const row = await db.updateTable('trash').set((eb) => ({ id: eb.ref('id') })).where('id', '=', id).returning(TRASH_COLUMNS).executeTakeFirst();
  return row === undefined ? undefined : toTrashed(row);
}

export async function findTrashed(db: Db, id: number): Promise<Trashed | undefined> {
  const row = await db.selectFrom('trash').select(TRASH_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toTrashed(row);
}

/**
 * Trash rows whose path is `withinKey` or lies below it ('' for the whole site), newest first,
 * from before `beforeId` if given: `limit` of them.
 */
export async function trashedWithin(db: Db, request: { withinKey: string; beforeId: number | undefined; limit: number }): Promise<Trashed[]> {
  let query = db.selectFrom('trash').select(TRASH_COLUMNS);
  if (request.withinKey !== '') query = query.where(inSubtree('path_key', request.withinKey));
  if (request.beforeId !== undefined) query = query.where('id', '<', request.beforeId);
  const rows = await query.orderBy('id', 'desc').limit(request.limit).execute();
  return rows.map(toTrashed);
}

/** A trashed tree's entries, as they were, root first: relative paths and file contents. */
export interface TrashedItem {
  entryId: number;
  pathSuffix: string;
  type: TrashTable['type'];
  size: number | null;
  storageKey: string | null;
  sha256: string | null;
  mtime: number;
}

/** The first `limit` of them: a folder of a million entries is not read whole to show a page of it. */
export async function trashedItems(db: Db, trashId: number, limit: number): Promise<TrashedItem[]> {
  const rows = await db
    .selectFrom('trash_items')
    .select(['entry_id', 'path_suffix', 'type', 'size', 'storage_key', 'sha256', 'mtime'])
    .where('trash_id', '=', trashId)
    .orderBy('key_suffix')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    entryId: Number(row.entry_id), pathSuffix: row.path_suffix, type: row.type, size: row.size === null ? null : Number(row.size),
    storageKey: row.storage_key, sha256: row.sha256, mtime: Number(row.mtime),
  }));
}

/**
 * Removes a deletion from the trash for good, with the versions of the files it held; answers
 * the blobs nothing refers to any more, for the caller to delete after the commit. Nothing (an
 * empty list) when it is gone already: another node purged or restored it.
 */
export async function removeTrashed(db: Db, trashId: number): Promise<string[]> {
  const items = await db.selectFrom('trash_items').select(['entry_id', 'storage_key', 'type']).where('trash_id', '=', trashId).execute();
  const fileIds = items.filter((item) => item.type === 'file').map((item) => Number(item.entry_id));
  const versionKeys: string[] = [];
  for (let i = 0; i < fileIds.length; i += CHUNK) {
    const rows = await db.deleteFrom('file_versions').where('entry_id', 'in', fileIds.slice(i, i + CHUNK)).returning('storage_key').execute();
    versionKeys.push(...rows.map((row) => row.storage_key));
  }
  // Its items go with it (on delete cascade).
  const removed = await db.deleteFrom('trash').where('id', '=', trashId).executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) return [];
  return [...items.flatMap((item) => (item.storage_key === null ? [] : [item.storage_key])), ...versionKeys];
}

/** Parameters per statement, under either database's limit. */
const CHUNK = 500;

/** Ids of deletions made before `cutoff`, oldest first: `limit` of them. */
export async function trashedBefore(db: Db, cutoff: number, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('trash').select('id').where('deleted_at', '<', cutoff).orderBy('deleted_at').orderBy('id').limit(limit).execute();
  return rows.map((row) => Number(row.id));
}
