import type { Db } from '../db/database.js';
import { listPublicKeysOfUser, touchPublicKey, type PublicKey } from '../repositories/public-keys.js';

/**
 * What an SFTP sign-in needs of public keys, with no caller yet (as `verifyPasswordSignIn`): the
 * keys a user registered, and which one (if any) is the key a client presents. Keys are compared
 * by their SSH wire encoding, which names the key type, so `algo` (the key type the client
 * announced, or its signature algorithm such as rsa-sha2-256) decides nothing: only the bytes do.
 * Whether the user may sign in at all (disabled, locked out) is the sign-in's business.
 */
export function findPublicKeysOfUser(db: Db, userId: number): Promise<PublicKey[]> {
  return listPublicKeysOfUser(db, userId);
}

/** The user's registered key whose wire encoding is `keyBlob`, or undefined. */
export async function publicKeyMatches(db: Db, userId: number, keyBlob: Buffer): Promise<PublicKey | undefined> {
  return (await listPublicKeysOfUser(db, userId)).find((key) => key.keyBlob.equals(keyBlob));
}

/** The same, in the shape ssh2's `ctx.key` ({ algo, data }) hands over. */
export async function publicKeyOfUserMatching(db: Db, userId: number, _algo: string, keyData: Buffer): Promise<{ id: number } | undefined> {
  const key = await publicKeyMatches(db, userId, keyData);
  return key === undefined ? undefined : { id: key.id };
}

/** Records a sign-in with the key (`last_login_at`), at most once a minute. */
export function touchPublicKeyLogin(db: Db, id: number, now: number): Promise<void> {
  return touchPublicKey(db, id, now);
}
