import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { cachedRead, rowsPolicy } from '../db/read-cache.js';
import { startsWith } from './like-patterns.js';
import type { DavLocksTable } from '../db/tables.js';

/**
 * A write lock (RFC 4918 6), taken through WebDAV or the REST API (`/locks`): on `pathKey`, and
 * with depth infinity on everything below it.
 */
export interface DavLock {
  token: string;
  /** The lock root: a site path, display spelling, and its key. */
  path: string;
  pathKey: string;
  /** The root is a folder. */
  collection: boolean;
  depth: '0' | 'infinity';
  scope: 'exclusive' | 'shared';
  /** The client's <D:owner> element, as sent; null when it sent none. */
  ownerXml: string | null;
  /** The user who took it; null for a site-wide key. */
  userId: number | null;
  /** Any user may use it as its holder would (REST `allow_access_by_any_user`): it stops nobody. */
  allowAccessByAnyUser: boolean;
  timeoutSeconds: number;
  createdAt: number;
  expiresAt: number;
}

type LockRow = Selectable<DavLocksTable>;

function toLock(row: LockRow): DavLock {
  return {
    token: row.token,
    path: row.path,
    pathKey: row.path_key,
    collection: Boolean(row.collection),
    depth: row.depth,
    scope: row.scope,
    ownerXml: row.owner_xml,
    userId: row.user_id,
    allowAccessByAnyUser: Boolean(row.allow_access_by_any_user),
    timeoutSeconds: Number(row.timeout_seconds),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

export async function insertDavLock(db: Db, lock: DavLock): Promise<void> {
  await db.insertInto('dav_locks').values({
    token: lock.token,
    path: lock.path,
    path_key: lock.pathKey,
    collection: lock.collection,
    depth: lock.depth,
    scope: lock.scope,
    owner_xml: lock.ownerXml,
    user_id: lock.userId,
    allow_access_by_any_user: lock.allowAccessByAnyUser,
    timeout_seconds: lock.timeoutSeconds,
    created_at: lock.createdAt,
    expires_at: lock.expiresAt,
  }).execute();
}

/** The unexpired lock with this token. */
export async function findDavLock(db: Db, token: string, now: number): Promise<DavLock | undefined> {
  const row = await db.selectFrom('dav_locks').selectAll().where('token', '=', token).where('expires_at', '>', now).executeTakeFirst();
  return row === undefined ? undefined : toLock(row);
}

/**
 * The latest expiry of any lock in the table, expired or not (undefined when it is empty), read
 * through the cache until the data changes: whether any lock can still hold at a given time.
 */
export function latestDavLockExpiry(db: Db): Promise<number | undefined> {
  return cachedRead(db, 'dav-locks-latest-expiry', '', async () => {
    const row = await db.selectFrom('dav_locks').select((eb) => eb.fn.max('expires_at').as('latest')).executeTakeFirst();
    return row?.latest === null || row?.latest === undefined ? undefined : Number(row.latest);
  });
}

/**
 * The lock reads of every listing and stat are cached reads (db/read-cache.ts): every listing read
 * them afresh, three statements per SFTP listing. They are cached without their expiry and the
 * expired locks left out at each read, so a lock that runs out, which changes no data, is still
 * seen at once. Expired rows are few: they are removed whenever a lock is taken.
 */
const LOCK_ROWS_POLICY = rowsPolicy<readonly LockRow[]>(20_000);

/** Unexpired locks rooted at any of these keys (a path and its ancestors, say). */
export async function davLocksAt(db: Db, pathKeys: readonly string[], now: number): Promise<DavLock[]> {
  if (pathKeys.length === 0) return [];
  const rows = await cachedRead(db, 'dav-locks-at', JSON.stringify(pathKeys), async () => Object.freeze(
    await db.selectFrom('dav_locks').selectAll().where('path_key', 'in', pathKeys).orderBy('created_at').execute(),
  ), LOCK_ROWS_POLICY);
  return unexpired(rows, now);
}

/** Unexpired locks rooted strictly below `pathKey`. */
export async function davLocksBelow(db: Db, pathKey: string, now: number): Promise<DavLock[]> {
  const rows = await cachedRead(db, 'dav-locks-below', pathKey, async () => Object.freeze(
    await db.selectFrom('dav_locks').selectAll()
      .where(pathKey === '' ? (eb) => eb('path_key', '!=', '') : startsWith('path_key', `${pathKey}/`))
      .orderBy('created_at')
      .execute(),
  ), LOCK_ROWS_POLICY);
  return unexpired(rows, now);
}

function unexpired(rows: readonly LockRow[], now: number): DavLock[] {
  return rows.filter((row) => Number(row.expires_at) > now).map(toLock);
}

export async function renewDavLock(db: Db, token: string, timeoutSeconds: number, expiresAt: number): Promise<void> {
  await db.updateTable('dav_locks').set({ timeout_seconds: timeoutSeconds, expires_at: expiresAt }).where('token', '=', token).execute();
}

/** Removes a lock; false when it was already gone (another request removed it first). */
export async function deleteDavLock(db: Db, token: string): Promise<boolean> {
  const result = await db.deleteFrom('dav_locks').where('token', '=', token).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Removes every lock rooted at `pathKey` or below it (the resource is gone or moved away). */
export async function deleteDavLocksAtOrBelow(db: Db, pathKey: string): Promise<void> {
  if (pathKey === '') {
    await db.deleteFrom('dav_locks').execute();
    return;
  }
  await db.deleteFrom('dav_locks').where((eb) => eb.or([eb('path_key', '=', pathKey), startsWith('path_key', `${pathKey}/`)])).execute();
}

/** Removes every lock rooted strictly below `pathKey`. */
export async function deleteDavLocksBelow(db: Db, pathKey: string): Promise<void> {
  await db.deleteFrom('dav_locks').where(pathKey === '' ? (eb) => eb('path_key', '!=', '') : startsWith('path_key', `${pathKey}/`)).execute();
}

/** Removes expired locks: they are already ignored by every read, this only keeps the table small. */
export async function deleteExpiredDavLocks(db: Db, now: number): Promise<void> {
  await db.deleteFrom('dav_locks').where('expires_at', '<=', now).execute();
}
