import { parentKey, workspaceOfPath, type Capability, type EntryType } from '../authz/index.js';
import { mayRecoverTrashed, PathAccess, type SitePath } from '../access/index.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { pathKey } from '../lib/paths.js';
import { findEntry, type Entry } from '../repositories/entries.js';
import { findTrashed, lockTrashed, removeTrashed, restoreTrashedSubtree, trashedItems, trashedWithin, type Trashed } from '../repositories/trash.js';
import { createMissingParents, planCreation, type CreationPlan } from './creation-plan.js';
import { discardBlobs } from './file-deps.js';
import { entryRestored, foldersCreated, recordFileEvents, trashPurged } from './file-history.js';
import { assertChangeablePath, shownPathIn, sitePathIn, type SessionScope } from './session-scope.js';
import { DAY_MS } from '../lib/time.js';

/** A deletion in the trash as a session shows it (docs/files.md#trash-and-versions). */
export interface TrashEntry {
  id: number;
  /** The path it had, as the request Workspace shows it. */
  path: string;
  name: string;
  type: EntryType;
  /** Bytes of the files it holds (a file's own size). */
  size: number;
  files: number;
  /** Entries it holds, itself included. */
  entries: number;
  deletedAt: number;
  deletedById: number | null;
  /** When the retention purge removes it, at the site's retention now. */
  expiresAt: number;
}

/** One entry of a trashed folder's tree, by its path below the folder. */
export interface TrashTreeItem {
  /** Path below the deleted root: '' for the root itself, `a/b.txt` below it. */
  path: string;
  type: EntryType;
  size: number | null;
  sha256: string | null;
  mtime: number;
}

export interface TrashPageRequest {
  /** Only deletions of this path or of what was inside it (a path in the request Workspace); the whole frame when absent. */
  within: SitePath | undefined;
  /** Go on from before this trash id (a cursor). */
  beforeId: number | undefined;
  limit: number;
}

/** Trash rows read per look while filling a page: the caller may not see all of them. */
const READ_BATCH = 200;
/** Rows checked for one page at most: a caller who sees few of many deletions gets a short page and a cursor. */
export const MAX_TRASH_CHECKED_PER_PAGE = 5000;

/**
 * The deletions the caller sees, newest first: those in the session's frame (its Workspace, or
 * a Partner user's root) that the caller could delete now where they were (access/recovery-authority.ts).
 * `next` is where the next page starts, when there may be more.
 */
export async function listTrash(scope: SessionScope, request: TrashPageRequest): Promise<{ entries: TrashEntry[]; next: number | undefined }> {
  const { db } = scope.deps;
  const withinKey = request.within?.key ?? scope.rootKey;
  // Every deletion read lies at or below `withinKey`: the caller's grants there, above and below
  // are read once, and each row is decided in memory, not by a read of its own.
  const access = await (await PathAccess.forPath(db, scope, withinKey)).throughoutSubtree(withinKey);
  const { trashRetentionDays } = await scope.deps.keeping();
  const found: TrashEntry[] = [];
  let before = request.beforeId;
  let checked = 0;
  for (;;) {
    const rows = await trashedWithin(db, { withinKey, beforeId: before, limit: READ_BATCH });
    for (const row of rows) {
      checked += 1;
      before = row.id;
      if (recoverableWith(scope, access, row)) found.push(trashEntryOf(scope, row, trashRetentionDays));
      if (found.length === request.limit) return { entries: found, next: row.id };
      if (checked >= MAX_TRASH_CHECKED_PER_PAGE) return { entries: found, next: row.id };
    }
    if (rows.length < READ_BATCH) return { entries: found, next: undefined };
  }
}

/** One deletion the caller sees, with its tree (up to `treeLimit` entries, root first). */
export async function showTrashed(scope: SessionScope, id: number, treeLimit: number): Promise<{ entry: TrashEntry; tree: TrashTreeItem[]; treeComplete: boolean }> {
  const trashed = await visibleTrashed(scope, id);
  const { trashRetentionDays } = await scope.deps.keeping();
  // One more than shown tells whether there are more.
  const items = await trashedItems(scope.deps.db, trashed.id, treeLimit + 1);
  const tree = items.slice(0, treeLimit).map((item) => ({
    path: item.pathSuffix.replace(/^\//, ''), type: item.type, size: item.size, sha256: item.sha256, mtime: item.mtime,
  }));
  return { entry: trashEntryOf(scope, trashed, trashRetentionDays), tree, treeComplete: items.length <= treeLimit };
}

/**
 * Puts a deletion back where it was, its missing parents made again. If something stands there
 * now, it lands beside it under the first free name of `name (1)`, `name (2)`, ... (before the
 * extension of a file); the answer says where. The whole tree comes back with its contents,
 * times and authors, and each file with its versions; one History record (`create`).
 */
export async function restoreTrashed(scope: SessionScope, id: number): Promise<{ entry: Entry; capabilities: Capability[]; renamed: boolean }> {
  const { db, clock } = scope.deps;
  const trashed = await visibleTrashed(scope, id);
  const now = clock.now();
  return db.transaction().execute(async (tx) => {
    // Another request restoring or purging it at the same moment: the second finds it gone.
    const locked = await lockTrashed(tx, trashed.id);
    if (locked === undefined) throw errors.trashedNotFound();
    const plan = await freePlace(tx, scope, locked);
    const parents = await createMissingParents(tx, plan, now, scope.caller.user?.id ?? null);
    await restoreTrashedSubtree(tx, locked.id, { path: plan.path, key: plan.key, parentKey: parentKey(plan.key) ?? '' }, now);
    await recordFileEvents(tx, scope, now, [...foldersCreated(parents), entryRestored(plan.path, locked)]);
    const entry = await findEntry(tx, plan.key);
    if (entry === undefined) throw new Error('a restored entry is missing');
    return { entry, capabilities: [...plan.access.capabilities(plan.key, entry.type)], renamed: plan.key !== locked.pathKey };
  });
}

/** Removes a deletion from the trash now, for good, with its files' versions; one History record (`destroy`). */
export async function purgeTrashed(scope: SessionScope, id: number): Promise<void> {
  const { db, clock } = scope.deps;
  const trashed = await visibleTrashed(scope, id);
  const now = clock.now();
  const released = await db.transaction().execute(async (tx) => {
    const locked = await lockTrashed(tx, trashed.id);
    if (locked === undefined) throw errors.trashedNotFound();
    const keys = await removeTrashed(tx, locked.id);
    await recordFileEvents(tx, scope, now, [trashPurged(locked, false)]);
    return keys;
  });
  await discardBlobs(scope.deps, released);
}

/** A trash row the caller may see, or `not-found/trashed-entry-not-found` (the same for one that never was). */
async function visibleTrashed(scope: SessionScope, id: number): Promise<Trashed> {
  const trashed = await findTrashed(scope.deps.db, id);
  if (trashed === undefined || !(await recoverable(scope, trashed))) throw errors.trashedNotFound();
  return trashed;
}

/**
 * A path the caller can name in the session's frame (a credential confined to Workspace 0 names
 * nothing under `_` there: access/request-paths.ts) and that a file operation there may change
 * (never the frame's root, such as a Partner user's root folder: assertChangeablePath), and the
 * caller could delete it where it was.
 */
async function recoverable(scope: SessionScope, trashed: Trashed): Promise<boolean> {
  return recoverableWith(scope, await PathAccess.forPath(scope.deps.db, scope, trashed.pathKey), trashed);
}

/** The same, with an access already holding the caller's grants over the deletion's path. */
function recoverableWith(scope: SessionScope, access: PathAccess, trashed: Trashed): boolean {
  const shown = shownPathIn(scope, trashed.path);
  if (shown === null || !changeableInFrame(scope, shown)) return false;
  return mayRecoverTrashed(access, trashed);
}

/** The same rules that refuse a deletion there, answered as a yes or no. */
function changeableInFrame(scope: SessionScope, shownPath: string): boolean {
  try {
    assertChangeablePath(scope, sitePathIn(scope, shownPath));
    return true;
  } catch {
    return false;
  }
}

function trashEntryOf(scope: SessionScope, trashed: Trashed, retentionDays: number): TrashEntry {
  const path = shownPathIn(scope, trashed.path) ?? '';
  return {
    id: trashed.id, path, name: path.slice(path.lastIndexOf('/') + 1), type: trashed.type, size: trashed.bytes, files: trashed.files, entries: trashed.entries,
    deletedAt: trashed.deletedAt, deletedById: trashed.deletedById, expiresAt: trashed.deletedAt + retentionDays * DAY_MS,
  };
}

/** Names tried beside a taken place before giving up: far more than anyone keeps. */
const MAX_RENAMES = 1000;

/** The creation plan of the first free place of `name`, `name (1)`, `name (2)`, ... in the deleted entry's folder. */
async function freePlace(tx: Db, scope: SessionScope, trashed: Trashed): Promise<CreationPlan> {
  const workspaceId = workspaceOfPath(trashed.pathKey);
  for (let n = 0; n <= MAX_RENAMES; n += 1) {
    const path = n === 0 ? trashed.path : numberedName(trashed.path, trashed.type, n);
    const key = pathKey(path);
    // Whatever stands there is in the way, even a file the caller could overwrite: a restore never replaces anything.
    if ((await findEntry(tx, key)) !== undefined) continue;
    return planCreation(tx, scope, { path, key, workspaceId }, { type: trashed.type, mkdirParents: true });
  }
  throw errors.destinationExists();
}

/** `a/report.txt` as `a/report (2).txt`; a folder, or a name without an extension (or only one, `.env`), gets it at the end. */
export function numberedName(path: string, type: EntryType, n: number): string {
  const slash = path.lastIndexOf('/');
  const folder = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  const dot = type === 'file' ? name.lastIndexOf('.') : -1;
  return dot > 0 ? `${folder}${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${folder}${name} (${n})`;
}

