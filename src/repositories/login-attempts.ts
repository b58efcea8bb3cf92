import type { Db } from '../db/database.js';

/**
 * Failed logins and lockouts, kept in the database so that they hold across restarts and across
 * every node serving the same database.
 */
export async function insertLoginFailure(db: Db, failure: { usernameKey: string; clientKey: string; now: number }): Promise<void> {
  await db.insertInto('login_failures').values({ username_key: failure.usernameKey, client_ip: failure.clientKey, created_at: failure.now }).execute();
}

/** Failures for a username at or after `since` (indexed by username_key, created_at). */
export async function countUsernameFailuresSince(db: Db, usernameKey: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('username_key', '=', usernameKey)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Failures from a client after `since`, and when the oldest of them happened. */
export async function clientFailuresSince(db: Db, clientKey: string, since: number): Promise<{ count: number; oldest: number | null }> {
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
    .where('client_ip', '=', clientKey)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), oldest: row.oldest === null ? null : Number(row.oldest) };
}

/**
 * The lockout row of a username. `locked_until` in the future: locked. Either way, failures
 * before `locked_until` no longer count towards the next lockout (see services/login-protection.ts).
 */
export async function findLockout(db: Db, usernameKey: string): Promise<number | undefined> {
  const row = await db.selectFrom('login_lockouts').select('locked_until').where('username_key', '=', usernameKey).executeTakeFirst();
  return row === undefined ? undefined : Number(row.locked_until);
}

export async function setLockout(db: Db, usernameKey: string, lockedUntil: number): Promise<void> {
  await db
    .insertInto('login_lockouts')
    .values({ username_key: usernameKey, locked_until: lockedUntil })
    .onConflict((oc) => oc.column('username_key').doUpdateSet({ locked_until: lockedUntil }))
    .execute();
}

/** Old failures of one username and one client: indexed, so cheap enough for every failure. */
export async function pruneFailuresOf(db: Db, usernameKey: string, clientKey: string, before: number): Promise<void> {
  await db
    .deleteFrom('login_failures')
    .where((eb) => eb.or([eb('username_key', '=', usernameKey), eb('client_ip', '=', clientKey)]))
    .where('created_at', '<', before)
    .execute();
}

/** Every failure before `failuresBefore` and every lockout row that ended before `lockoutsBefore`. */
export async function pruneAllLoginRecords(db: Db, failuresBefore: number, lockoutsBefore: number): Promise<void> {
  await db.deleteFrom('login_failures').where('created_at', '<', failuresBefore).execute();
  await db.deleteFrom('login_lockouts').where('locked_until', '<', lockoutsBefore).execute();
}

/** The lockout rows of several usernames (by the table's primary key), as username key → locked_until. */
export async function findLockouts(db: Db, usernameKeys: readonly string[]): Promise<Map<string, number>> {
  if (usernameKeys.length === 0) return new Map();
  const rows = await db.selectFrom('login_lockouts').select(['username_key', 'locked_until']).where('username_key', 'in', [...usernameKeys]).execute();
  return new Map(rows.map((row) => [row.username_key, Number(row.locked_until)]));
}
