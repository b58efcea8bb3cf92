import { workspaceOfPath } from '../authz/index.js';
import type { Db } from '../db/database.js';
import type { DavLock } from '../repositories/dav-locks.js';
import { isAdministratorOf } from './authority.js';
import type { Caller } from './caller.js';
import { reachesWorkspace } from './site-level.js';

// Who a lock belongs to, and who may remove it, whichever door took it (WebDAV's LOCK or the REST
// API's POST /locks). A lock stops the writes of everyone but its holder (files/lock-enforcement.ts).

/**
 * Whether the caller is the one who took the lock: the same user, or, for a lock taken with a
 * site-wide key, any site-wide key that reaches the Workspace the lock lies in (one confined to a
 * Custom Workspace holds none of the site's others). A lock taken with `allow_access_by_any_user`
 * is everyone's who reaches its Workspace, as if each had taken it. Only its holder may write
 * under it or refresh it; administrators included, who remove it first (mayRemoveLock).
 */
export function holdsLock(caller: Caller, lock: DavLock): boolean {
  const taker = lock.allowAccessByAnyUser || lock.userId === (caller.user?.id ?? null);
  return taker && reachesWorkspace(caller, workspaceOfPath(lock.pathKey));
}

/**
 * Whether the caller may remove a lock (UNLOCK): its holder, or an administrator of the Workspace
 * the lock lies in (a Site Administrator anywhere it acts), so that a lock left by someone's
 * crashed client can be cleared before it times out. The lock's own Workspace decides, not the
 * path the UNLOCK names: a Depth-infinity lock taken above a Workspace root covers that Workspace
 * too, and is not that Workspace's administrator's to remove.
 */
export async function mayRemoveLock(db: Db, caller: Caller, lock: DavLock): Promise<boolean> {
  if (holdsLock(caller, lock)) return true;
  const workspaceId = workspaceOfPath(lock.pathKey);
  return reachesWorkspace(caller, workspaceId) && (await isAdministratorOf(db, caller, workspaceId));
}
