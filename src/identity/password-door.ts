import { createHash, createHmac } from 'node:crypto';
import { accountActive, callerFromPassword, type Caller } from '../access/index.js';
import type { Db } from '../db/database.js';
import { findLockout } from '../repositories/login-attempts.js';
import { sharedSecret } from '../repositories/server-secrets.js';
import { findLoginAccount } from '../repositories/user-credentials.js';
import { usernameKey } from '../repositories/users.js';
import { hashesEqual } from './secrets.js';
import { errors } from '../errors/catalogue.js';
import { checkPassword, completeSignIn, refuseSignIn, type PasswordSignIn } from './sign-in.js';
import { passwordAloneSuffices, secondFactorsOf } from './two-factor-policy.js';
import { readSiteSettings } from './site-settings.js';

/** How long a verified password is taken without argon2 again. */
export const REMEMBER_PASSWORD_MS = 5 * 60_000;
/** Entries kept at most: a flood of distinct passwords evicts the oldest, never grows memory. */
const MAX_REMEMBERED = 10_000;
const SECRET_NAME = 'password-memory';

interface Remembered {
  userId: number;
  /** SHA-256 of the password hash it was verified against: a changed password no longer matches. */
  hashStamp: string;
  until: number;
}

/**
 * Sign-in by username and password on every request, for the doors whose clients send them each
 * time (HTTP Basic on WebDAV; SFTP's password sign-in). The core builds one per process
 * (core.ts) and both doors use it, so what one door verified the other recognises, and the
 * memory has one bound (MAX_REMEMBERED) for both. The first request at either door is a full
 * sign-in (sign-in.ts: login protection, argon2, recorded in History with that door's
 * interface), refused to a user with a second factor unless the site lets a password alone in at
 * these doors (two-factor-policy.ts, passwordAloneSuffices); after it, for REMEMBER_PASSWORD_MS, the same username and password are recognised
 * by an HMAC under a server secret, so that a client's hundreds of requests, or a sync tool's
 * connections on both doors, do not cost an argon2 each and are not recorded again.
 *
 * What is remembered is a keyed hash, never the password. Each remembered request still reads the
 * user and its lockout from the database, so a password change, a disabled or deleted user, or a
 * lockout ends it at once on every worker and node; nothing needs to be told to forget.
 */
export class PasswordDoor {
  private readonly remembered = new Map<string, Remembered>();
  private secret: Buffer | undefined;

  constructor(private readonly db: Db) {}

  async signIn(now: number, input: PasswordSignIn): Promise<Caller> {
    const key = await this.keyOf(input.username, input.password);
    const known = this.remembered.get(key);
    if (known !== undefined && known.until > now) {
      const caller = await this.stillValid(now, input.username, known);
      if (caller !== undefined) return caller;
    }
    this.remembered.delete(key);
    const checked = await checkPassword(this.db, now, input);
    if (!passwordAloneSuffices(checked.settings, checked.user, await secondFactorsOf(this.db, checked.user.id))) {
      // These doors cannot ask for the second factor: recorded with the reason, counted nowhere
      // (it guessed nothing), and answered as any failed sign-in at the door is.
      await refuseSignIn(this.db, checked, 'two_factor_required', false);
      throw errors.invalidUsernameOrPassword();
    }
    const user = await completeSignIn(this.db, checked);
    const account = await findLoginAccount(this.db, usernameKey(input.username));
    if (account?.passwordHash != null && account.user.id === user.id) {
      this.remember(key, { userId: user.id, hashStamp: stampOf(account.passwordHash), until: now + REMEMBER_PASSWORD_MS });
    }
    return callerFromPassword(user);
  }

  private async stillValid(now: number, username: string, known: Remembered): Promise<Caller | undefined> {
    const key = usernameKey(username);
    const account = await findLoginAccount(this.db, key);
    if (account === undefined || account.user.id !== known.userId || !accountActive(account.user, now) || account.passwordHash === null) return undefined;
    if (!hashesEqual(stampOf(account.passwordHash), known.hashStamp)) return undefined;
    const settings = await readSiteSettings(this.db);
    // A second factor set up (or a site policy turned on) since the password was remembered ends it.
    if (!passwordAloneSuffices(settings, account.user, await secondFactorsOf(this.db, account.user.id))) return undefined;
    if (settings.user_lockout) {
      const lockedUntil = await findLockout(this.db, key);
      if (lockedUntil !== undefined && lockedUntil > now) return undefined;
    }
    return callerFromPassword(account.user);
  }

  private remember(key: string, entry: Remembered): void {
    if (this.remembered.size >= MAX_REMEMBERED) {
      const oldest = this.remembered.keys().next().value;
      if (oldest !== undefined) this.remembered.delete(oldest);
    }
    this.remembered.set(key, entry);
  }

  private async keyOf(username: string, password: string): Promise<string> {
    this.secret ??= await sharedSecret(this.db, SECRET_NAME, Date.now());
    return createHmac('sha256', this.secret).update(usernameKey(username)).update('\0').update(password).digest('hex');
  }
}

function stampOf(passwordHash: string): string {
  return createHash('sha256').update(passwordHash).digest('hex');
}
