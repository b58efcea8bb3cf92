import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { SortedPageRequest } from '../lib/sorted-page.js';
import { afterInOrder } from './keyset-order.js';
import { type TimeRange, withinTimeRange } from './time-range.js';
import { TOUCH_INTERVAL_MS } from './touch-interval.js';
import { cachedRead } from '../db/read-cache.js';
import type { ApiKeysTable } from '../db/tables.js';
import { JOINED_USER_COLUMNS, toUser, unprefixUser, type User } from './users.js';

export type PermissionSet = 'full' | 'files_only';

export interface ApiKey {
  id: number;
  name: string;
  description: string;
  userId: number | null;
  permissionSet: PermissionSet;
  workspaceId: number;
  createdAt: number;
  expiresAt: number | null;
  lastUseAt: number | null;
}

export function toApiKey(row: Selectable<ApiKeysTable>): ApiKey {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    userId: row.user_id,
    permissionSet: row.permission_set,
    workspaceId: row.workspace_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUseAt: row.last_use_at,
  };
}

export interface NewApiKey {
  name: string;
  /** '' when left out. */
  description?: string;
  userId: number | null;
  permissionSet: PermissionSet;
  workspaceId: number;
  lookup: string;
  secretHash: string;
  expiresAt: number | null;
  now: number;
}

export async function insertApiKey(db: Db, key: NewApiKey): Promise<ApiKey> {
  const row = await db
    .insertInto('api_keys')
    .values({
      name: key.name,
      description: key.description ?? '',
      user_id: key.userId,
      permission_set: key.permissionSet,
      workspace_id: key.workspaceId,
      lookup: key.lookup,
      secret_hash: key.secretHash,
      created_at: key.now,
      expires_at: key.expiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toApiKey(row);
}

export interface KeyCandidate {
  key: ApiKey;
  secretHash: string;
  /** null for a site-wide key. */
  user: User | null;
}

/**
 * Keys whose hash starts with `lookup`, each with its user; the caller compares the full hash.
 * Read on every request, so cached until the data changes (db/read-cache.ts); frozen because shared.
 */
export function findKeyCandidates(db: Db, lookup: string): Promise<readonly KeyCandidate[]> {
  return cachedRead(db, 'api-key-candidates', lookup, () => loadKeyCandidates(db, lookup));
}

async function loadKeyCandidates(db: Db, lookup: string): Promise<readonly KeyCandidate[]> {
  const rows = await db
    .selectFrom('api_keys as k')
    .leftJoin('users as u', 'u.id', 'k.user_id')
    .selectAll('k')
    .select(JOINED_USER_COLUMNS)
    .where('k.lookup', '=', lookup)
    .execute();
  return Object.freeze(rows.map((row) => Object.freeze({
    key: Object.freeze(toApiKey(row)),
    secretHash: row.secret_hash,
    user: row.user_id === null ? null : Object.freeze(toUser(unprefixUser(row.user_id, row))),
  })));
}

/** Records use at most once a minute per key, so authentication is not a write on every request. */
export async function touchApiKey(db: Db, keyId: number, now: number): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_use_at: now })
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_use_at', 'is', null), eb('last_use_at', '<', now - TOUCH_INTERVAL_MS)]))
    .execute();
}

/** A key with the Workspace its user belongs to (null for a site-wide key): what reach is decided on. */
export interface ApiKeyWithOwner {
  key: ApiKey;
  ownerWorkspaceId: number | null;
}

export async function findApiKeyWithOwner(db: Db, id: number): Promise<ApiKeyWithOwner | undefined> {
  const row = await db
    .selectFrom('api_keys as k')
    .leftJoin('users as u', 'u.id', 'k.user_id')
    .selectAll('k')
    .select('u.workspace_id as owner_workspace_id')
    .where('k.id', '=', id)
    .executeTakeFirst();
  return row === undefined ? undefined : { key: toApiKey(row), ownerWorkspaceId: row.owner_workspace_id };
}

/** Which keys a listing may return: every key in scope, or only these kinds. */
export type KeyVisibility =
  | { everyone: true }
  | { everyone: false; ownUserId: number | null; usersOfWorkspace: number | null; /** Other users' keys besides (a Partner Admin's Partner users). */ alsoUserIds?: readonly number[] };

export interface KeyListing {
  /** Keys created in this Workspace; undefined: every Workspace (a Site Administrator in context 0). */
  workspaceId: number | undefined;
  visibility: KeyVisibility;
  /** A user's keys only; null: site-wide keys only. */
  userId?: number | null;
  /** Keys that expire within the range (a key that never expires is in none). */
  expiresAt?: TimeRange;
  /** The order and the page's place in it, `limit` rows. */
  page: SortedPageRequest<ApiKeySortField>;
}

/** The fields a list of keys can be sorted by. */
export type ApiKeySortField = 'id' | 'expires_at';

/** A key that never expires sorts after every one that does. */
const NEVER = Number.MAX_SAFE_INTEGER;

/** The value `key` has in the order by `field`, as a cursor keeps it. */
export function apiKeySortValue(key: ApiKey, field: ApiKeySortField): number {
  return field === 'id' ? key.id : (key.expiresAt ?? NEVER);
}

export async function listApiKeys(db: Db, listing: KeyListing): Promise<ApiKey[]> {
  const { visibility } = listing;
  if (!visibility.everyone && visibility.ownUserId === null && visibility.usersOfWorkspace === null && (visibility.alsoUserIds ?? []).length === 0) return [];
  const { sort, after, limit } = listing.page;
  const sortedBy = sort.field === 'id' ? sql.ref('k.id') : sql`coalesce(k.expires_at, ${NEVER})`;
  let query = db
    .selectFrom('api_keys as k')
    .leftJoin('users as u', 'u.id', 'k.user_id')
    .selectAll('k')
    .orderBy(sortedBy, sort.direction)
    .orderBy('k.id', sort.direction)
    .limit(limit);
  if (after !== undefined) query = query.where(afterInOrder(sortedBy, sql.ref('k.id'), sort.direction, after));
  if (listing.expiresAt !== undefined) query = query.where(withinTimeRange('k.expires_at', listing.expiresAt));
  if (listing.workspaceId !== undefined) query = query.where('k.workspace_id', '=', listing.workspaceId);
  if (listing.userId === null) query = query.where('k.user_id', 'is', null);
  else if (listing.userId !== undefined) query = query.where('k.user_id', '=', listing.userId);
  if (!visibility.everyone) {
    query = query.where((eb) => {
      const branches = [];
      if (visibility.ownUserId !== null) branches.push(eb('k.user_id', '=', visibility.ownUserId));
      if (visibility.usersOfWorkspace !== null) branches.push(eb('u.workspace_id', '=', visibility.usersOfWorkspace));
      if ((visibility.alsoUserIds ?? []).length > 0) branches.push(eb('k.user_id', 'in', visibility.alsoUserIds ?? []));
      return eb.or(branches);
    });
  }
  return (await query.execute()).map(toApiKey);
}

export async function updateApiKey(db: Db, id: number, changes: { name?: string; description?: string; expiresAt?: number | null }): Promise<ApiKey> {
  const row = await db
    .updateTable('api_keys')
    .set({
      ...(changes.name === undefined ? {} : { name: changes.name }),
      ...(changes.description === undefined ? {} : { description: changes.description }),
      ...(changes.expiresAt === undefined ? {} : { expires_at: changes.expiresAt }),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toApiKey(row);
}

export async function deleteApiKey(db: Db, id: number): Promise<void> {
  await db.deleteFrom('api_keys').where('id', '=', id).execute();
}
