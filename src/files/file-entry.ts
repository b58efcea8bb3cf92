import type { Capability, EntryType } from '../authz/index.js';
import type { Entry } from '../repositories/entries.js';
import { contentTypeOf } from '../lib/media-types.js';
import { requestPathIn, type SessionScope } from './session-scope.js';

/**
 * A folder or file as a session answers it, the same for every front door: where the request
 * Workspace shows it, what it is, and what the caller may do with it.
 */
export interface FileEntry {
  /** The path as the request Workspace shows it: relative to its root in a Custom Workspace, '' for the root. */
  readonly path: string;
  /** The last segment of the path, in its first spelling. */
  readonly name: string;
  readonly type: EntryType;
  /** Bytes of a file; null for a folder. */
  readonly size: number | null;
  readonly mtime: number;
  readonly createdAt: number;
  /** Hex SHA-256 of a file's bytes; null for a folder. */
  readonly sha256: string | null;
  /** Hex MD5 and SHA-1, CRC-32 as eight hex digits: null for a folder and for a file stored before they were kept. */
  readonly md5: string | null;
  readonly sha1: string | null;
  readonly crc32: string | null;
  /** A file's media type by its name's extension (lib/media-types.ts); null for a folder. */
  readonly mimeType: string | null;
  /** The modification time the client gave, if it gave one. */
  readonly providedMtime: number | null;
  /**
   * The one modification time the file protocols show (WebDAV's getlastmodified and
   * Last-Modified, SFTP's mtime): the client's own when one was given (`providedMtime`), else
   * `mtime`. Sync tools compare it with their copy's time, so it must be the time they gave,
   * whichever door gave it (REST's PATCH included).
   */
  readonly modifiedAt: number;
  /** The user who created the entry, and who last replaced a file's contents; null when unknown or not a user. */
  readonly createdById: number | null;
  readonly lastModifiedById: number | null;
  /** The caller's capabilities on the entry. */
  readonly capabilities: readonly Capability[];
  /** An unexpired lock covers it (taken through the REST API or WebDAV): writes by others than its holder are refused. */
  readonly isLocked: boolean;
}

/** FileEntry.modifiedAt of an entry: the client's own time when it gave one, else the server's. */
export function modifiedTimeShown(entry: Pick<Entry, 'mtime' | 'providedMtime'>): number {
  return entry.providedMtime ?? entry.mtime;
}

export function fileEntryOf(scope: SessionScope, entry: Entry, capabilities: Iterable<Capability>, isLocked: boolean): FileEntry {
  const path = requestPathIn(scope, entry.path);
  return {
    path,
    name: path.slice(path.lastIndexOf('/') + 1),
    type: entry.type,
    size: entry.type === 'file' ? entry.size : null,
    mtime: entry.mtime,
    createdAt: entry.createdAt,
    sha256: entry.sha256,
    md5: entry.md5,
    sha1: entry.sha1,
    crc32: entry.crc32,
    mimeType: entry.type === 'file' ? contentTypeOf(entry.path) : null,
    providedMtime: entry.providedMtime,
    modifiedAt: modifiedTimeShown(entry),
    createdById: entry.createdById,
    lastModifiedById: entry.lastModifiedById,
    capabilities: [...capabilities],
    isLocked,
  };
}
