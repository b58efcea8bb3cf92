import type { Db } from '../db/database.js';
import type { DavLock } from '../repositories/dav-locks.js';
import { isAdministratorOf } from './authority.js';
import type { Caller } from './caller.js';

// Who a WebDAV lock belongs to, and who may remove it. A lock is advice between WebDAV clients, not
// a permission (docs/webdav.md, Locks); these rules say whose advice it is.

/**
 * Whether the caller is the one who took the lock: the same user, or, for a lock taken with a
 * site-wide key, any site-wide key. Only its holder may write with its token or refresh it;
 * administrators included, who remove it first (mayRemoveLock).
 */
export function holdsLock(caller: Caller, lock: DavLock): boolean {
  return lock.userId === (caller.user?.id ?? null);
}

/**
 * Whether the caller may remove a lock (UNLOCK): its holder, or an administrator of the Workspace
 * it lies in (a Site Administrator anywhere), so that a lock left by someone's crashed client can
 * be cleared before it times out.
 */
export async function mayRemoveLock(db: Db, caller: Caller, lock: DavLock, workspaceId: number): Promise<boolean> {
  return holdsLock(caller, lock) || (await isAdministratorOf(db, caller, workspaceId));
}
