import type { EntryType } from '../authz/index.js';
import type { PathAccess } from './path-access.js';
import { inheritedBelow } from './subtree-access.js';

/**
 * Who may undo a deletion or an overwrite (docs/files.md#trash-and-versions), decided by the
 * engine on current grants, never on who did it:
 *
 * - a deletion in the trash is seen, restored and purged by whoever could delete it now, at the
 *   path it had: `delete` there and, for a folder, on all it held, as deleting it took
 *   (subtree-access.ts). A folder went whole and comes back whole, so its contents are not decided
 *   one by one but by what the grants on the folder and above give every entry below it: to its
 *   files alone when it held no folder, to any depth when it did. (So a non-recursive grant on the
 *   folder, which covers only its own files, does not let its holder see the names below its
 *   subfolders, nor purge them; one whose subfolders only grants below them cover asks an
 *   administrator.) Restoring also creates it, which the creation plan decides as for any new
 *   entry (`write` where it lands);
 * - a file's earlier versions are listed by whoever may read the file now, and one is made its
 *   content again by whoever may overwrite it: restoring is an overwrite, which takes `delete` on
 *   the file (docs/permissions.md; files/creation-plan.ts asks the same of a PUT). `write` alone
 *   would let a writer who may only add files replace one, naming the version by its id.
 */
export function mayRecoverTrashed(access: PathAccess, trashed: { pathKey: string; type: EntryType; entries: number; files: number }): boolean {
  if (!access.can(trashed.pathKey, trashed.type, 'delete')) return false;
  if (trashed.type === 'file' || trashed.entries === 1) return true;
  const onlyFiles = trashed.entries === trashed.files + 1;
  return inheritedBelow(access, trashed.pathKey, 'delete', onlyFiles ? 'files' : 'any depth');
}

export function mayListVersions(access: PathAccess, file: { pathKey: string }): boolean {
  return access.can(file.pathKey, 'file', 'read');
}

export function mayRestoreVersion(access: PathAccess, file: { pathKey: string }): boolean {
  return access.can(file.pathKey, 'file', 'delete');
}
