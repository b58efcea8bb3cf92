import type { FileEntry } from '../../files/index.js';

/**
 * The one entity tag of an entry, for GET's ETag, PROPFIND's getetag and the If header: a file's
 * SHA-256 (as the REST API's ETag), a folder's modification time.
 */
export function entityTagOf(entry: FileEntry): string {
  return entry.sha256 !== null ? `"${entry.sha256}"` : `"${entry.mtime.toString(16)}"`;
}
