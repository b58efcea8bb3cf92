import { randomBytes } from 'node:crypto';
import { selfAndAncestorKeys, type SitePath } from '../access/index.js';
import type { Db } from '../db/database.js';
import { takeTurn } from '../db/serialise.js';
import { inTransaction } from '../db/transaction.js';
import {
  davLocksAt, davLocksBelow, deleteExpiredDavLocks, insertDavLock, latestDavLockExpiry, renewDavLock, type DavLock,
} from '../repositories/dav-locks.js';
import { covers } from './lock-coverage.js';
import { assertLockCountWithinLimit, assertOwnerWithinLimit } from './lock-limits.js';

// The lock store, one for every door: WebDAV's LOCK and the REST API's POST /locks both take their
// locks here, in the database (dav_locks), so every worker and node sees the same ones. Expired locks are ignored by every read and removed lazily, when a lock is taken.

/**
 * A new lock token: 128 random bits as a URI, `urn:x-atrium:` and 22 base64url characters. Kept
 * shorter than a `urn:uuid:` (45 characters) on purpose: clients build If headers of a token and two
 * entity tags (a file's is its 66-character SHA-256) in fixed buffers of 200 bytes (litmus does).
 */
function newLockToken(): string {
  return `urn:x-atrium:${randomBytes(16).toString('base64url')}`;
}

/**
 * Whether any lock at all can still hold at `now`. Most sites hold none most of the time (a lock
 * lives while a WebDAV client edits a file), and this one read, cached until the data changes,
 * spares every listing and file read the two lock queries. A lock taken, renewed or released is a
 * write, which empties the cache; one running out needs none, as the expiry is compared with `now`.
 */
async function anyLockHolds(db: Db, now: number): Promise<boolean> {
  const latest = await latestDavLockExpiry(db);
  return latest !== undefined && latest > now;
}

/** Unexpired locks that cover the resource at `pathKey`. */
export async function locksCovering(db: Db, pathKey: string, now: number): Promise<DavLock[]> {
  return (await anyLockHolds(db, now)) ? coveringLocks(db, pathKey, now) : [];
}

/** locksCovering, once it is known that some lock may hold. */
async function coveringLocks(db: Db, pathKey: string, now: number): Promise<DavLock[]> {
  const locks = await davLocksAt(db, selfAndAncestorKeys(pathKey), now);
  return locks.filter((lock) => covers(lock, pathKey));
}

/**
 * The unexpired locks covering `pathKey` or anything below it, read in one query pair whatever
 * their number, and a stamp that differs whenever that set does (a lock taken, removed or run out):
 * what a cached listing of the folder is keyed by, since a lock running out changes no data.
 */
export interface LocksAround {
  readonly locks: readonly DavLock[];
  readonly stamp: string;
  /** Whether a lock covers the resource at `key` (the folder or a path below it). */
  locked(key: string): boolean;
}

const NO_LOCKS: LocksAround = Object.freeze({ locks: Object.freeze([]), stamp: '', locked: () => false });

export async function locksAround(db: Db, pathKey: string, now: number): Promise<LocksAround> {
  if (!(await anyLockHolds(db, now))) return NO_LOCKS;
  const [near, below] = await Promise.all([coveringLocks(db, pathKey, now), davLocksBelow(db, pathKey, now)]);
  const locks = [...near, ...below];
  return {
    locks,
    stamp: locks.map((lock) => lock.token).sort().join(','),
    locked: (key) => locks.some((lock) => covers(lock, key)),
  };
}

/** A lock to take: where, and what it will be besides its token and times. */
export type NewLock = Pick<DavLock, 'collection' | 'depth' | 'scope' | 'ownerXml' | 'userId' | 'allowAccessByAnyUser' | 'timeoutSeconds'> & { site: SitePath };

/**
 * Takes a lock, unless an unexpired lock conflicts with it (RFC 4918 6.1, 9.10.6): one that covers
 * the new lock's root, or, for a depth-infinity lock, one rooted below it; and either of them
 * exclusive. A lock past the caps of lock-limits.ts is refused (`storage-limit-reached`). Checking
 * and inserting happen in one transaction that no other node's lock taking can interleave with
 * (an advisory lock on PostgreSQL; SQLite has one writer at a time, and the first statement,
 * which removes expired locks, makes this transaction that writer), so two requests at once
 * cannot both take the last place under a cap.
 */
export async function takeLock(db: Db, now: number, request: NewLock): Promise<{ lock: DavLock; conflicts: [] } | { lock: undefined; conflicts: DavLock[] }> {
  assertOwnerWithinLimit(request.ownerXml);
  return inTransaction(db, async (tx) => {
    await takeTurn(tx, 'dav-lock-taking');
    await deleteExpiredDavLocks(tx, now);
    const key = request.site.key;
    const near = await coveringLocks(tx, key, now);
    const below = request.depth === 'infinity' ? await davLocksBelow(tx, key, now) : [];
    const conflicts = [...near, ...below].filter((lock) => lock.scope === 'exclusive' || request.scope === 'exclusive');
    if (conflicts.length > 0) return { lock: undefined, conflicts };
    assertLockCountWithinLimit(key, near, below);
    const lock: DavLock = {
      token: newLockToken(),
      path: request.site.path,
      pathKey: key,
      collection: request.collection,
      depth: request.depth,
      scope: request.scope,
      ownerXml: request.ownerXml,
      userId: request.userId,
      allowAccessByAnyUser: request.allowAccessByAnyUser,
      timeoutSeconds: request.timeoutSeconds,
      createdAt: now,
      expiresAt: now + request.timeoutSeconds * 1000,
    };
    await insertDavLock(tx, lock);
    return { lock, conflicts: [] };
  });
}

/** A lock given a new timeout from now (a refresh). */
export async function renewLock(db: Db, now: number, lock: DavLock, timeoutSeconds: number): Promise<DavLock> {
  const expiresAt = now + timeoutSeconds * 1000;
  await renewDavLock(db, lock.token, timeoutSeconds, expiresAt);
  return { ...lock, timeoutSeconds, expiresAt };
}
