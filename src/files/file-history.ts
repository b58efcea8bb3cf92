import { workspaceOfPath } from '../authz/index.js';
import type { Db } from '../db/database.js';
import { actorOf, appendEvents, appendEventsAlone, type HistoryEvent, type Recording } from '../history/index.js';
import { pathKey } from '../lib/paths.js';
import type { Entry, EntryType } from '../repositories/entries.js';
import type { FileDeps } from './file-deps.js';
import type { SessionScope } from './session-scope.js';

// The History records of file actions (docs/history.md), with Files.com's action values. Each
// record belongs to the Workspace its path lies in; a move or copy belongs to the Workspace of its
// source (the record also keeps the destination, which readers can search by). Paths are the
// qualified site paths; the display shows them as the site does, with a leading slash.

/** Who acted and through which door, for the records of a file session's actions. */
export function sessionRecording(scope: SessionScope, now: number): Recording {
  return { now, origin: scope.origin, actor: actorOf(scope) };
}

/**
 * Appends a session's file records. Call it with the change's transaction, as its last statement
 * (the chain lock it takes is then held only until the commit): the records commit with the
 * change or not at all.
 */
export async function recordFileEvents(tx: Db, scope: SessionScope, now: number, events: readonly HistoryEvent[]): Promise<void> {
  // What the actions trigger is written first, so that the records stay the last statement.
  const followUp = await scope.deps.watcher?.followUp(tx, scope.origin, events);
  await followUp?.(tx, now);
  await appendEvents(tx, sessionRecording(scope, now), events);
}

/**
 * Appends the records of a change made of nothing else (a download's read). Usually that is one
 * statement (appendEventsAlone); when an automation watches the action, the runs it triggers are
 * queued in one transaction with the records.
 */
export async function recordFileEventsAlone(deps: FileDeps, recording: Recording, events: readonly HistoryEvent[]): Promise<void> {
  const followUp = await deps.watcher?.followUp(deps.db, recording.origin, events);
  if (followUp === undefined) {
    await appendEventsAlone(deps.db, recording, events);
    return;
  }
  await deps.db.transaction().execute(async (tx) => {
    await followUp(tx, recording.now);
    await appendEvents(tx, recording, events);
  });
}

function fileEvent(action: HistoryEvent['action'], path: string, display: string, targets: Record<string, unknown>, extra: Partial<HistoryEvent> = {}): HistoryEvent {
  return { action, workspaceId: workspaceOfPath(pathKey(path)), path, display, targets, ...extra };
}

/** Folders that came into being: asked for (POST /folders), or made on the way (mkdir_parents, a move's or copy's destination). */
export function foldersCreated(paths: readonly string[]): HistoryEvent[] {
  return paths.map((path) => fileEvent('create', path, `Created folder /${path}`, { type: 'directory' }));
}

/** A file written by an upload: `create` for a new file, `update` when it replaced one's contents. */
export function fileWritten(entry: Entry, replaced: boolean): HistoryEvent {
  const size = entry.size ?? 0;
  return replaced
    ? fileEvent('update', entry.path, `Replaced the contents of /${entry.path} (${size} bytes)`, { type: 'file', size })
    : fileEvent('create', entry.path, `Uploaded /${entry.path} (${size} bytes)`, { type: 'file', size });
}

/** A file downloaded (see downloads.ts for when a download counts). */
export function fileRead(entry: Entry): HistoryEvent {
  const size = entry.size ?? 0;
  return fileEvent('read', entry.path, `Downloaded /${entry.path} (${size} bytes)`, { type: 'file', size });
}

/** A move or copy of a file or folder; `entries` counts the entries that went, the source included. */
export function entryTransferred(action: 'move' | 'copy', source: Entry, destination: string, entries: number): HistoryEvent {
  const verb = action === 'move' ? 'Moved' : 'Copied';
  const what = source.type === 'directory' ? 'folder' : 'file';
  return fileEvent(action, source.path, `${verb} ${what} /${source.path} to /${destination}`, { type: source.type, entries }, { source: source.path, destination });
}

/** A file or folder deleted: one record for a whole folder, counting the entries (itself included) and files that went. */
export function entryDeleted(entry: { path: string; type: EntryType }, deleted: { entries: number; files: number }): HistoryEvent {
  const what = entry.type === 'directory'
    ? `folder /${entry.path}${deleted.entries > 1 ? ` and ${deleted.entries - 1} entries in it` : ''}`
    : `file /${entry.path}`;
  return fileEvent('destroy', entry.path, `Deleted ${what}`, { type: entry.type, entries: deleted.entries, files: deleted.files });
}

/** A deletion put back from the trash, at `path` (its old place, or the free name beside it it took). */
export function entryRestored(path: string, trashed: { path: string; type: EntryType; entries: number }): HistoryEvent {
  const what = trashed.type === 'directory' ? 'folder' : 'file';
  const where = path === trashed.path ? '' : ` as /${path} (its place was taken)`;
  return fileEvent('create', path, `Restored ${what} /${trashed.path} from the trash${where}`, { type: trashed.type, entries: trashed.entries, restored_from_trash: true });
}

/** A deletion removed from the trash for good: by a person (DELETE /trash/<id>) or by the retention purge. */
export function trashPurged(trashed: { path: string; type: EntryType; entries: number; files: number }, byRetention: boolean): HistoryEvent {
  const what = trashed.type === 'directory' ? 'folder' : 'file';
  return fileEvent('destroy', trashed.path, `Purged ${what} /${trashed.path} from the trash${byRetention ? ' (its retention ended)' : ''}`, {
    type: trashed.type, entries: trashed.entries, files: trashed.files, purged_from_trash: true,
  });
}

/** An earlier version of a file made its content again; the content it had becomes a version. */
export function versionRestored(entry: Entry, versionId: number): HistoryEvent {
  const size = entry.size ?? 0;
  return fileEvent('update', entry.path, `Restored version ${versionId} of /${entry.path} (${size} bytes)`, { type: 'file', size, version_id: versionId });
}
