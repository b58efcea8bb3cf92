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
    created_at: isoTime(entry.createdAt),
    permissions: permissionLetters(entry.capabilities),
    sha256: entry.sha256,
  };
}
