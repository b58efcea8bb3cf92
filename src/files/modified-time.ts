import type { SitePath } from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import { setEntryMtime, setEntryProvidedMtime } from '../repositories/entry-times.js';
import { visibleEntry } from './file-lookup.js';
import { assertNotLocked } from './lock-enforcement.js';
import { assertChangeablePath, type SessionScope } from './session-scope.js';

/** Times a client may set: 1970 to 9999, whole milliseconds. */
const LATEST = Date.UTC(9999, 11, 31);

/** Refuses a client's time outside what is kept (`parameter` names it in the answer). */
export function assertClientTime(time: number, parameter: string): void {
  if (!Number.isSafeInteger(time) || time < 0 || time > LATEST) throw errors.paramsInvalid({ [parameter]: ['is out of range: a time from 1970 to 9999 is kept'] });
}

/**
 * Keeps the modification time a client gives a file or folder (SFTP's SETSTAT, as `sftp put -p`
 * and rclone send after an upload), so that sync tools see the time of their own copy: it
 * becomes the entry's `mtime`, as SFTP and WebDAV show it, and its `provided_mtime`, as the REST
 * API shows a client's time. It needs `write` on the entry; a time changes no content and is not
 * recorded in History. The Workspace root has no time of its own to change.
 */
export async function setModifiedTime(scope: SessionScope, site: SitePath, mtime: number): Promise<void> {
  const id = await changeableEntryId(scope, site, mtime, 'mtime');
  if (id !== undefined) await setEntryMtime(scope.deps.db, id, mtime);
}

/**
 * Keeps the modification time a client gives through the REST API (PATCH /files/<path>
 * `provided_mtime`) as the entry's `provided_mtime` only: `mtime` stays the time of the server's
 * last change to it, as Files.com clients expect. The same rights as setModifiedTime; the root
 * and the folders that come and go with Workspaces are refused (`invalid-path`), not ignored.
 */
export async function setProvidedModifiedTime(scope: SessionScope, site: SitePath, time: number): Promise<void> {
  assertChangeablePath(scope, site);
  const id = await changeableEntryId(scope, site, time, 'provided_mtime');
  if (id !== undefined) await setEntryProvidedMtime(scope.deps.db, id, time);
}

/** The entry's id, once the caller may write it and the time is one kept; undefined for the Workspace root. */
async function changeableEntryId(scope: SessionScope, site: SitePath, time: number, parameter: string): Promise<number | undefined> {
  const { entry, access } = await visibleEntry(scope, site);
  if (!access.capabilities(entry.pathKey, entry.type).has('write')) throw errors.writePermissionRequired();
  assertClientTime(time, parameter);
  await assertNotLocked(scope.deps.db, scope, { keys: [entry.pathKey], recursive: false });
  return entry.id === 0 ? undefined : entry.id;
}
