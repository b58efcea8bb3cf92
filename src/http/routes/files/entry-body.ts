import type { FileEntry } from '../../../files/index.js';
import { isoTime } from '../../../lib/time.js';
import { permissionLetters } from '../../../access/index.js';

/**
 * An entry as contract 6 shows it: the path as the request's Workspace sees it, the display name
 * in its first spelling, and the caller's `l r w d` letters on it.
 */
export function entryBody(entry: FileEntry) {
  return {
    path: entry.path,
    display_name: entry.name,
    type: entry.type,
    size: entry.size,
    mtime: isoTime(entry.mtime),
    provided_mtime: isoTime(entry.providedMtime),
    created_at: isoTime(entry.createdAt),
    permissions: permissionLetters(entry.capabilities),
    crc32: entry.crc32,
    md5: entry.md5,
    sha1: entry.sha1,
    sha256: entry.sha256,
    mime_type: entry.mimeType,
    created_by_id: entry.createdById,
    last_modified_by_id: entry.lastModifiedById,
    is_locked: entry.isLocked,
  };
}
