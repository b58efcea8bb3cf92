import { hashSecret, newApiKeySecret } from './secrets.js';
import { apiKeyVisibility, assertActsAtSiteLevel, isAdministratorOf, listableKeyOwner, manageableKeyOwner, membershipWorkspace, type Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import { lockAndRead } from '../db/serialise.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import { parseIsoTimeInput } from '../lib/iso-time-input.js';
import type { SortedPageRequest } from '../lib/sorted-page.js';
import type { TimeRange } from '../repositories/time-range.js';
import {
  type ApiKeySortField,
  deleteApiKey, findApiKeyWithOwner, insertApiKey, listApiKeys, updateApiKey,
  type ApiKey, type ApiKeyWithOwner, type PermissionSet,
} from '../repositories/api-keys.js';
import { type User } from '../repositories/users.js';
import { keyEvent } from './key-history.js';
import type { ConfirmIdentity } from './reauthentication.js';
import { readSiteSettings } from './site-settings.js';

async function mayReach(a: Call, found: ApiKeyWithOwner): Promise<boolean> {
  const { workspaceId, visibility } = await apiKeyVisibility(a);
  const { key } = found;
  if (workspaceId !== undefined && key.workspaceId !== workspaceId) return false;
  if (visibility.everyone) return true;
  if (key.userId !== null && key.userId === visibility.ownUserId) return true;
  if (key.userId !== null && (visibility.alsoUserIds ?? []).includes(key.userId)) return true;
  return key.userId !== null && visibility.usersOfWorkspace !== null && found.ownerWorkspaceId === visibility.usersOfWorkspace;
}

/** GET /api_keys: `userId` 0 is the caller (for a site-wide key: the site-wide keys). */
/** GET /api_keys: up to `page.limit` keys the caller may see, in the page's order. */
export async function listKeys(a: Call, filter: { userId?: number; expiresAt?: TimeRange }, page: SortedPageRequest<ApiKeySortField>): Promise<ApiKey[]> {
  const { workspaceId, visibility } = await apiKeyVisibility(a);
  const onlyUser = filter.userId === undefined ? undefined : await keyOwnerFilter(a, filter.userId);
  return listApiKeys(a.db, {
    workspaceId, visibility, page,
    ...(onlyUser === undefined ? {} : { userId: onlyUser }),
    ...(filter.expiresAt === undefined ? {} : { expiresAt: filter.expiresAt }),
  });
}

/** The `user_id` filter of a listing, refused as `user-not-found` for a user outside reach. */
async function keyOwnerFilter(a: Call, userId: number): Promise<number | null> {
  if (userId === 0 || userId === a.caller.user?.id) return a.caller.user?.id ?? null;
  await listableKeyOwner(a, userId);
  return userId;
}

export async function findKey(a: Call, id: number): Promise<ApiKey> {
  const found = await findApiKeyWithOwner(a.db, id);
  if (found === undefined || !(await mayReach(a, found))) throw errors.apiKeyNotFound();
  return found.key;
}

/** The key the request authenticated with (GET/PATCH/DELETE /api_key); a session has none. */
export async function findCallingKey(a: Call): Promise<ApiKey> {
  const credential = a.caller.credential;
  if (credential.kind !== 'api_key') throw errors.apiKeyNotFound();
  const found = await findApiKeyWithOwner(a.db, credential.keyId);
  // Deleted since it authenticated this request: answered as a request that came after that.
  if (found === undefined) throw errors.invalidCredentials();
  return found.key;
}

export interface NewKeyInput {
  name: string;
  /** Free text about the key; none when left out. */
  description?: string | undefined;
  /** undefined or 0: the caller; null: a site-wide key; otherwise that user. */
  userId: number | null | undefined;
  permissionSet: PermissionSet | undefined;
  expiresAt: string | null | undefined;
  workspaceId: number | undefined;
}

/** POST /api_keys: the new key and its secret, which is never shown again. */
export async function createKey(a: Call, input: NewKeyInput, confirmIdentity: ConfirmIdentity): Promise<{ key: ApiKey; secret: string }> {
  const permissionSet = input.permissionSet ?? 'full';
  const credential = a.caller.credential;
  // A files_only key must not be able to mint a key with more authority than itself.
  if (credential.kind === 'api_key' && credential.permissionSet === 'files_only' && permissionSet !== 'files_only') {
    throw errors.insufficientPermissionForParams('A files_only key may only create files_only keys.');
  }
  const expiresAt = futureExpiry(input.expiresAt, a.now);
  const owner = await newKeyOwner(a, input);
  if (owner === null && permissionSet !== 'full') throw errors.paramsInvalid({ permission_set: ['must be full for a site-wide key'] });

  await confirmIdentity('action');
  const secret = newApiKeySecret();
  const { lookup, hash } = hashSecret(secret);
  const key = await inTransaction(a.db, async (tx) => {
    const inserted = await insertApiKey(tx, {
      name: input.name,
      description: input.description ?? '',
      userId: owner === null ? null : owner.user.id,
      permissionSet,
      workspaceId: owner === null ? 0 : owner.workspaceId,
      lookup,
      secretHash: hash,
      expiresAt,
      now: a.now,
    });
    await recordHistory(tx, a, [await keyEvent(tx, 'api_key_create', inserted)]);
    return inserted;
  });
  return { key, secret };
}

/**
 * Whose key is being created and in which Workspace; null for a site-wide key. Checks authority:
 * - site-wide (`user_id` null, or the caller is itself a site-wide key): a Site Administrator, in
 *   Workspace 0 only, because a site-wide key has Site Administrator authority over the whole site;
 * - the caller itself: anyone, unless the site turned key creation off for non-administrators;
 * - another user: an administrator of that user (a Site Administrator, or an administrator of
 *   the Custom Workspace the user belongs to, working in it); else `user-not-found`.
 * A key of a Custom Workspace user belongs to that Workspace, where its user is confined anyway.
 */
async function newKeyOwner(a: Call, input: NewKeyInput): Promise<{ user: User; workspaceId: number } | null> {
  const self = a.caller.user;
  const siteWide = input.userId === null || (self === null && (input.userId === undefined || input.userId === 0));
  if (siteWide) {
    assertActsAtSiteLevel(a.caller);
    const workspaceId = await membershipWorkspace(a.db, a.caller, a.requestWorkspaceId, input.workspaceId);
    if (workspaceId !== 0) throw errors.insufficientPermissionForParams('A site-wide key can only be created in Workspace 0.');
    return null;
  }
  const forSelf = self !== null && (input.userId === undefined || input.userId === 0 || input.userId === self.id);
  const user = forSelf ? self : await manageableKeyOwner(a, input.userId as number);
  const workspaceId = await keyWorkspace(a, user, input.workspaceId);
  if (forSelf) {
    const settings = await readSiteSettings(a.db);
    if (!settings.users_can_create_api_keys && !(await isAdministratorOf(a.db, a.caller, workspaceId))) {
      throw errors.apiKeyCreationRestricted();
    }
  }
  return { user, workspaceId };
}

/** The creation Workspace (contract 4.2), pinned to the user's own when it is a Custom Workspace. */
async function keyWorkspace(a: Call, user: User, requested: number | undefined): Promise<number> {
  if (user.workspaceId === 0) return membershipWorkspace(a.db, a.caller, a.requestWorkspaceId, requested);
  if (requested !== undefined && requested !== user.workspaceId) {
    throw errors.insufficientPermissionForParams(`workspace_id ${requested} is not the Workspace of user ${user.id}.`);
  }
  return user.workspaceId;
}

export interface KeyChanges {
  name?: string;
  description?: string;
  /** null or empty: no expiry. */
  expiresAt?: string | null;
  /** The SDK's `save()` sends the key's own back: the same is accepted, another refused. */
  permissionSet?: string;
}

/**
 * PATCH/PUT /api_keys/<id> and /api_key: name, description and expiry only; nothing about authority changes.
 * Only what differs is changed and recorded, compared with the key as it is in the transaction:
 * of identical requests at once, the first changes it and the others find nothing left to change.
 */
export async function updateKey(a: Call, key: ApiKey, changes: KeyChanges): Promise<ApiKey> {
  // What a key may do is fixed when it is made: a wider one would outlive the review of its creation.
  if (changes.permissionSet !== undefined && changes.permissionSet !== key.permissionSet) {
    throw errors.paramsInvalid({ permission_set: ['cannot be changed: create a new key with the other permission set'] });
  }
  const expiresAt = changes.expiresAt === undefined ? undefined : futureExpiry(changes.expiresAt, a.now);
  const differences = (current: ApiKey) => ({
    ...(changes.name === undefined || changes.name === current.name ? {} : { name: changes.name }),
    ...(changes.description === undefined || changes.description === current.description ? {} : { description: changes.description }),
    ...(expiresAt === undefined || expiresAt === current.expiresAt ? {} : { expiresAt }),
  });
  if (Object.keys(differences(key)).length === 0) return key;
  return inTransaction(a.db, async (tx) => {
    const current = await lockedKey(a, tx, key.id);
    const changed = differences(current);
    if (Object.keys(changed).length === 0) return current;
    const updated = await updateApiKey(tx, key.id, changed);
    await recordHistory(tx, a, [await keyEvent(tx, 'api_key_update', updated, current)]);
    return updated;
  });
}

/** DELETE /api_keys/<id> and /api_key: the key stops working at once. */
export async function revokeKey(a: Call, key: ApiKey, confirmIdentity: ConfirmIdentity): Promise<void> {
  await confirmIdentity('action');
  await inTransaction(a.db, async (tx) => {
    const current = await lockedKey(a, tx, key.id);
    await deleteApiKey(tx, key.id);
    await recordHistory(tx, a, [await keyEvent(tx, 'api_key_destroy', current)]);
  });
}

/**
 * The key, locked until the transaction ends. Deleted meanwhile by another request, it is answered
 * as for a request that came after that one: `api-key-not-found`, or, when it was the key this
 * request authenticated with, `invalid-credentials`.
 */
async function lockedKey(a: Call, tx: Db, id: number): Promise<ApiKey> {
  const found = await lockAndRead(tx, 'api_keys', id, findApiKeyWithOwner);
  if (found !== undefined) return found.key;
  const credential = a.caller.credential;
  throw credential.kind === 'api_key' && credential.keyId === id ? errors.invalidCredentials() : errors.apiKeyNotFound();
}

/** An `expires_at` input: null or empty for none; otherwise an ISO-8601 time after now. */
function futureExpiry(text: string | null | undefined, now: number): number | null {
  if (text === undefined || text === null || text.trim() === '') return null;
  const epochMs = parseIsoTimeInput(text);
  if (epochMs === undefined) throw errors.paramsInvalid({ expires_at: ['must be an ISO-8601 time such as 2026-01-02T03:04:05Z'] });
  if (epochMs <= now) throw errors.paramsInvalid({ expires_at: ['must be in the future'] });
  return epochMs;
}
