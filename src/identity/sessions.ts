import { verifyPasswordOrDummy } from './passwords.js';
import { hashesEqual, hashSecret, newSessionId } from './secrets.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import type { Clock } from '../lib/time.js';
import { endSession, findSessionCandidates, insertSession } from '../repositories/sessions.js';
import { findLoginAccount, recordLastLogin } from '../repositories/user-credentials.js';
import { usernameKey, type User } from '../repositories/users.js';
import { clientAddressKey } from './client-address.js';
import { assertLoginAllowed, recordFailedLogin, recordSuccessfulLogin, type LoginAttempt } from './login-protection.js';
import { readSiteSettings } from './site-settings.js';

export interface LoginInput {
  username: string;
  password: string;
  /** The socket address of the client (request.ip). */
  clientIp: string;
}

export interface NewSession {
  /** The session id: shown once, here; only its hash is stored. */
  id: string;
  user: User;
  createdAt: number;
}

/**
 * POST /sessions (contract 3.2). An unknown user, a wrong password and a disabled user get the
 * same error after the same work (an argon2 verification, a failure record), so neither the
 * answer nor its timing tells them apart.
 */
export async function logIn(db: Db, clock: Clock, input: LoginInput): Promise<NewSession> {
  const now = clock.now();
  const settings = await readSiteSettings(db);
  const attempt: LoginAttempt = { usernameKey: usernameKey(input.username), clientKey: clientAddressKey(input.clientIp), now };
  await assertLoginAllowed(db, settings, attempt);

  const account = await findLoginAccount(db, attempt.usernameKey);
  const passwordMatches = await verifyPasswordOrDummy(account?.passwordHash, input.password);
  if (account === undefined || !passwordMatches || account.user.disabled) {
    await recordFailedLogin(db, settings, attempt);
    throw errors.invalidUsernameOrPassword();
  }

  await recordSuccessfulLogin(db, settings, attempt);
  const id = newSessionId();
  const { lookup, hash } = hashSecret(id);
  await db.transaction().execute(async (tx) => {
    await insertSession(tx, { userId: account.user.id, lookup, secretHash: hash, now });
    await recordLastLogin(tx, account.user.id, now);
  });
  return { id, user: { ...account.user, lastLoginAt: now }, createdAt: now };
}

/**
 * DELETE /sessions: ends the session the id names. An unknown, already ended or missing id
 * changes nothing and is not an error (contract 3.2), so the answer tells a caller nothing.
 */
export async function logOut(db: Db, clock: Clock, sessionId: string | undefined): Promise<void> {
  if (sessionId === undefined) return;
  const { lookup, hash } = hashSecret(sessionId);
  const candidate = (await findSessionCandidates(db, lookup)).find((c) => hashesEqual(c.secretHash, hash));
  if (candidate === undefined || candidate.session.endedAt !== null) return;
  await endSession(db, candidate.session.id, clock.now());
}
