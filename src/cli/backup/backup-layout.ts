import path from 'node:path';
import { SQLITE_FILE } from '../../db/data-dir.js';

/**
 * What a backup archive holds, as paths inside it, which are the same paths as in a data dir:
 * a restore unpacks it into an empty data dir and the server starts on it as it is.
 */
export const MANIFEST = 'atrium-backup.json';
export const DATABASE_ENTRY = SQLITE_FILE;
/** File contents: immutable blobs under `files/objects/<2 hex>/<key>` (storage/local-disk-storage.ts). */
export const OBJECTS_ENTRY = 'files/objects';

export const FORMAT_VERSION = 1;

export interface Manifest {
  format: number;
  /** The database the backup came from: for `postgres` the archive holds the file contents only. */
  dialect: 'sqlite' | 'postgres';
  createdAt: string;
}

export function objectsDirOf(dataDir: string): string {
  return path.join(dataDir, ...OBJECTS_ENTRY.split('/'));
}

/** Whether an archive entry is one a backup writes; anything else is refused on restore. */
export function isBackupEntry(entryPath: string): boolean {
  const normal = entryPath.replace(/\/+$/, '');
  return normal === MANIFEST || normal === DATABASE_ENTRY || normal === 'files' || normal === OBJECTS_ENTRY
    || /^files\/objects\/[0-9a-f]{2}(\/[0-9a-f]{32})?$/.test(normal);
}
