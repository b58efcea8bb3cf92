import { holdsLock, selfAndAncestorKeys } from '../access/index.js';
import { parentKey } from '../authz/index.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { davLocksAt, davLocksBelow, type DavLock } from '../repositories/dav-locks.js';
import { covers } from './lock-coverage.js';
import type { SessionScope } from './session-scope.js';

// Which locks stop a write, for every door. A lock (WebDAV's LOCK or the REST API's POST /locks)
// stops every write to what it covers by anyone but its holder (access/lock-authority.ts); the
// file operations ask here before they change anything, so REST, SFTP and WebDAV alike are
// stopped. WebDAV asks more besides (files/resource-locks.ts): RFC 4918 wants even the holder to
// submit the lock's token in an If header.

/** A resource a write changes, by site path key; `recursive` when everything below it changes too. */
export interface LockedResourceCheck {
  key: string;
  recursive: boolean;
}

/**
 * The locks that stop a write to `checks`: every locked resource the write changes needs one of
 * the locks covering it to `pass` (of several shared locks, one is enough). Empty when nothing
 * stops it. The locks on the checked paths and their ancestors are read in one indexed query,
 * and those below a recursive check's path in one more each.
 */
export async function locksStopping(db: Db, now: number, checks: readonly LockedResourceCheck[], pass: (lock: DavLock) => boolean): Promise<DavLock[]> {
  if (checks.length === 0) return [];
  const rooted = await davLocksAt(db, [...new Set(checks.flatMap(({ key }) => selfAndAncestorKeys(key)))], now);
  const missing = new Map<string, DavLock>();
  for (const { key, recursive } of checks) {
    const near = rooted.filter((lock) => covers(lock, key));
    const below = recursive ? await davLocksBelow(db, key, now) : [];
    if (near.length === 0 && below.length === 0) continue;
    const all = [...near, ...below];
    const resources = new Set([...(near.length > 0 ? [key] : []), ...below.map((lock) => lock.pathKey)]);
    for (const resource of resources) {
      const locking = all.filter((lock) => covers(lock, resource));
      if (locking.some(pass)) continue;
      for (const lock of locking) missing.set(lock.token, lock);
    }
  }
  return [...missing.values()];
}

/** What a write changes, by site path key (see WriteTarget in resource-locks.ts for the meaning). */
export interface LockedWrite {
  keys: readonly string[];
  recursive: boolean;
  /** Folders gaining or losing a member: a lock on the folder itself, even depth 0, protects that. */
  parentsOf?: readonly string[];
}

/**
 * Refuses a write that a lock the caller does not hold covers: `processing-failure/file-locked`,
 * or `folder-locked` when the lock is on a folder. `db` is the write's transaction where it has
 * one, so the answer holds when the write commits.
 */
export async function assertNotLocked(db: Db, scope: SessionScope, write: LockedWrite): Promise<void> {
  const parents = (write.parentsOf ?? []).map((key) => parentKey(key)).filter((key): key is string => key !== null);
  const checks = [...write.keys.map((key) => ({ key, recursive: write.recursive })), ...parents.map((key) => ({ key, recursive: false }))];
  const stopping = await locksStopping(db, scope.deps.clock.now(), checks, (lock) => holdsLock(scope.caller, lock));
  const first = stopping[0];
  if (first === undefined) return;
  throw first.collection ? errors.folderLocked() : errors.fileLocked();
}
