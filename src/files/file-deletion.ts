import { errors } from '../errors/catalogue.js';
import { hasEntriesBelow } from '../repositories/entries.js';
import { moveSubtreeToTrash } from '../repositories/trash.js';
import { holdsOverSubtree, type SitePath } from '../access/index.js';
import { assertNotLocked } from './lock-enforcement.js';
import { entryDeleted, recordFileEvents } from './file-history.js';
import { visibleEntry } from './file-lookup.js';
import { assertChangeablePath, type SessionScope } from './session-scope.js';
import { deleteDavLocksAtOrBelow } from '../repositories/dav-locks.js';

/**
 * DELETE /files/<path> (contract 5.1): `delete` on the entry, and for a non-empty folder
 * `recursive=true` and `delete` on everything in it. The entries go to the trash in one
 * transaction, as one trash entry with its whole tree (docs/files.md#trash-and-versions); their
 * blobs stay, named by the trash, until it is purged. One History record for the whole deletion,
 * however many entries went, in the same transaction.
 */
export async function deletePath(scope: SessionScope, site: SitePath, recursive: boolean): Promise<void> {
  const { db } = scope.deps;
  assertChangeablePath(scope, site);
  const { entry, access } = await visibleEntry(scope, site);
  if (!access.can(entry.pathKey, entry.type, 'delete')) throw errors.fullPermissionRequired();
  if (entry.type === 'directory' && (await hasEntriesBelow(db, entry.pathKey))) {
    if (!recursive) throw errors.folderNotEmpty();
    if (!(await holdsOverSubtree(db, access, entry, 'delete'))) {
      throw errors.fullPermissionRequired('Full permission on everything inside the folder is needed to delete it.');
    }
  }
  const now = scope.deps.clock.now();
  await db.transaction().execute(async (tx) => {
    // Checked again where it counts: something may have been put in the folder meanwhile.
    if (!recursive && entry.type === 'directory' && (await hasEntriesBelow(tx, entry.pathKey))) throw errors.folderNotEmpty();
    // A lock someone else holds on it, below it or on its folder stops the deletion (lock-enforcement.ts).
    await assertNotLocked(tx, scope, { keys: [entry.pathKey], recursive: entry.type === 'directory', parentsOf: [entry.pathKey] });
    const deleted = await moveSubtreeToTrash(tx, entry, now, scope.caller.user?.id ?? null);
    // Another request deleted it meanwhile: that one's change and record, and this one is
    // answered as if it had come after it.
    if (deleted === undefined) throw errors.fileNotFound();
    // A lock goes with its resource, whichever door deleted it, in the same transaction.
    await deleteDavLocksAtOrBelow(tx, entry.pathKey);
    await recordFileEvents(tx, scope, now, [entryDeleted(entry, { entries: deleted.entries, files: deleted.files })]);
  });
}
