import { callerFromPassword } from '../access/index.js';
import { hashesEqual, hashSecret, newSessionId } from './secrets.js';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import { appendEvents } from '../history/index.js';
import type { Origin } from '../lib/origin.js';
import type { Clock } from '../lib/time.js';
import { endSession, findSessionCandidates, insertSession } from '../repositories/sessions.js';
import { recordLastLogin } from '../repositories/user-credentials.js';
import { findUserById, type User } from '../repositories/users.js';
import { admitAtDoor } from './door-admission-history.js';
import { errors } from '../errors/catalogue.js';
import type { SecretBox } from './secret-box.js';
import type { PasswordSignIn } from './sign-in.js';
import type { RelyingParty } from './relying-party.js';
import { signInWithPartialSession, signInWithPasskey, signInWithPassword, type SecondFactorAnswer, type SignInOutcome } from './two-factor-sign-in.js';
import { noteActivity } from './user-activity.js';

// Signing in and out have no caller yet (or none any more), so these take the database and the
// clock, or the moment, rather than a Call.

export interface NewSession {
  /** The session id: shown once, here; only its hash is stored. */
  id: string;
  user: User;
  createdAt: number;
}

/** How POST /sessions ended: a session, or the second factor it still needs (identity/two-factor-sign-in.ts). */
export type LogInOutcome = { kind: 'session'; session: NewSession } | Exclude<SignInOutcome, { kind: 'signed-in' }>;

export interface LogInRequest extends SecondFactorAnswer {
  /** Absent (or empty) when a partial session answers a challenge in its place. */
  username?: string | undefined;
  password?: string | undefined;
  /** A passkey's answer to the challenge (the console's browser's), sent with the partial session. */
  webauthn?: unknown;
  /** The site a passkey's answer must have been made for (http/relying-party.ts). */
  relyingParty: RelyingParty;
  clientIp: string;
  interface: PasswordSignIn['interface'];
  encrypted: boolean;
}

/**
 * POST /sessions (contract 3.2): a verified password sign-in (sign-in.ts, with its throttling and
 * its one answer for every failure) and its second factor when the user has one
 * (two-factor-sign-in.ts), then a session. One moment serves both, so the session's `created_at`
 * and the user's `last_login_at` are the time the login was attempted.
 */
export async function logIn(db: Db, clock: Clock, box: SecretBox, input: LogInRequest): Promise<LogInOutcome> {
  const now = clock.now();
  let user: User;
  const password = input.password ?? '';
  if (password === '' && input.partialSessionId !== undefined && input.partialSessionId !== '' && input.webauthn !== undefined) {
    user = await signInWithPasskey(db, now, { partialSessionId: input.partialSessionId, webauthn: input.webauthn, relyingParty: input.relyingParty, clientIp: input.clientIp, interface: input.interface });
  } else if (password === '' && input.partialSessionId !== undefined && input.partialSessionId !== '') {
    if (input.otp === undefined || input.otp === '') throw errors.paramsRequired({ otp: ['is required with partial_session_id: the code of the authenticator app, or a recovery code'] });
    user = await signInWithPartialSession(db, box, now, { partialSessionId: input.partialSessionId, otp: input.otp, clientIp: input.clientIp, interface: input.interface });
  } else {
    const missing = { ...(input.username === undefined ? { username: ['is required'] } : {}), ...(input.password === undefined ? { password: ['is required'] } : {}) };
    if (input.username === undefined || input.password === undefined) throw errors.paramsRequired(missing);
    const outcome = await signInWithPassword(db, box, now, { ...input, username: input.username, password });
    if (outcome.kind !== 'signed-in') return outcome;
    user = outcome.user;
  }
  return { kind: 'session', session: await openSession(db, now, user, input) };
}

/**
 * The session of a user whose sign-in is complete (by password and any second factor, or by the
 * enrolment a required second factor waited for), once the user's own settings let it in at the
 * REST API: a user whose settings close it (or this address) gets no session to use it with.
 */
export async function openSession(db: Db, now: number, user: User, at: { clientIp: string; interface: PasswordSignIn['interface']; encrypted: boolean }): Promise<NewSession> {
  const caller = callerFromPassword(user);
  await admitAtDoor(db, caller, 'rest', { ip: at.clientIp, encrypted: at.encrypted, interface: at.interface }, now);
  const session = await startSession(db, now, user);
  await noteActivity(db, caller, at.interface === 'web' ? 'web-login' : 'restapi-login', now);
  return session;
}

/**
 * A new session for a user a sign-in has just verified, and its `last_login_at`, in one
 * transaction. Checks nothing itself: call it only for a user a sign-in has just completed.
 */
export async function startSession(db: Db, now: number, user: User): Promise<NewSession> {
  const id = newSessionId();
  const { lookup, hash } = hashSecret(id);
  await db.transaction().execute(async (tx) => {
    await insertSession(tx, { userId: user.id, lookup, secretHash: hash, now });
    await recordLastLogin(tx, user.id, now);
  });
  return { id, user: { ...user, lastLoginAt: now }, createdAt: now };
}

/**
 * DELETE /sessions: ends the session the id names. An unknown, already ended or missing id
 * changes nothing and is not an error (contract 3.2), so the answer tells a caller nothing.
 */
export async function logOut(db: Db, clock: Clock, sessionId: string | undefined, origin: Origin): Promise<void> {
  if (sessionId === undefined) return;
  const { lookup, hash } = hashSecret(sessionId);
  const candidate = (await findSessionCandidates(db, lookup)).find((c) => hashesEqual(c.secretHash, hash));
  if (candidate === undefined || candidate.session.endedAt !== null) return;
  const user = await findUserById(db, candidate.session.userId);
  const now = clock.now();
  await inTransaction(db, async (tx) => {
    // Ended meanwhile by another request (a sign-out sent twice at once): that one's record.
    if (!(await endSession(tx, candidate.session.id, now))) return;
    const actor = { userId: candidate.session.userId, username: user?.username ?? null, apiKeyId: null };
    await appendEvents(tx, { now, origin, actor }, [
      { action: 'logout', workspaceId: user?.workspaceId ?? null, display: `${user?.username ?? 'A user'} signed out (${origin.interface})` },
    ]);
  });
}
