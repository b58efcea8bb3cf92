import { errors } from '../errors/catalogue.js';
import type { DavLock } from '../repositories/dav-locks.js';
import { covers } from './lock-coverage.js';

// What WebDAV locks may keep in the database. A lock's owner element is the client's own XML, kept
// as sent and shown by every PROPFIND that asks for lockdiscovery on the resource and below it;
// without caps, anyone who may write one file could store without bound beside it, outside
// ATRIUM_MAX_UPLOAD_BYTES. Locks already over a cap stay (they time out within the hour).

/** The most a lock's owner element may hold, in UTF-8 bytes of its XML as stored. */
const MAX_LOCK_OWNER_BYTES = 4 * 1024;

/**
 * The most locks that may cover one resource (on it, or depth infinity above it). Only shared locks
 * ever add up: an exclusive lock conflicts with every other.
 */
const MAX_LOCKS_PER_RESOURCE = 16;

export function assertOwnerWithinLimit(ownerXml: string | null): void {
  if (ownerXml !== null && Buffer.byteLength(ownerXml, 'utf8') > MAX_LOCK_OWNER_BYTES) {
    throw errors.storageLimitReached(`A lock's owner element may hold at most ${MAX_LOCK_OWNER_BYTES} bytes.`);
  }
}

/**
 * Refuses a new lock rooted at `rootKey` that would make more than MAX_LOCKS_PER_RESOURCE locks
 * cover some resource. `covering` are the unexpired locks covering its root, `below` (for a
 * depth-infinity lock) those rooted below it: the busiest resource the new lock would cover is its
 * root or the root of one of those.
 */
export function assertLockCountWithinLimit(rootKey: string, covering: readonly DavLock[], below: readonly DavLock[]): void {
  const all = [...covering, ...below];
  for (const resource of new Set([rootKey, ...below.map((lock) => lock.pathKey)])) {
    if (all.filter((lock) => covers(lock, resource)).length >= MAX_LOCKS_PER_RESOURCE) {
      throw errors.storageLimitReached(`At most ${MAX_LOCKS_PER_RESOURCE} locks may cover one resource; one must be removed (UNLOCK) or time out first.`);
    }
  }
}
