import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ApiKeysTable } from '../db/tables.js';
import { JOINED_USER_COLUMNS, toUser, unprefixUser, type User } from './users.js';

export type PermissionSet = 'full' | 'files_only';

export interface ApiKey {
  id: number;
  name: string;
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

/** Keys whose hash starts with `lookup`, each with its user; the caller compares the full hash. */
export async function findKeyCandidates(db: Db, lookup: string): Promise<KeyCandidate[]> {
  const rows = await db
    .selectFrom('api_keys as k')
    .leftJoin('users as u', 'u.id', 'k.user_id')
    .selectAll('k')
    .select(JOINED_USER_COLUMNS)
    .where('k.lookup', '=', lookup)
    .execute();
  return rows.map((row) => ({
    key: toApiKey(row),
    secretHash: row.secret_hash,
    user: row.user_id === null ? null : toUser(unprefixUser(row.user_id, row)),
  }));
}

/** Records use at most once a minute per key, so authentication is not a write on every request. */
export async function touchApiKey(db: Db, keyId: number, now: number): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_use_at: now })
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_use_at', 'is', null), eb('last_use_at', '<', now - 60_000)]))
    .execute();
}
