import { lockAndRead } from '../db/serialise.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { findGroupById, type Group } from '../repositories/groups.js';
import { findUserById, type User } from '../repositories/users.js';

// A directory change decides on what it reads; read inside its transaction with the row locked,
// that is the row as it is now, and no other change to it can come in between until the commit.
// A request that waited for another's deletion finds the row gone and is answered as it would be
// had it come after that one: not found.

/** The user, locked until the transaction ends, or `user-not-found`. */
export async function lockedUser(tx: Db, id: number): Promise<User> {
  const found = await lockAndRead(tx, 'users', id, findUserById);
  if (found === undefined) throw errors.userNotFound();
  return found;
}

/**
 * The group, locked until the transaction ends, or `group-not-found`. Every change of a group's
 * members takes it first, so such changes happen one after another, each on the members the one
 * before it left.
 */
export async function lockedGroup(tx: Db, id: number): Promise<Group> {
  const found = await lockGroup(tx, id);
  if (found === undefined) throw errors.groupNotFound();
  return found;
}

/** lockedGroup, with undefined for a group that is gone. */
export async function lockGroup(tx: Db, id: number): Promise<Group | undefined> {
  return lockAndRead(tx, 'groups', id, findGroupById);
}
