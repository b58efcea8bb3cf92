import type { SitePath } from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import { setEntryMtime } from '../repositories/entry-times.js';
import { visibleEntry } from './file-lookup.js';
import type { SessionScope } from './session-scope.js';

/** Times a client may set: 1970 to 9999, whole milliseconds. */
const LATEST = Date.UTC(9999, 11, 31);

/**
 * Keeps the modification time a client gives a file or folder (SFTP's SETSTAT, as `sftp put -p`
 * and rclone send after an upload), so that sync tools see the time of their own copy. It needs
 * `write` on the entry; a time changes no content and is not recorded in History. The Workspace
 * root has no time of its own to change.
 */
export async function setModifiedTime(scope: SessionScope, site: SitePath, mtime: number): Promise<void> {
  const { entry, access } = await visibleEntry(scope, site);
  if (!access.capabilities(entry.pathKey, entry.type).has('write')) throw errors.writePermissionRequired();
  if (!Number.isSafeInteger(mtime) || mtime < 0 || mtime > LATEST) throw errors.paramsInvalid({ mtime: ['is out of range'] });
  if (entry.id === 0) return;
  await setEntryMtime(scope.deps.db, entry.id, mtime);
}
