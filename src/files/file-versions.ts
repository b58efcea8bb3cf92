import { mayListVersions, mayRestoreVersion, type SitePath } from '../access/index.js';
import type { Capability } from '../authz/index.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { findEntry, findEntryById, lockEntryAt, replaceFileContent, type Entry } from '../repositories/entries.js';
import { findVersion, handOverVersions, keepVersion, takeVersion, trimVersions, versionsOf, type FileVersion } from '../repositories/file-versions.js';
import { discardBlobs } from './file-deps.js';
import { recordFileEvents, versionRestored } from './file-history.js';
import { visibleEntry } from './file-lookup.js';
import { assertNotLocked } from './lock-enforcement.js';
import { assertChangeablePath, shownPathIn, sitePathIn, type SessionScope } from './session-scope.js';

/**
 * Keeps a file's content, about to be replaced, as a version of entry `entryId` (the same file,
 * or the one that takes its place by a move or copy over it, which then also takes its earlier
 * versions), and trims that file's versions to the site's count; in the replacing transaction.
 * With a count of 0 nothing is kept. Answers the blobs no longer referred to, for the caller to
 * delete after the commit.
 */
export async function keepReplacedContent(tx: Db, replaced: Entry, entryId: number, by: { at: number; byId: number | null }, versionsKept: number): Promise<string[]> {
  if (replaced.id !== entryId) await handOverVersions(tx, replaced.id, entryId);
  if (versionsKept === 0) return [...(replaced.storageKey === null ? [] : [replaced.storageKey]), ...(await trimVersions(tx, entryId, 0))];
  await keepVersion(tx, entryId, replaced, by);
  return trimVersions(tx, entryId, versionsKept);
}

/**
 * An earlier content of a file as the API shows it: the kept row without where its bytes are
 * stored (an internal key) or the file it belongs to (the listing names it).
 */
export type VersionEntry = Omit<FileVersion, 'entryId' | 'storageKey'>;

function versionEntryOf(version: FileVersion): VersionEntry {
  const { entryId: _file, storageKey: _stored, ...shown } = version;
  return shown;
}

/** A file's versions, newest first, for a caller who may read it (access/recovery-authority.ts). */
export async function listVersions(scope: SessionScope, site: SitePath): Promise<{ file: Entry; capabilities: Capability[]; versions: VersionEntry[] }> {
  const { entry, access } = await visibleEntry(scope, site);
  if (entry.type !== 'file') throw errors.fileNotFound();
  if (!mayListVersions(access, entry)) throw errors.readPermissionRequired();
  return { file: entry, capabilities: [...access.capabilities(entry.pathKey, 'file')], versions: (await versionsOf(scope.deps.db, entry.id)).map(versionEntryOf) };
}

/**
 * The file a version belongs to, as a site path, when it lies in the session's frame: a version
 * is named by its id alone (POST /file_versions/<id>/restore). A version of a file in the trash,
 * or outside the frame, is not found.
 */
export async function fileOfVersion(scope: SessionScope, versionId: number): Promise<SitePath> {
  const version = await findVersion(scope.deps.db, versionId);
  const file = version === undefined ? undefined : await findEntryById(scope.deps.db, version.entryId);
  const shown = file === undefined ? null : shownPathIn(scope, file.path);
  if (shown === null) throw errors.fileVersionNotFound();
  // Named as the caller would name it: a credential that may not name it is answered as for any path it may not name.
  return sitePathIn(scope, shown);
}

/**
 * Makes version `versionId` the file's content again, as an overwrite would (its content, digests
 * and times); the content it had becomes its newest version, so a restore can itself be undone.
 * Needs `write` on the file and no lock of another's on it. One History record (`update`).
 */
export async function restoreVersion(scope: SessionScope, site: SitePath, versionId: number): Promise<{ entry: Entry; capabilities: Capability[] }> {
  const { db, clock } = scope.deps;
  assertChangeablePath(scope, site);
  const { entry, access } = await visibleEntry(scope, site);
  if (entry.type !== 'file') throw errors.fileNotFound();
  if (!mayRestoreVersion(access, entry)) throw errors.fullPermissionRequired('Full permission on the file is needed to restore one of its versions: a restore overwrites it.');
  const { versionsKept } = await scope.deps.keeping();
  const now = clock.now();
  const userId = scope.caller.user?.id ?? null;
  const { restored, released } = await db.transaction().execute(async (tx) => {
    await lockEntryAt(tx, entry.pathKey);
    const current = await findEntry(tx, entry.pathKey);
    if (current?.id !== entry.id || current.storageKey === null) throw errors.fileNotFound();
    await assertNotLocked(tx, scope, { keys: [current.pathKey], recursive: false });
    const version = await takeVersion(tx, current.id, versionId);
    if (version === undefined) throw errors.fileVersionNotFound();
    const content = { storageKey: version.storageKey, size: version.size, sha256: version.sha256 ?? '', md5: version.md5, sha1: version.sha1, crc32: version.crc32 };
    const replaced = await replaceFileContent(tx, current.id, current.storageKey, content, now, { userId, providedMtime: version.providedMtime });
    if (replaced === undefined) throw errors.fileNotFound();
    const released = await keepReplacedContent(tx, current, current.id, { at: now, byId: userId }, versionsKept);
    await recordFileEvents(tx, scope, now, [versionRestored(replaced, versionId)]);
    return { restored: replaced, released };
  });
  await discardBlobs(scope.deps, released);
  return { entry: restored, capabilities: [...access.capabilities(restored.pathKey, 'file')] };
}
