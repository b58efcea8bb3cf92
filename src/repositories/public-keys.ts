import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { PublicKeysTable } from '../db/tables.js';
import { TOUCH_INTERVAL_MS } from './touch-interval.js';
import { type TimeRange, withinTimeRange } from './time-range.js';

export interface PublicKey {
  id: number;
  userId: number;
  /** The owner's username and Workspace, read with the key: what answers and reach need. */
  username: string;
  ownerWorkspaceId: number;
  title: string;
  algorithm: string;
  /** The SSH wire encoding of the key. */
  keyBlob: Buffer;
  comment: string;
  fingerprintMd5: string;
  fingerprintSha256: string;
  createdAt: number;
  lastLoginAt: number | null;
}

type Row = Selectable<PublicKeysTable> & { username: string; owner_workspace_id: number };

function toPublicKey(row: Row): PublicKey {
  return {
    id: row.id,
    userId: row.user_id,
    username: row.username,
    ownerWorkspaceId: row.owner_workspace_id,
    title: row.title,
    algorithm: row.algorithm,
    keyBlob: Buffer.from(row.key_blob, 'base64'),
    comment: row.comment,
    fingerprintMd5: row.fingerprint_md5,
    fingerprintSha256: row.fingerprint_sha256,
    createdAt: row.created_at,
    lastLoginAt: row.last_login_at,
  };
}

function selectKeys(db: Db) {
  return db
    .selectFrom('public_keys as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .selectAll('k')
    .select(['u.username as username', 'u.workspace_id as owner_workspace_id']);
}

export interface NewPublicKey {
  userId: number;
  title: string;
  algorithm: string;
  keyBlob: Buffer;
  comment: string;
  fingerprintMd5: string;
  fingerprintSha256: string;
  now: number;
}

export async function insertPublicKey(db: Db, key: NewPublicKey): Promise<PublicKey> {
  const { id } = await db
    .insertInto('public_keys')
    .values({
      user_id: key.userId,
      title: key.title,
      algorithm: key.algorithm,
      key_blob: key.keyBlob.toString('base64'),
      comment: key.comment,
      fingerprint_md5: key.fingerprintMd5,
      fingerprint_sha256: key.fingerprintSha256,
      created_at: key.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (await findPublicKey(db, id))!;
}

export async function findPublicKey(db: Db, id: number): Promise<PublicKey | undefined> {
  const row = await selectKeys(db).where('k.id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toPublicKey(row);
}

/** Whether the user already registered the key with this fingerprint. */
export async function publicKeyRegistered(db: Db, userId: number, fingerprintSha256: string): Promise<boolean> {
  const row = await db.selectFrom('public_keys').select('id')
    .where('user_id', '=', userId).where('fingerprint_sha256', '=', fingerprintSha256).executeTakeFirst();
  return row !== undefined;
}

/** Every key of one user, oldest first: what an SFTP sign-in compares a presented key with. */
export async function listPublicKeysOfUser(db: Db, userId: number): Promise<PublicKey[]> {
  return (await selectKeys(db).where('k.user_id', '=', userId).orderBy('k.id').execute()).map(toPublicKey);
}

/** Which keys a listing may return: every key, or those of the caller and of users of some Workspaces. */
export type PublicKeyVisibility =
  | { everyone: true }
  | { everyone: false; ownUserId: number | null; ownersOfWorkspaces: readonly number[]; /** Other users' keys besides (a Partner Admin's Partner users). */ alsoUserIds?: readonly number[] };

export interface PublicKeyListing {
  visibility: PublicKeyVisibility;
  /** One user's keys only. */
  userId?: number;
  /** Keys added within the range. */
  createdAt?: TimeRange;
  afterId: number;
  limit: number;
}

export async function listPublicKeys(db: Db, listing: PublicKeyListing): Promise<PublicKey[]> {
  const { visibility } = listing;
  if (!visibility.everyone && visibility.ownUserId === null && visibility.ownersOfWorkspaces.length === 0 && (visibility.alsoUserIds ?? []).length === 0) return [];
  let query = selectKeys(db).where('k.id', '>', listing.afterId).orderBy('k.id').limit(listing.limit);
  if (listing.userId !== undefined) query = query.where('k.user_id', '=', listing.userId);
  if (listing.createdAt !== undefined) query = query.where(withinTimeRange('k.created_at', listing.createdAt));
  if (!visibility.everyone) {
    query = query.where((eb) => {
      const branches = [];
      if (visibility.ownUserId !== null) branches.push(eb('k.user_id', '=', visibility.ownUserId));
      if (visibility.ownersOfWorkspaces.length > 0) branches.push(eb('u.workspace_id', 'in', visibility.ownersOfWorkspaces));
      if ((visibility.alsoUserIds ?? []).length > 0) branches.push(eb('k.user_id', 'in', visibility.alsoUserIds ?? []));
      return eb.or(branches);
    });
  }
  return (await query.execute()).map(toPublicKey);
}

export async function renamePublicKey(db: Db, id: number, title: string): Promise<PublicKey> {
  await db.updateTable('public_keys').set({ title }).where('id', '=', id).execute();
  return (await findPublicKey(db, id))!;
}

export async function deletePublicKey(db: Db, id: number): Promise<void> {
  await db.deleteFrom('public_keys').where('id', '=', id).execute();
}

/** Records a sign-in at most once a minute per key, so a busy script is not a write per connection. */
export async function touchPublicKey(db: Db, id: number, now: number): Promise<void> {
  await db
    .updateTable('public_keys')
    .set({ last_login_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_login_at', 'is', null), eb('last_login_at', '<', now - TOUCH_INTERVAL_MS)]))
    .execute();
}
