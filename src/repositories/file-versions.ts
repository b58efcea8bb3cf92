import type { Db } from '../db/database.js';
import type { Entry } from './entries.js';

/** An earlier content of a file, kept when it was replaced (docs/files.md#trash-and-versions). */
export interface FileVersion {
  id: number;
  entryId: number;
  size: number;
  storageKey: string;
  sha256: string | null;
  md5: string | null;
  sha1: string | null;
  crc32: string | null;
  mtime: number;
  providedMtime: number | null;
  authorId: number | null;
  replacedAt: number;
  replacedById: number | null;
}

const VERSION_COLUMNS = ['id', 'entry_id', 'size', 'storage_key', 'sha256', 'md5', 'sha1', 'crc32', 'mtime', 'provided_mtime', 'author_id', 'replaced_at', 'replaced_by_id'] as const;

type VersionRow = { id: number; entry_id: number; size: number; storage_key: string; sha256: string | null; md5: string | null; sha1: string | null; crc32: string | null;
  mtime: number; provided_mtime: number | null; author_id: number | null; replaced_at: number; replaced_by_id: number | null };

function toVersion(row: VersionRow): FileVersion {
  const orNull = (value: number | null) => (value === null ? null : Number(value));
  return {
    id: Number(row.id), entryId: Number(row.entry_id), size: Number(row.size), storageKey: row.storage_key,
    sha256: row.sha256, md5: row.md5, sha1: row.sha1, crc32: row.crc32, mtime: Number(row.mtime), providedMtime: orNull(row.provided_mtime),
    authorId: orNull(row.author_id), replacedAt: Number(row.replaced_at), replacedById: orNull(row.replaced_by_id),
  };
}

/** Keeps a file's content as it is now (`file`, before it is replaced) as a version of entry `entryId`. */
export async function keepVersion(db: Db, entryId: number, file: Entry, replaced: { at: number; byId: number | null }): Promise<void> {
  if (file.storageKey === null) throw new Error('a folder has no content to keep');
  await db.insertInto('file_versions').values({
    entry_id: entryId, size: file.size ?? 0, storage_key: file.storageKey, sha256: file.sha256, md5: file.md5, sha1: file.sha1, crc32: file.crc32,
    mtime: file.mtime, provided_mtime: file.providedMtime, author_id: file.lastModifiedById, replaced_at: replaced.at, replaced_by_id: replaced.byId,
  }).execute();
}

/**
 * Removes the versions of a file beyond its `keep` newest; answers their blobs, for the caller to
 * delete after the commit.
 */
export async function trimVersions(db: Db, entryId: number, keep: number): Promise<string[]> {
  const surplus = await db.selectFrom('file_versions').select('id').where('entry_id', '=', entryId).orderBy('id', 'desc').offset(keep).limit(1_000_000).execute();
  if (surplus.length === 0) return [];
  const rows = await db.deleteFrom('file_versions').where('id', 'in', surplus.map((row) => Number(row.id))).returning('storage_key').execute();
  return rows.map((row) => row.storage_key);
}

/** A file's versions, newest first. */
export async function versionsOf(db: Db, entryId: number): Promise<FileVersion[]> {
  const rows = await db.selectFrom('file_versions').select(VERSION_COLUMNS).where('entry_id', '=', entryId).orderBy('id', 'desc').execute();
  return rows.map(toVersion);
}

export async function findVersion(db: Db, id: number): Promise<FileVersion | undefined> {
  const row = await db.selectFrom('file_versions').select(VERSION_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toVersion(row);
}

/** Removes one version (it became the file's content again): the row only, its blob now the file's. */
export async function takeVersion(db: Db, entryId: number, id: number): Promise<FileVersion | undefined> {
  const row = await db.deleteFrom('file_versions').where('id', '=', id).where('entry_id', '=', entryId).returning(VERSION_COLUMNS).executeTakeFirst();
  return row === undefined ? undefined : toVersion(row);
}

/** Makes the versions of one entry another's: a file replaced by a move or copy over it keeps its history at its path. */
export async function handOverVersions(db: Db, fromEntryId: number, toEntryId: number): Promise<void> {
  await db.updateTable('file_versions').set({ entry_id: toEntryId }).where('entry_id', '=', fromEntryId).execute();
}

/**
 * Of these blobs, those a version or a trashed entry still refers to: what the blob deletion
 * leaves alone whatever its caller believed (files/file-deps.ts discardBlobs).
 */
export async function keptStorageKeys(db: Db, keys: readonly string[]): Promise<Set<string>> {
  const kept = new Set<string>();
  for (let i = 0; i < keys.length; i += CHUNK) {
    const chunk = keys.slice(i, i + CHUNK);
    const [versions, trashed] = await Promise.all([
      db.selectFrom('file_versions').select('storage_key').where('storage_key', 'in', chunk).execute(),
      db.selectFrom('trash_items').select('storage_key').where('storage_key', 'in', chunk).execute(),
    ]);
    for (const row of [...versions, ...trashed]) if (row.storage_key !== null) kept.add(row.storage_key);
  }
  return kept;
}

/** Parameters per statement, under either database's limit. */
const CHUNK = 500;
