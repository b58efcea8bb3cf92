import type { Db } from '../db/database.js';
import type { DavLock } from '../repositories/dav-locks.js';
import { usernamesOf } from '../repositories/users.js';
import { shownPathIn, type SessionScope } from './session-scope.js';

/**
 * A lock as the REST API shows it (Files.com's Lock model), whichever door took it: where it is
 * rooted as the session's frame shows it (its root when the lock lies above it), and who took it.
 */
export interface LockEntry {
  readonly path: string;
  readonly token: string;
  readonly depth: '0' | 'infinity';
  readonly scope: 'exclusive' | 'shared';
  /** The seconds it was granted for, from when it was taken or last refreshed. */
  readonly timeoutSeconds: number;
  readonly createdAt: number;
  /** A WebDAV client's owner element as sent; the taker's username when it sent none (and for REST locks). */
  readonly owner: string | null;
  readonly allowAccessByAnyUser: boolean;
  readonly userId: number | null;
  readonly username: string | null;
}

/** The locks as entries, their takers' usernames read in one query. */
export async function lockEntriesOf(db: Db, scope: SessionScope, locks: readonly DavLock[]): Promise<LockEntry[]> {
  const names = await usernamesOf(db, locks.flatMap((lock) => (lock.userId === null ? [] : [lock.userId])));
  return locks.map((lock) => {
    const username = lock.userId === null ? null : names.get(lock.userId) ?? null;
    return {
      path: shownPathIn(scope, lock.path) ?? '',
      token: lock.token,
      depth: lock.depth,
      scope: lock.scope,
      timeoutSeconds: lock.timeoutSeconds,
      createdAt: lock.createdAt,
      owner: lock.ownerXml ?? username,
      allowAccessByAnyUser: lock.allowAccessByAnyUser,
      userId: lock.userId,
      username,
    };
  });
}
