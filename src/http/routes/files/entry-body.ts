import type { Capability } from '../../../authz/index.js';
import { isoTime } from '../../../lib/time.js';
import type { Entry } from '../../../repositories/entries.js';
import { requestPathOf, type FileActor } from '../../../files/index.js';
import { permissionLetters } from '../../../access/index.js';

/**
 * An entry as the actor's context shows it (contract 6): the path relative to the context root,
 * the display name in its first spelling, and the actor's `l r w d` letters on it.
 */
export function entryBody(actor: FileActor, entry: Entry, capabilities: Iterable<Capability>) {
  const path = requestPathOf(actor, entry.path);
  return {
    path,
    display_name: path.slice(path.lastIndexOf('/') + 1),
    type: entry.type,
    size: entry.type === 'file' ? entry.size : null,
    mtime: isoTime(entry.mtime),
    created_at: isoTime(entry.createdAt),
    permissions: permissionLetters(capabilities),
    sha256: entry.sha256,
  };
}
