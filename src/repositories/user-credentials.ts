import type { Db } from '../db/database.js';
import { toUser, type User } from './users.js';

export interface LoginAccount {
  user: User;
  /** null for an account that has no password and cannot log in with one. */
  passwordHash: string | null;
}

/** The account a login names, by its case-insensitive username key. */
export async function findLoginAccount(db: Db, usernameKey: string): Promise<LoginAccount | undefined> {
  const row = await db.selectFrom('users').selectAll().where('username_key', '=', usernameKey).executeTakeFirst();
  return row === undefined ? undefined : { user: toUser(row), passwordHash: row.password_hash };
}

/** The current password hash of a user, read fresh for reauthentication. */
export async function passwordHashOfUser(db: Db, userId: number): Promise<string | null> {
  const row = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
  return row?.password_hash ?? null;
}

export async function recordLastLogin(db: Db, userId: number, now: number): Promise<void> {
  await db.updateTable('users').set({ last_login_at: now }).where('id', '=', userId).execute();
}
