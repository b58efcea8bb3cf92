import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import { hashPassword } from '../../src/identity/index.js';
import { hashSecret, newApiKeySecret, newSessionId } from '../../src/identity/index.js';
import type { Db } from '../../src/db/database.js';
import { insertApiKey, type PermissionSet } from '../../src/repositories/api-keys.js';
import { insertUser, type User } from '../../src/repositories/users.js';

/** Builds test data straight in the database, each call with unique names so tests never collide. */
export function unique(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export async function createWorkspace(db: Db, name = unique('ws')): Promise<number> {
  const row = await db.insertInto('workspaces').values({ name, created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/**
 * argon2id at its least cost, for the users this file puts straight into the database: a sign-in
 * verifies a hash at the cost written in it, so the suite's hundreds of fixture users sign in at
 * about 1 ms of CPU instead of the 27 ms of the server's own parameters (about 15 s of the suite's
 * CPU). Every hash the server makes itself (POST /users, password changes, the first
 * administrator) keeps the server's parameters; a test that compares a sign-in's cost with the
 * dummy hash's asks for them with `serverHashCost`.
 */
const FIXTURE_HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

export async function createUser(
  db: Db,
  fields: { workspaceId?: number; siteAdmin?: boolean; workspaceAdmin?: boolean; password?: string; username?: string; serverHashCost?: boolean } = {},
): Promise<User> {
  const hash = async (password: string) => (fields.serverHashCost === true ? hashPassword(password) : argon2.hash(password, FIXTURE_HASH_OPTIONS));
  return insertUser(db, {
    workspaceId: fields.workspaceId ?? 0,
    username: fields.username ?? unique('user'),
    passwordHash: fields.password === undefined ? null : await hash(fields.password),
    siteAdmin: fields.siteAdmin ?? false,
    workspaceAdmin: fields.workspaceAdmin ?? false,
    now: Date.now(),
  });
}

export async function createApiKey(
  db: Db,
  fields: { userId: number | null; permissionSet?: PermissionSet; workspaceId?: number; expiresAt?: number | null; now?: number },
): Promise<string> {
  const secret = newApiKeySecret();
  const { lookup, hash } = hashSecret(secret);
  await insertApiKey(db, {
    name: unique('key'),
    userId: fields.userId,
    permissionSet: fields.permissionSet ?? 'full',
    workspaceId: fields.workspaceId ?? 0,
    lookup,
    secretHash: hash,
    expiresAt: fields.expiresAt ?? null,
    now: fields.now ?? Date.now(),
  });
  return secret;
}

export async function createSession(db: Db, userId: number, now: number): Promise<string> {
  const id = newSessionId();
  const { lookup, hash } = hashSecret(id);
  await db.insertInto('sessions').values({ user_id: userId, lookup, secret_hash: hash, created_at: now, last_active_at: now }).execute();
  return id;
}

export async function createGroup(db: Db, fields: { workspaceId?: number; name?: string } = {}): Promise<number> {
  const name = fields.name ?? unique('group');
  const row = await db
    .insertInto('groups')
    .values({ workspace_id: fields.workspaceId ?? 0, name, name_key: name.toLowerCase(), created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function addMember(db: Db, groupId: number, userId: number, admin = false): Promise<void> {
  await db.insertInto('group_users').values({ group_id: groupId, user_id: userId, admin, created_at: Date.now() }).execute();
}
