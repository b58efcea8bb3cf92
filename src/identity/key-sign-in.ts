import { callerFromPassword, type Caller } from '../access/index.js';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import type { Origin } from '../lib/origin.js';
import { findLoginAccount } from '../repositories/user-credentials.js';
import { usernameKey } from '../repositories/users.js';
import { publicKeyMatches, touchPublicKeyLogin } from './public-key-sign-in.js';
import { recordSignIn } from './sign-in-history.js';

/** A user's registered public key that a client presented, before the client has proved it holds the private key. */
export interface KeySignIn {
  caller: Caller;
  keyId: number;
}

/**
 * Public-key sign-in (SFTP), in two steps as SSH asks: `findKeySignIn` answers whether `keyBlob`
 * (the key's SSH wire form) is registered to the enabled user `username`, which the client may ask
 * without a signature; once the door has verified the signature, `completeKeySignIn` records the
 * sign-in (History `login` with the door, and the key's last use). A key is a user's own
 * credential, like its password: it signs in with the user's own authority.
 */
export async function findKeySignIn(db: Db, username: string, keyBlob: Buffer): Promise<KeySignIn | undefined> {
  const account = await findLoginAccount(db, usernameKey(username));
  if (account === undefined || account.user.disabled) return undefined;
  const key = await publicKeyMatches(db, account.user.id, keyBlob);
  return key === undefined ? undefined : { caller: callerFromPassword(account.user), keyId: key.id };
}

export async function completeKeySignIn(db: Db, now: number, origin: Origin, signIn: KeySignIn): Promise<void> {
  const user = signIn.caller.user;
  if (user === null) return;
  await touchPublicKeyLogin(db, signIn.keyId, now);
  await inTransaction(db, (tx) => recordSignIn(tx, { now, origin, username: user.username }, user, undefined));
}
