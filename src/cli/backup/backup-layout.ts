import path from 'node:path';
import { SECRET_KEY_FILE, SFTP_HOST_KEY_DIR, SQLITE_FILE } from '../../db/data-dir.js';

/**
 * What a backup archive holds, as paths inside it, which are the same paths as in a data dir:
 * a restore unpacks it into an empty data dir and the server starts on it as it is.
 */
export const MANIFEST = 'atrium-backup.json';
export const DATABASE_ENTRY = SQLITE_FILE;
/** File contents: immutable blobs under `files/objects/<2 hex>/<key>` (storage/local-disk-storage.ts). */
export const OBJECTS_ENTRY = 'files/objects';
/** The SFTP host keys generated into the data dir: without them every client would see a new host key after a restore. */
export const HOST_KEYS_ENTRY = SFTP_HOST_KEY_DIR;

/**
 * The key that seals the secrets Atrium reads back (identity/secret-box.ts): without it a restored
 * site could open no authenticator app's secret, and every such user would need a reset.
 */
export const SECRET_KEY_ENTRY = SECRET_KEY_FILE;

/**
 * Format 2 added the SFTP host keys and the names of those kept outside the data dir; format 3 the
 * secret key. A restore reads 1, 2 and 3.
 */
export const FORMAT_VERSION = 3;
export const READABLE_FORMATS: readonly number[] = [1, 2, FORMAT_VERSION];

export interface Manifest {
  format: number;
  /** The database the backup came from: for `postgres` the archive holds the file contents only. */
  dialect: 'sqlite' | 'postgres';
  createdAt: string;
  /**
   * The host key files ATRIUM_SFTP_HOST_KEY_FILES named when the backup was made. They live
   * outside the data dir and are not in the archive (a backup never copies the operator's own
   * secrets from elsewhere); named so that whoever restores knows to keep them. Absent when unset.
   */
  sftpHostKeyFiles?: string[];
}

export function objectsDirOf(dataDir: string): string {
  return path.join(dataDir, ...OBJECTS_ENTRY.split('/'));
}

/** A generated host key's file (sftp/host-keys.ts): private, or its `.pub`. */
const HOST_KEY_FILE = /^ssh_host_[a-z0-9]+_key(\.pub)?$/;

/** The files of the host key folder a backup takes; anything else an operator left there stays out. */
export function isHostKeyFile(name: string): boolean {
  return HOST_KEY_FILE.test(name);
}

/** Whether an archive entry is one a backup writes; anything else is refused on restore. */
export function isBackupEntry(entryPath: string): boolean {
  const normal = entryPath.replace(/\/+$/, '');
  if (normal.startsWith(`${HOST_KEYS_ENTRY}/`)) return isHostKeyFile(normal.slice(HOST_KEYS_ENTRY.length + 1));
  return normal === MANIFEST || normal === DATABASE_ENTRY || normal === SECRET_KEY_ENTRY || normal === 'files' || normal === OBJECTS_ENTRY || normal === HOST_KEYS_ENTRY
    || /^files\/objects\/[0-9a-f]{2}(\/[0-9a-f]{32})?$/.test(normal);
}
