import { decide, type Capability } from '../authz/index.js';
import type { Db } from '../db/database.js';
import type { Entry } from '../repositories/entries.js';
import { subtreeOf } from '../repositories/entry-subtrees.js';
import type { PathAccess } from './path-access.js';

/**
 * Whether the viewer holds `capability` on an entry and on everything below it: deleting or moving
 * a folder acts on all of it, and copying one reads all of it, so a non-recursive grant on the
 * folder (which covers only its direct files) must not stand in for its subfolders.
 *
 * Grants only add, so first the cheap answer: what a descendant at any depth receives from grants
 * on the folder and above it. When that falls short, each entry is decided on its own, with the
 * viewer's grants below the folder as well.
 */
export async function holdsOverSubtree(db: Db, access: PathAccess, entry: Entry, capability: Capability): Promise<boolean> {
  if (!access.can(entry.pathKey, entry.type, capability)) return false;
  if (entry.type === 'file') return true;
  if (inheritedBelow(access, entry.pathKey, capability, 'any depth')) return true;

  const grants = [...access.ancestorGrants, ...(await access.grantsBelow(entry.pathKey))];
  const subject = access.viewer.subject;
  for (const below of await subtreeOf(db, entry.pathKey)) {
    if (!decide(subject, { pathKey: below.pathKey, type: below.type }, grants).capabilities.includes(capability)) return false;
  }
  return true;
}

/**
 * Whether every entry below a folder receives `capability` from the grants on the folder and
 * above it alone: its direct files (`'files'`), or everything at any depth. Asked of a made-up
 * path below the folder, on which no grant lies, so only inherited coverage counts.
 */
export function inheritedBelow(access: PathAccess, folderKey: string, capability: Capability, reach: 'files' | 'any depth'): boolean {
  return reach === 'files' ? access.can(`${folderKey}/\u0001`, 'file', capability) : access.can(`${folderKey}/\u0001/\u0001`, 'directory', capability);
}
