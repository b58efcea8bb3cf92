import { generateAuthenticationOptions, verifyAuthenticationResponse, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import {
  findPasskeyByCredentialId, listPasskeysOfUser, recordPasskeyUse, setPartialSessionChallenge, takePartialSessionChallenge,
} from '../repositories/passkeys.js';
import { PASSKEY_CEREMONY_MS } from './passkeys.js';
import type { RelyingParty } from './relying-party.js';
import { asAuthenticationResponse } from './webauthn-responses.js';

// A passkey as the second step of a sign-in (docs/authentication.md#passkeys): after the password,
// the partial session is given a challenge, which the user's authenticator signs with one of the
// user's passkeys. Sign-in itself (POST /sessions and its partial session) is sessions.ts's; these
// answer only what the passkeys say.


/**
 * What the browser needs to sign the partial session's challenge with one of the user's passkeys
 * (only those: the browser offers no other). The challenge waits on the partial session for one
 * answer, replacing any earlier one. A user without a passkey is refused
 * (`two-factor-authentication-method-unsupported-error`); a partial session that is not live and
 * this user's is `invalid-session`.
 */
export async function passkeyAuthenticationOptions(db: Db, partialSessionId: number, userId: number, relyingParty: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const passkeys = await listPasskeysOfUser(db, userId);
  if (passkeys.length === 0) throw errors.noPasskeys();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty.id,
    allowCredentials: passkeys.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
    userVerification: 'preferred',
    timeout: PASSKEY_CEREMONY_MS,
  });
  if (!(await setPartialSessionChallenge(db, partialSessionId, userId, options.challenge))) throw errors.invalidSession();
  return options;
}

/**
 * Whether `response` is a valid answer to the partial session's challenge, signed by one of the
 * user's passkeys for this relying party, with a signature counter past the one last seen. The
 * challenge is taken first, so it counts once whatever the outcome. A verified answer moves the
 * passkey's counter and notes its use. Anything else is false: a malformed or foreign answer, an
 * unknown or another user's passkey, a replay, a counter gone backwards (a cloned authenticator).
 * Never throws on what the client sent.
 */
export async function verifyPasskeySignIn(db: Db, partialSessionId: number, userId: number, response: unknown, relyingParty: RelyingParty, now: number): Promise<boolean> {
  const challenge = await takePartialSessionChallenge(db, partialSessionId, userId, now);
  const answer = asAuthenticationResponse(response);
  if (challenge === undefined || answer === undefined) return false;
  const passkey = await findPasskeyByCredentialId(db, userId, answer.id);
  if (passkey === undefined) return false;
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response: answer,
      expectedChallenge: challenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      credential: { id: passkey.credentialId, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter, transports: passkey.transports },
      requireUserVerification: false,
    });
  } catch {
    return false;
  }
  if (!verified.verified) return false;
  return recordPasskeyUse(db, passkey.id, passkey.counter, verified.authenticationInfo.newCounter, now);
}
