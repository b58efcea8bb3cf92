import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { startsWith } from './like-patterns.js';
import { cachedRead } from '../db/read-cache.js';
import type { EntriesTable } from '../db/tables.js';
import { parentPath, pathKey } from '../lib/paths.js';

export type EntryType = EntriesTable['type'];

/** A folder or file as stored: `path` is the qualified site path in its first spelling. */
export interface Entry {
  id: number;
  path: string;
  pathKey: string;
  parentKey: string;
  type: EntryType;
  /** null for directories. */
  size: number | null;
  storageKey: string | null;
  sha256: string | null;
  /** The other digests of a file's bytes: null for folders and for files stored before they were kept. */
  md5: string | null;
  sha1: string | null;
  crc32: string | null;
  createdAt: number;
  mtime: number;
  /** The modification time the client gave (epoch ms), if it gave one. */
  providedMtime: number | null;
  /** The user who created the entry; for a file, the one who last replaced its contents too. */
  createdById: number | null;
  lastModifiedById: number | null;
}

export const ENTRY_COLUMNS = [
  'id', 'path', 'path_key', 'parent_key', 'type', 'size', 'storage_key', 'sha256', 'md5', 'sha1', 'crc32',
  'created_at', 'mtime', 'provided_mtime', 'created_by_id', 'last_modified_by_id',
] as const;

type EntryRow = Pick<Selectable<EntriesTable>, Exclude<(typeof ENTRY_COLUMNS)[number], 'id'>> & { id: number };

export function toEntry(row: EntryRow): Entry {
  return {
    id: row.id,
    path: row.path,
    pathKey: row.path_key,
    parentKey: row.parent_key,
    type: row.type,
    size: row.size === null ? null : Number(row.size),
    storageKey: row.storage_key,
    sha256: row.sha256,
    md5: row.md5,
    sha1: row.sha1,
    crc32: row.crc32,
    createdAt: Number(row.created_at),
    mtime: Number(row.mtime),
    providedMtime: row.provided_mtime === null ? null : Number(row.provided_mtime),
    createdById: row.created_by_id === null ? null : Number(row.created_by_id),
    lastModifiedById: row.last_modified_by_id === null ? null : Number(row.last_modified_by_id),
  };
}

/**
 * Who writes an entry and what its client says of it: the user (null for a site-wide API key, or
 * a write made by Atrium itself) and the modification time the client gave, if any.
 */
export interface EntryAuthorship {
  userId: number | null;
  providedMtime: number | null;
}

/** Creates the directory and any missing ancestors (used for Workspace root folders). */
export async function ensureDirectory(db: Db, path: string, now: number): Promise<void> {
  const segments = path.split('/');
  for (let i = 1; i <= segments.length; i += 1) {
    const current = segments.slice(0, i).join('/');
    const key = pathKey(current);
    const existing = await db.selectFrom('entries').select('id').where('path_key', '=', key).executeTakeFirst();
    if (existing !== undefined) continue;
    // Another transaction may be making the same folder (two Workspaces created at once both make
    // `_/Workspaces`): whichever inserts it, it is there.
    await db
      .insertInto('entries')
      .values({ path: current, path_key: key, parent_key: pathKey(parentPath(current)), type: 'directory', size: null, storage_key: null, created_at: now, mtime: now })
      .onConflict((oc) => oc.column('path_key').doNothing())
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

/**
 * The entry at a path key. Cached until the data changes (db/read-cache.ts): every listing,
 * download and metadata request starts here. The answer is shared: callers must not mutate it.
 */
export function findEntry(db: Db, key: string): Promise<Readonly<Entry> | undefined> {
  return cachedRead(db, 'entry', key, async () => {
    const row = await db.selectFrom('entries').select(ENTRY_COLUMNS).where('path_key', '=', key).executeTakeFirst();
    return row === undefined ? undefined : Object.freeze(toEntry(row));
  });
}

/**
 * The entry with this id: what a signed download link names. Cached like findEntry, since every
 * download through a link starts here; shared, so callers must not mutate it.
 */
export function findEntryById(db: Db, id: number): Promise<Readonly<Entry> | undefined> {
  return cachedRead(db, 'entry-by-id', String(id), async () => {
    const row = await db.selectFrom('entries').select(ENTRY_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : Object.freeze(toEntry(row));
  });
}

/** The entries on these keys (a path's ancestors, say), in one indexed query. */
export async function findEntries(db: Db, keys: readonly string[]): Promise<Map<string, Entry>> {
  if (keys.length === 0) return new Map();
  const rows = await db.selectFrom('entries').select(ENTRY_COLUMNS).where('path_key', 'in', keys).execute();
  return new Map(rows.map((row) => [row.path_key, toEntry(row)]));
}

/** Whether anything lies below a folder (one indexed probe, however large the folder). */
export async function hasEntriesBelow(db: Db, key: string): Promise<boolean> {
  const row = await db.selectFrom('entries').select('id').where('parent_key', '=', key).limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * Inserts a directory unless the path is taken; true when this call created it. "Taken" covers a
 * concurrent request creating the same path: the unique path_key decides, never a prior read.
 */
export async function insertDirectory(db: Db, path: string, now: number, authorship?: EntryAuthorship): Promise<boolean> {
  const result = await db
    .insertInto('entries')
    .values({
      path,
      path_key: pathKey(path),
      parent_key: pathKey(parentPath(path)),
      type: 'directory',
      size: null,
      storage_key: null,
      sha256: null,
      created_at: now,
      mtime: now,
      provided_mtime: authorship?.providedMtime ?? null,
      created_by_id: authorship?.userId ?? null,
      last_modified_by_id: authorship?.userId ?? null,
    })
    .onConflict((oc) => oc.column('path_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** A file's stored bytes: where, how many, and their digests (as storage computed them). */
export interface FileContent {
  storageKey: string;
  size: number;
  sha256: string;
  md5: string | null;
  sha1: string | null;
  crc32: string | null;
}

/** Inserts a file unless the path is taken; the new entry, or undefined when it was taken. */
export async function insertFile(db: Db, path: string, content: FileContent, now: number, authorship: EntryAuthorship): Promise<Entry | undefined> {
  const row = await db
    .insertInto('entries')
    .values({
      path,
      path_key: pathKey(path),
      parent_key: pathKey(parentPath(path)),
      type: 'file',
      size: content.size,
      storage_key: content.storageKey,
      sha256: content.sha256,
      md5: content.md5,
      sha1: content.sha1,
      crc32: content.crc32,
      created_at: now,
      mtime: now,
      provided_mtime: authorship.providedMtime,
      created_by_id: authorship.userId,
      last_modified_by_id: authorship.userId,
    })
    .onConflict((oc) => oc.column('path_key').doNothing())
    .returning(ENTRY_COLUMNS)
    .executeTakeFirst();
  return row === undefined ? undefined : toEntry(row);
}

/**
 * Points a file at new contents, only if it still holds `expectedStorageKey` (compare and swap):
 * of two uploads replacing the same file at once, each learns exactly which blob it displaced, so
 * no blob is orphaned or deleted while still in use. Undefined when the file changed meanwhile.
 * The client's modification time goes with the contents: new contents without one have none.
 */
export async function replaceFileContent(db: Db, id: number, expectedStorageKey: string, content: FileContent, now: number, authorship: EntryAuthorship): Promise<Entry | undefined> {
  const row = await db
    .updateTable('entries')
    .set({
      storage_key: content.storageKey,
      size: content.size,
      sha256: content.sha256,
      md5: content.md5,
      sha1: content.sha1,
      crc32: content.crc32,
      mtime: now,
      provided_mtime: authorship.providedMtime,
      last_modified_by_id: authorship.userId,
    })
    .where('id', '=', id)
    .where('type', '=', 'file')
    .where('storage_key', '=', expectedStorageKey)
    .returning(ENTRY_COLUMNS)
    .executeTakeFirst();
  return row === undefined ? undefined : toEntry(row);
}

/** The display spelling of a path already in use by its entry, if an entry lies there. */
export async function entrySpelling(db: Db, key: string): Promise<string | undefined> {
  return (await findEntry(db, key))?.path;
}

export async function entryTypeAt(db: Db, key: string): Promise<EntryType | undefined> {
  return (await findEntry(db, key))?.type;
}

/**
 * Locks the entry at `key`, if one stands there, until the transaction ends: writers of one file
 * then take turns instead of racing (PostgreSQL's row lock; SQLite's write lock, which a
 * transaction that writes holds anyway). The update changes nothing.
 */
export async function lockEntryAt(db: Db, key: string): Promise<void> {
  await db.updateTable('entries').set((eb) => ({ id: eb.ref('id') })).where('path_key', '=', key).execute();
}
