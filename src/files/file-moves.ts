import { isStrictAncestor, parentKey } from '../authz/index.js';
import { errors } from '../errors/catalogue.js';
import { joinPath, parentPath } from '../lib/paths.js';
import { refusingDuplicates } from '../repositories/constraint-errors.js';
import { copyDeadProperties, hasDeadPropertiesBeyond } from '../repositories/dav-properties.js';
import { deleteEntry, findEntry, lockEntryAt, type Entry } from '../repositories/entries.js';
import { moveSubtreeToTrash } from '../repositories/trash.js';
import { keepReplacedContent } from './file-versions.js';
import { insertEntries, moveSubtree, subtreeOf } from '../repositories/entry-subtrees.js';
import { newStorageKey } from '../storage/storage-keys.js';
import { holdsOverSubtree, PathAccess, type SitePath } from '../access/index.js';
import type { Db } from '../db/database.js';
import { createMissingParents, planCreation, type CreationPlan } from './creation-plan.js';
import { MAX_DEAD_PROPERTIES, MAX_DEAD_PROPERTY_BYTES } from './dead-property-limits.js';
import { discardBlobs } from './file-deps.js';
import { queueFileDigests } from './file-digests.js';
import { entryDeleted, entryTransferred, foldersCreated, recordFileEvents } from './file-history.js';
import type { HistoryEvent } from '../history/index.js';
import { visibleEntry } from './file-lookup.js';
import { assertNotLocked, type LockedWrite } from './lock-enforcement.js';
import { assertChangeablePath, type SessionScope } from './session-scope.js';
import { deleteDavLocksAtOrBelow, deleteDavLocksBelow } from '../repositories/dav-locks.js';

/**
 * POST /file_actions/move/<path> (contract 5.1): `delete` on the source and everything in it,
 * `write` at the destination, whose missing parents are created. An existing destination is
 * `destination-exists` (a move never overwrites). Contents stay in place: only paths change.
 * Grants stay on their paths; they do not travel with a moved folder (docs/files.md). The History
 * record (and those of folders made for the destination) is written in the move's transaction.
 * With `overwrite` (WebDAV's `Overwrite: T`), what stands at the destination is taken away first, in
 * the same transaction (see clearDestination: a file's content becomes a version, anything else goes
 * to the trash); the REST API never asks for it.
 */
export async function moveEntry(scope: SessionScope, source: SitePath, destination: SitePath, options: TransferOptions = {}): Promise<void> {
  const { db, clock } = scope.deps;
  assertChangeablePath(scope, source);
  assertChangeablePath(scope, destination);
  const { entry, access } = await visibleEntry(scope, source);
  if (!(await holdsOverSubtree(db, access, entry, 'delete'))) {
    throw errors.fullPermissionRequired('Full permission on this (and everything inside it) is needed to move it.');
  }
  const now = clock.now();
  if (destination.key === entry.pathKey) {
    // Paths compare case-insensitively, so this is the same entry: only its spelling changes.
    const respelled = joinPath(parentPath(entry.path), lastSegment(destination.path));
    if (respelled === entry.path) throw errors.destinationSame();
    await db.transaction().execute(async (tx) => {
      await assertNotLocked(tx, scope, sourceWrite(entry));
      const moved = await moveSubtree(tx, { from: { path: entry.path, key: entry.pathKey }, to: { path: respelled, key: entry.pathKey, parentKey: entry.parentKey } }, now);
      // A lock stays with the address it was taken on: a move, even to another spelling, leaves it behind.
      await deleteDavLocksAtOrBelow(tx, entry.pathKey);
      if (moved > 0) await recordFileEvents(tx, scope, now, [entryTransferred('move', entry, respelled, moved)]);
    });
    return;
  }
  if (isStrictAncestor(entry.pathKey, destination.key)) throw errors.destinationInsideSource();
  // Read before the transaction: on SQLite a read outside it would wait for it to end.
  const { versionsKept } = await scope.deps.keeping();
  const replacedBlobs = await refusingDuplicates(() =>
    db.transaction().execute(async (tx) => {
      // The source first, locked: a move that another request is making waits for it, and is then
      // answered as a move coming after it would be, the source gone, whatever now stands at the
      // destination.
      await lockEntryAt(tx, entry.pathKey);
      if ((await findEntry(tx, entry.pathKey))?.id !== entry.id) throw errors.fileNotFound();
      await assertNotLocked(tx, scope, sourceWrite(entry));
      const cleared = options.overwrite === true ? await clearDestination(tx, scope, destination, entry, now) : undefined;
      const plan = await freeDestination(tx, scope, destination, entry);
      const parents = await createMissingParents(tx, plan, now);
      const moved = await moveSubtree(tx, { from: { path: entry.path, key: entry.pathKey }, to: { path: plan.path, key: plan.key, parentKey: parentKey(plan.key) ?? '' } }, now);
      // The source's locks do not travel with it (RFC 4918 7.7): they go, whichever door moved it.
      await deleteDavLocksAtOrBelow(tx, entry.pathKey);
      const released = await keepClearedFile(tx, scope, cleared, entry.id, now, versionsKept);
      await recordFileEvents(tx, scope, now, [...(cleared?.events ?? []), ...foldersCreated(parents), entryTransferred('move', entry, plan.path, moved)]);
      return released;
    }),
    // Another request taking the destination between the plan and the write: still `destination-exists`.
    errors.destinationExists,
  );
  await discardBlobs(scope.deps, replacedBlobs);
}

export interface TransferOptions {
  /** Replace what stands at the destination (deleted in the same transaction) instead of refusing. */
  overwrite?: boolean;
  /** A copy of a folder alone, without its contents (WebDAV's COPY Depth 0): its name and dead properties. */
  withoutMembers?: boolean;
}

/**
 * POST /file_actions/copy/<path> (contract 5.1): `read` on the source and everything in it,
 * `write` at the destination. Blobs are copied first (outside any transaction, since that takes
 * time), then every entry is inserted in one transaction, with the History records; on failure
 * the copies are deleted. WebDAV dead properties are copied with the entries, so a source holding
 * more of them than the caps allow (kept from before the caps) is not copied
 * (`storage-limit-reached`); `overwrite` as for moveEntry. A folder copied `withoutMembers` needs
 * only to be visible, as reading its dead properties does: nothing of its contents is copied.
 */
export async function copyEntry(scope: SessionScope, source: SitePath, destination: SitePath, options: TransferOptions = {}): Promise<void> {
  const { db, clock, storage } = scope.deps;
  assertChangeablePath(scope, destination);
  const { entry, access } = await visibleEntry(scope, source);
  const folderAlone = entry.type === 'directory' && options.withoutMembers === true;
  if (!folderAlone && !(await holdsOverSubtree(db, access, entry, 'read'))) throw errors.readPermissionRequired();
  if (destination.key === entry.pathKey) throw errors.destinationSame();
  if (entry.pathKey === '' || isStrictAncestor(entry.pathKey, destination.key)) throw errors.destinationInsideSource();
  if (options.overwrite !== true) await freeDestination(db, scope, destination, entry);
  if (await hasDeadPropertiesBeyond(db, entry.pathKey, { members: entry.type === 'directory' && !folderAlone, count: MAX_DEAD_PROPERTIES, bytes: MAX_DEAD_PROPERTY_BYTES })) {
    throw errors.storageLimitReached('The source keeps more WebDAV dead properties than a resource may; remove some before copying it.');
  }

  const tree = entry.type === 'file' || folderAlone ? [entry] : await subtreeOf(db, entry.pathKey);
  const copies = new Map<string, string>();
  try {
    for (const item of tree) {
      if (item.storageKey === null) continue;
      const key = newStorageKey();
      copies.set(item.storageKey, key);
      await storage.copy(item.storageKey, key);
    }
    const now = clock.now();
    const { versionsKept } = await scope.deps.keeping();
    const replacedBlobs = await refusingDuplicates(() =>
      db.transaction().execute(async (tx) => {
        const cleared = options.overwrite === true ? await clearDestination(tx, scope, destination, entry, now) : undefined;
        const plan = await freeDestination(tx, scope, destination, entry);
        const parents = await createMissingParents(tx, plan, now);
        await insertEntries(tx, tree.map((item) => ({
          path: plan.path + item.path.slice(entry.path.length),
          pathKey: plan.key + item.pathKey.slice(entry.pathKey.length),
          parentKey: item.id === entry.id ? parentKey(plan.key) ?? '' : plan.key + item.parentKey.slice(entry.pathKey.length),
          type: item.type,
          size: item.size,
          storageKey: item.storageKey === null ? null : (copies.get(item.storageKey) as string),
          // A copy has the same bytes, so the same digests, and keeps the time its client gave.
          sha256: item.sha256,
          md5: item.md5,
          sha1: item.sha1,
          crc32: item.crc32,
          createdAt: now,
          mtime: now,
          providedMtime: item.providedMtime,
          createdById: scope.caller.user?.id ?? null,
          lastModifiedById: scope.caller.user?.id ?? null,
        })));
        // A copy of a file still waiting for its MD5, SHA-1 and CRC-32 waits for them on its own blob.
        for (const item of tree) if (item.storageKey !== null && item.md5 === null) await queueFileDigests(tx, copies.get(item.storageKey) as string, now);
        await copyDeadProperties(tx, entry.pathKey, plan.key);
        const released = await keepClearedFile(tx, scope, cleared, cleared?.replacedFile === undefined ? undefined : (await findEntry(tx, plan.key))?.id, now, versionsKept);
        await recordFileEvents(tx, scope, now, [...(cleared?.events ?? []), ...foldersCreated(parents), entryTransferred('copy', entry, plan.path, tree.length)]);
        return released;
      }),
      errors.destinationExists,
    );
    await discardBlobs(scope.deps, replacedBlobs);
  } catch (error) {
    await discardBlobs(scope.deps, copies.values());
    throw error;
  }
}

/**
 * Takes away what stands at a move's or copy's destination so that it can be replaced, inside the
 * transfer's transaction: the caller needs `delete` on it and everything in it, as a DELETE would.
 * Something there the caller cannot see is not touched (`destination-exists`), nor is a folder
 * that holds the source. A file replaced by a file is kept as that file's newest version (the
 * caller hands it to keepReplacedContent once the new entry stands there); anything else goes to
 * the trash, as a deletion would (docs/files.md#trash-and-versions). Answers the History records.
 */
async function clearDestination(tx: Db, scope: SessionScope, destination: SitePath, source: Entry, now: number): Promise<ClearedDestination | undefined> {
  assertChangeablePath(scope, destination);
  const existing = await findEntry(tx, destination.key);
  if (existing === undefined) return undefined;
  if (isStrictAncestor(existing.pathKey, source.pathKey)) throw errors.destinationExists();
  const access = await PathAccess.forPath(tx, scope, existing.pathKey);
  if (!(await access.visible(existing.pathKey, existing.type))) throw errors.destinationExists();
  if (!access.can(existing.pathKey, existing.type, 'delete') || !(await holdsOverSubtree(tx, access, existing, 'delete'))) {
    throw errors.fullPermissionRequired('Full permission on the destination (and everything inside it) is needed to replace it.');
  }
  await assertNotLocked(tx, scope, { keys: [existing.pathKey], recursive: true });
  // What was below the replaced destination is gone, and its locks with it; a lock on the
  // destination itself stays and covers what replaces it (RFC 4918 7.7).
  await deleteDavLocksBelow(tx, existing.pathKey);
  if (existing.type === 'file' && source.type === 'file') {
    await deleteEntry(tx, existing.path);
    return { events: [entryDeleted(existing, { entries: 1, files: 1 })], replacedFile: existing };
  }
  const trashed = await moveSubtreeToTrash(tx, existing, now, scope.caller.user?.id ?? null);
  if (trashed === undefined) throw errors.fileNotFound();
  return { events: [entryDeleted(existing, { entries: trashed.entries, files: trashed.files })], replacedFile: undefined };
}

interface ClearedDestination {
  events: HistoryEvent[];
  /** The file that stood there, its content to be kept as a version of what replaces it. */
  replacedFile: Entry | undefined;
}

/**
 * Keeps the content of a file a transfer replaced as a version of the entry now at its path
 * (file-versions.ts), in the transfer's transaction; the blobs released by that, for after the commit.
 */
async function keepClearedFile(tx: Db, scope: SessionScope, cleared: ClearedDestination | undefined, newEntryId: number | undefined, now: number, versionsKept: number): Promise<string[]> {
  if (cleared?.replacedFile === undefined) return [];
  const replaced = cleared.replacedFile;
  // The path holds no file after all (cannot happen: a file was just moved or copied there): its content is let go.
  if (newEntryId === undefined) return replaced.storageKey === null ? [] : [replaced.storageKey];
  return keepReplacedContent(tx, replaced, newEntryId, { at: now, byId: scope.caller.user?.id ?? null }, versionsKept);
}

/** The destination's creation plan, refusing any existing entry there (no overwrite). */
async function freeDestination(db: Db, scope: SessionScope, destination: SitePath, source: Entry): Promise<CreationPlan> {
  const plan = await planCreation(db, scope, destination, { type: source.type, mkdirParents: true });
  if (plan.existing !== undefined) throw errors.destinationExists();
  return plan;
}

/** What moving an entry away changes, as locks see it: the entry, all below it, and its folder's membership. */
function sourceWrite(entry: Entry): LockedWrite {
  return { keys: [entry.pathKey], recursive: true, parentsOf: [entry.pathKey] };
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
