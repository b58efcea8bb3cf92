import { assertMayAddSshKeyFor, listableKeyOwner, manageableKeyOwner, sshKeyVisibility, type Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import { lockAndRead } from '../db/serialise.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import { refusingDuplicates } from '../repositories/constraint-errors.js';
import {
  deletePublicKey, findPublicKey, insertPublicKey, listPublicKeys, publicKeyRegistered, renamePublicKey,
  type PublicKey, type PublicKeyVisibility,
} from '../repositories/public-keys.js';
import { type User } from '../repositories/users.js';
import { publicKeyEvent } from './public-key-history.js';
import type { ConfirmIdentity } from './reauthentication.js';
import { generateSshKeyPair, type KeyPairRequest } from './ssh-key-pair.js';
import { parseSshPublicKey, type SshPublicKey } from './ssh-public-key.js';
import type { TimeRange } from '../repositories/time-range.js';

// SSH public keys (Files.com's PublicKey), under the authority rules of API keys, decided once in
// access/key-owners.ts (docs/authentication.md): a user manages its own keys; a Site Administrator
// those of every user it works with in the request context (every user in context 0; in Custom
// Workspace N, N's users and Workspace 0's); an administrator of Custom Workspace N, working in N,
// those of N's users, and so does a Site Administrator's credential confined to N. Anything else is
// `not-found` ("Public key not found.") or, for a `user_id`, `user-not-found`, never "forbidden",
// so no probe learns which keys exist.

function visibleTo(visibility: PublicKeyVisibility, key: PublicKey): boolean {
  if (visibility.everyone || key.userId === visibility.ownUserId || (visibility.alsoUserIds ?? []).includes(key.userId)) return true;
  return visibility.ownersOfWorkspaces.includes(key.ownerWorkspaceId);
}

/** GET /public_keys: `userId` 0 or the caller's own id is the caller (a site-wide API key has no keys of its own). */
export async function listPublicKeysAs(a: Call, filter: { userId?: number; createdAt?: TimeRange }, page: { afterId: number; limit: number }): Promise<PublicKey[]> {
  const visibility = await sshKeyVisibility(a);
  const listing = { visibility, ...page, ...(filter.createdAt === undefined ? {} : { createdAt: filter.createdAt }) };
  if (filter.userId === undefined) return listPublicKeys(a.db, listing);
  const self = a.caller.user;
  if (filter.userId === 0 || filter.userId === self?.id) return self === null ? [] : listPublicKeys(a.db, { ...listing, userId: self.id });
  const owner = await listableKeyOwner(a, filter.userId);
  return listPublicKeys(a.db, { ...listing, userId: owner.id });
}

export async function findPublicKeyAs(a: Call, id: number): Promise<PublicKey> {
  const key = await findPublicKey(a.db, id);
  if (key === undefined || !visibleTo(await sshKeyVisibility(a), key)) throw errors.publicKeyNotFound();
  return key;
}

export interface NewPublicKeyInput {
  title: string;
  /** undefined or 0: the caller; otherwise that user. */
  userId: number | undefined;
  publicKey: string | undefined;
  generateKeypair: boolean | undefined;
  generate: Omit<KeyPairRequest, 'comment'>;
}

/** A new key, and when the server made the pair, its private key: in this answer and never again. */
export interface CreatedPublicKey {
  key: PublicKey;
  generated?: { privateKey: string; publicKey: string };
}

/** POST /public_keys: a pasted public key, or a pair generated here (`generate_keypair`). */
export async function createPublicKey(a: Call, input: NewPublicKeyInput, confirmIdentity: ConfirmIdentity): Promise<CreatedPublicKey> {
  const owner = await newKeyOwner(a, input.userId);
  assertMayAddSshKeyFor(a.caller, owner);
  const pasted = input.publicKey !== undefined && input.publicKey !== '';
  if (input.generateKeypair === true && pasted) throw errors.paramsInvalid({ public_key: ['cannot be sent with generate_keypair: send one or the other'] });
  if (input.generateKeypair !== true && !pasted) throw errors.paramsRequired({ public_key: ['is required unless generate_keypair is true'] });
  // A pasted key is checked before the password is asked for, so a typo costs no reauthentication.
  const parsed = pasted ? parseSshPublicKey(input.publicKey!) : undefined;
  if (parsed !== undefined) await refuseDuplicate(a, owner, parsed);

  await confirmIdentity('action');
  let generated: CreatedPublicKey['generated'];
  let material = parsed;
  if (material === undefined) {
    const pair = await generateSshKeyPair({ ...input.generate, comment: `${owner.username}@atrium` });
    generated = { privateKey: pair.privateKey, publicKey: pair.publicKeyLine };
    material = pair.publicKey;
  }
  const key = await insertKey(a, owner, input.title, material);
  return generated === undefined ? { key } : { key, generated };
}

async function refuseDuplicate(a: Call, owner: User, parsed: SshPublicKey): Promise<void> {
  if (await publicKeyRegistered(a.db, owner.id, parsed.fingerprintSha256)) throw duplicateKey();
}

function duplicateKey(): Error {
  return errors.modelSaveError({ public_key: ['is already registered for this user'] });
}

async function insertKey(a: Call, owner: User, title: string, material: SshPublicKey): Promise<PublicKey> {
  // Two requests adding the same key at once: the unique index decides.
  return refusingDuplicates(() =>
    inTransaction(a.db, async (tx) => {
      const inserted = await insertPublicKey(tx, {
        userId: owner.id,
        title,
        algorithm: material.algorithm,
        keyBlob: material.blob,
        comment: material.comment,
        fingerprintMd5: material.fingerprintMd5,
        fingerprintSha256: material.fingerprintSha256,
        now: a.now,
      });
      await recordHistory(tx, a, [publicKeyEvent('public_key_create', inserted)]);
      return inserted;
    }), duplicateKey);
}

/** Whose key is being added: the caller itself (any user), or a user the caller administers. */
async function newKeyOwner(a: Call, userId: number | undefined): Promise<User> {
  const self = a.caller.user;
  if (userId === undefined || userId === 0 || userId === self?.id) {
    // A site-wide API key is no user: it must say whose key this is.
    if (self === null) throw errors.paramsRequired({ user_id: ['is required with a site-wide API key, which has no keys of its own'] });
    return self;
  }
  return manageableKeyOwner(a, userId);
}

/** PATCH/PUT /public_keys/<id>: the title only; the key itself never changes (add a new one instead). */
export async function renamePublicKeyAs(a: Call, key: PublicKey, title: string): Promise<PublicKey> {
  if (title === key.title) return key;
  return inTransaction(a.db, async (tx) => {
    // Compared with the title as it is now: of identical renames at once, only the first renames.
    const current = await lockedPublicKey(tx, key.id);
    if (title === current.title) return current;
    const updated = await renamePublicKey(tx, key.id, title);
    await recordHistory(tx, a, [publicKeyEvent('public_key_update', updated, current)]);
    return updated;
  });
}

/** DELETE /public_keys/<id>: the key no longer signs in, from the next SFTP connection on. */
export async function deletePublicKeyAs(a: Call, key: PublicKey, confirmIdentity: ConfirmIdentity): Promise<void> {
  await confirmIdentity('action');
  await inTransaction(a.db, async (tx) => {
    const current = await lockedPublicKey(tx, key.id);
    await deletePublicKey(tx, key.id);
    await recordHistory(tx, a, [publicKeyEvent('public_key_destroy', current)]);
  });
}

/** The key, locked until the transaction ends, or not found when another request deleted it meanwhile. */
async function lockedPublicKey(tx: Db, id: number): Promise<PublicKey> {
  const found = await lockAndRead(tx, 'public_keys', id, findPublicKey);
  if (found === undefined) throw errors.publicKeyNotFound();
  return found;
}
