import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { cachedRead } from '../db/read-cache.js';

/** Which second factors a user has set up: a confirmed authenticator app, any passkey. */
export interface SecondFactorPresence {
  totp: boolean;
  passkeys: boolean;
}

/**
 * Both answers in one statement, cached until the data changes (db/read-cache.ts): WebDAV's and
 * SFTP's password door asks on every request a remembered password makes, so that a second factor
 * set up since ends the password's welcome at once.
 */
export function findSecondFactorPresence(db: Db, userId: number): Promise<SecondFactorPresence> {
  return cachedRead(db, 'second-factors', String(userId), async () => {
    const row = await db.selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('user_totp').select(sql.lit(1).as('one')).where('user_id', '=', userId).where('confirmed_at', 'is not', null)).as('totp'),
      eb.exists(eb.selectFrom('user_passkeys').select(sql.lit(1).as('one')).where('user_id', '=', userId)).as('passkeys'),
    ]).executeTakeFirstOrThrow();
    return Object.freeze({ totp: Boolean(row.totp), passkeys: Boolean(row.passkeys) });
  });
}
