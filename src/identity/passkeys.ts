import {
  generateRegistrationOptions, verifyRegistrationResponse, type PublicKeyCredentialCreationOptionsJSON,
} from '@simplewebauthn/server';
import type { Db } from '../db/database.js';
import { lockAndRead } from '../db/serialise.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { appendEvents } from '../history/index.js';
import {
  deletePasskey, findPasskeyOfUser, insertPasskey, listPasskeysOfUser, renamePasskey,
  setPartialSessionChallenge, setSessionChallenge, takePartialSessionChallenge, takeSessionChallenge, type Passkey,
} from '../repositories/passkeys.js';
import { refusingDuplicates } from '../repositories/constraint-errors.js';
import { endSessionsOfUser } from '../repositories/sessions.js';
import { countUnusedRecoveryCodes, deleteRecoveryCodes } from '../repositories/recovery-codes.js';
import type { User } from '../repositories/users.js';
import { passkeyEvent } from './passkey-history.js';
import { issueRecoveryCodes } from './recovery-codes.js';
import type { ConfirmIdentity } from './reauthentication.js';
import type { RelyingParty } from './relying-party.js';
import { readSiteSettings } from './site-settings.js';
import { type Enrolling, recordingOf } from './two-factor-enrolment.js';
import { hasSecondFactor, secondFactorsOf } from './two-factor-policy.js';
import { asRegistrationResponse } from './webauthn-responses.js';

// Passkeys as a second factor (docs/authentication.md#passkeys): a user registers WebAuthn
// credentials for its own account, from the web console, and answers a sign-in's challenge with one
// after its password. Each is managed by its own user only: an administrator who must take a
// user's second factors away resets them all (clearSecondFactors, the 2FA reset).

/** How long a registration's challenge may wait for its answer; the browser is told the same. */
export const PASSKEY_CEREMONY_MS = 5 * 60_000;

/** Enough for every device a person keeps, and a bound on what one account may store. */
export const MAX_PASSKEYS_PER_USER = 25;

/**
 * The user who manages its passkeys (two-factor-enrolment.ts's Enrolling: with a session, or with
 * the partial session of an enrolment the site requires), where its registration challenge waits
 * (on the session, or on that partial session), and how it confirms a change: a session asks for
 * the password again; an enrolment's password was given moments ago, for it alone.
 */
export interface PasskeyHolder {
  db: Db;
  enrolling: Enrolling;
  challenge: {
    issue(db: Db, challenge: string): Promise<void>;
    take(db: Db): Promise<string | undefined>;
  };
  confirmIdentity: ConfirmIdentity;
}

/**
 * The holder of a user with a session (`enrolling.keepSessionId`), or with the live enrolment
 * partial session `partialSessionId`, which the caller has found this user's. The route decides
 * which (access/second-factor-authority.ts), and how the identity is confirmed.
 */
export function passkeyHolder(db: Db, enrolling: Enrolling, partialSessionId: number | undefined, confirmIdentity: ConfirmIdentity): PasskeyHolder {
  const { user, keepSessionId: sessionId, now } = enrolling;
  if (partialSessionId !== undefined) {
    return {
      db,
      enrolling,
      challenge: {
        issue: async (tx, challenge) => {
          if (!(await setPartialSessionChallenge(tx, partialSessionId, user.id, challenge))) throw errors.partialSessionExpired();
        },
        take: (tx) => takePartialSessionChallenge(tx, partialSessionId, user.id, now),
      },
      confirmIdentity,
    };
  }
  if (sessionId === undefined) throw errors.secondFactorsNeedSession();
  return {
    db,
    enrolling,
    challenge: {
      issue: (tx, challenge) => setSessionChallenge(tx, sessionId, challenge, now + PASSKEY_CEREMONY_MS),
      take: (tx) => takeSessionChallenge(tx, sessionId, now),
    },
    confirmIdentity,
  };
}

/** Whether the site lets its users add passkeys (the site setting allowed_2fa_method_webauthn). */
async function passkeysAllowed(db: Db): Promise<boolean> {
  return (await readSiteSettings(db)).allowed_2fa_method_webauthn;
}

/**
 * POST /2fa/passkeys/options: what the browser needs to create a passkey for this site. The
 * user's own passkeys are excluded, so an authenticator that holds one already says so instead of
 * making a second. The challenge waits where the holder keeps it, for one answer.
 */
export async function passkeyRegistrationOptions(holder: PasskeyHolder, relyingParty: RelyingParty): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const settings = await readSiteSettings(holder.db);
  if (!settings.allowed_2fa_method_webauthn) throw errors.twoFactorMethodNotAllowed('passkeys');
  const existing = await listPasskeysOfUser(holder.db, holder.enrolling.user.id);
  if (existing.length >= MAX_PASSKEYS_PER_USER) throw tooManyPasskeys();
  await holder.confirmIdentity('action');
  const options = await generateRegistrationOptions({
    rpName: settings.name,
    rpID: relyingParty.id,
    userName: holder.enrolling.user.username,
    userDisplayName: holder.enrolling.user.name === '' ? holder.enrolling.user.username : holder.enrolling.user.name,
    userID: userHandleOf(holder.enrolling.user),
    timeout: PASSKEY_CEREMONY_MS,
    // Which authenticator made a passkey is not asked: a second factor needs a key, not a make.
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await holder.challenge.issue(holder.db, options.challenge);
  return options;
}

/**
 * The user handle an authenticator stores with a discoverable passkey: the same for every passkey
 * of one user (an authenticator replaces its passkey for a user rather than adding another), and
 * no name or address (WebAuthn asks for none in it).
 */
function userHandleOf(user: User): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`atrium-user-${user.id}`);
}

export interface NewPasskeyInput {
  name: string;
  /** The browser's answer to the options (@simplewebauthn/browser's startRegistration). */
  response: unknown;
}

/** A passkey added, and the recovery codes that come with a user's first (empty when it had codes). */
export interface AddedPasskey {
  passkey: Passkey;
  recoveryCodes: string[];
}

/** A registration answer verified against its challenge, not yet stored. */
export interface VerifiedPasskey {
  name: string;
  credential: { id: string; publicKey: Uint8Array; counter: number; transports?: string[] | undefined };
  aaguid: string;
  backedUp: boolean;
}

/**
 * POST /2fa/passkeys: the browser's answer to the options, verified against the challenge that
 * waited for it (taken, so it counts once whatever the outcome), then stored. Adding a second
 * factor ends the user's other sessions, as a password change does: whoever else was signed in
 * signs in again, now with it. A user without recovery codes gets them now, shown once, as when
 * an authenticator app is confirmed.
 */
export async function addPasskey(holder: PasskeyHolder, input: NewPasskeyInput, relyingParty: RelyingParty): Promise<AddedPasskey> {
  return storePasskey(holder.db, holder.enrolling, await verifyNewPasskey(holder, input, relyingParty));
}

/**
 * The answer checked and its challenge taken, on the holder's own database handle, never inside a
 * caller's transaction: a refused answer must not roll the challenge's taking back, or the same
 * challenge could be answered again.
 */
export async function verifyNewPasskey(holder: PasskeyHolder, input: NewPasskeyInput, relyingParty: RelyingParty): Promise<VerifiedPasskey> {
  if (!(await passkeysAllowed(holder.db))) throw errors.twoFactorMethodNotAllowed('passkeys');
  const response = asRegistrationResponse(input.response);
  if (response === undefined) throw errors.paramsInvalid({ response: ['is not the answer of a browser to passkey registration options (the PublicKeyCredential as JSON)'] });
  const challenge = await holder.challenge.take(holder.db);
  if (challenge === undefined) throw errors.passkeyRegistrationNotWaiting();
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      requireUserVerification: false,
    });
  } catch (error) {
    throw errors.passkeyNotVerified(error instanceof Error ? error.message : 'the answer is malformed');
  }
  if (!verified.verified) throw errors.passkeyNotVerified('the attestation does not hold');
  const { credential, aaguid, credentialBackedUp } = verified.registrationInfo;
  return { name: input.name, credential, aaguid, backedUp: credentialBackedUp };
}

/** Stores a verified passkey for `enrolling.user`, in one transaction (`db`'s, or a new one). */
export async function storePasskey(db: Db, enrolling: Enrolling, verified: VerifiedPasskey): Promise<AddedPasskey> {
  const { user, now } = enrolling;
  const { credential } = verified;
  // A credential registered already (here or by another user) is refused by its unique index.
  return refusingDuplicates(() => inTransaction(db, async (tx) => {
    if ((await listPasskeysOfUser(tx, user.id)).length >= MAX_PASSKEYS_PER_USER) throw tooManyPasskeys();
    const hadCodes = (await countUnusedRecoveryCodes(tx, user.id)) > 0;
    const passkey = await insertPasskey(tx, {
      userId: user.id,
      name: verified.name,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: (credential.transports ?? []).filter((transport) => /^[a-z-]{1,32}$/.test(transport)),
      aaguid: verified.aaguid === NO_AAGUID ? null : verified.aaguid,
      backedUp: verified.backedUp,
      now,
    });
    const recoveryCodes = hadCodes ? [] : await issueRecoveryCodes(tx, user.id, now);
    await endSessionsOfUser(tx, user.id, now, enrolling.keepSessionId);
    await appendEvents(tx, recordingOf(enrolling), [passkeyEvent('two_factor_create', user, passkey)]);
    return { passkey, recoveryCodes };
  }), duplicatePasskey);
}

/** An authenticator that does not say its model answers zeros. */
const NO_AAGUID = '00000000-0000-0000-0000-000000000000';

function duplicatePasskey(): Error {
  return errors.modelSaveError({ response: ['is a passkey already registered'] });
}

function tooManyPasskeys(): Error {
  return errors.modelSaveError({ passkeys: [`may be at most ${MAX_PASSKEYS_PER_USER} for one user: remove one first`] });
}

/** GET /2fa/passkeys: the user's own passkeys, oldest first. */
export function listPasskeys(holder: PasskeyHolder): Promise<Passkey[]> {
  return listPasskeysOfUser(holder.db, holder.enrolling.user.id);
}

/** One of the user's own passkeys; another user's is not found, as a missing one. */
export async function findPasskey(holder: PasskeyHolder, id: number): Promise<Passkey> {
  const passkey = await findPasskeyOfUser(holder.db, holder.enrolling.user.id, id);
  if (passkey === undefined) throw errors.passkeyNotFound();
  return passkey;
}

/** PATCH /2fa/passkeys/<id>: the name only. A name is no credential: no password is asked. */
export async function renamePasskeyOf(holder: PasskeyHolder, id: number, name: string): Promise<Passkey> {
  return inTransaction(holder.db, async (tx) => {
    // Compared with the name as it is now: of identical renames at once, only the first renames.
    const current = await lockAndRead(tx, 'user_passkeys', id, (db, passkeyId) => findPasskeyOfUser(db, holder.enrolling.user.id, passkeyId));
    if (current === undefined) throw errors.passkeyNotFound();
    if (current.name === name) return current;
    await renamePasskey(tx, id, name);
    const renamed = { ...current, name };
    await appendEvents(tx, recordingOf(holder.enrolling), [passkeyEvent('two_factor_update', holder.enrolling.user, renamed, current)]);
    return renamed;
  });
}

/**
 * DELETE /2fa/passkeys/<id>: the passkey signs in no more. Asks a session for its password again,
 * and ends the user's other sessions, as adding one does. With no second factor left, the
 * recovery codes go too, as when the authenticator app is removed.
 */
export async function removePasskeyOf(holder: PasskeyHolder, id: number): Promise<void> {
  await findPasskey(holder, id);
  await holder.confirmIdentity('action');
  await inTransaction(holder.db, async (tx) => {
    // Removed meanwhile by another request (the same removal sent twice at once): not found.
    const current = await lockAndRead(tx, 'user_passkeys', id, (db, passkeyId) => findPasskeyOfUser(db, holder.enrolling.user.id, passkeyId));
    if (current === undefined || !(await deletePasskey(tx, id))) throw errors.passkeyNotFound();
    if (!hasSecondFactor(await secondFactorsOf(tx, holder.enrolling.user.id))) await deleteRecoveryCodes(tx, holder.enrolling.user.id);
    await endSessionsOfUser(tx, holder.enrolling.user.id, holder.enrolling.now, holder.enrolling.keepSessionId);
    await appendEvents(tx, recordingOf(holder.enrolling), [passkeyEvent('two_factor_destroy', holder.enrolling.user, current)]);
  });
}

