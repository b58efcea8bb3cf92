import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  addPasskey, addPasskeyAndSignIn, type ConfirmIdentity, listPasskeys, passkeyHolder, passkeyRegistrationOptions, removePasskeyOf, renamePasskeyOf,
} from '../../identity/index.js';
import type { ApiInstance } from '../fastify-types.js';
import { asksForReauthentication } from '../openapi/route-markers.js';
import { relyingPartyOf } from '../relying-party.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses, IdParams } from '../schemas.js';
import { PasskeyBody, passkeyBody } from './passkey-body.js';
import { originOf } from '../origin.js';
import { SessionBody } from './sessions.js';
import { enrollingOf, PartialSessionField, partialSecretOf, reauthenticate, sessionOfEnrolment } from './two-factor.js';

/** A name people tell their passkeys apart by: some visible character, no control characters. */
const Name = Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$' });
const Base64url = (description: string) => Type.String({ maxLength: 65_536, description });

/** The browser's PublicKeyCredential as JSON (@simplewebauthn/browser's startRegistration answers it). */
const RegistrationResponse = Type.Object({
  id: Base64url('The credential id'),
  rawId: Base64url('The credential id again'),
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: Base64url('base64url'),
    attestationObject: Base64url('base64url'),
    transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 16 })),
  }),
  clientExtensionResults: Type.Optional(Type.Object({})),
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
}, { description: "The browser's answer to the options: the PublicKeyCredential as JSON, as @simplewebauthn/browser's startRegistration gives it" });

/** WebAuthn's creation options, as @simplewebauthn/browser's startRegistration takes them. */
const CreationOptions = Type.Object({
  rp: Type.Object({ id: Type.Optional(Type.String()), name: Type.String() }),
  user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
  challenge: Type.String(),
  pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Integer(), type: Type.String() })),
  timeout: Type.Optional(Type.Integer()),
  excludeCredentials: Type.Optional(Type.Array(Type.Object({ id: Type.String(), type: Type.String(), transports: Type.Optional(Type.Array(Type.String())) }))),
  authenticatorSelection: Type.Optional(Type.Object({
    authenticatorAttachment: Type.Optional(Type.String()),
    requireResidentKey: Type.Optional(Type.Boolean()),
    residentKey: Type.Optional(Type.String()),
    userVerification: Type.Optional(Type.String()),
  })),
  hints: Type.Optional(Type.Array(Type.String())),
  attestation: Type.Optional(Type.String()),
  extensions: Type.Optional(Type.Object({ credProps: Type.Optional(Type.Boolean()) })),
}, { description: 'PublicKeyCredentialCreationOptionsJSON: hand it to navigator.credentials.create (with @simplewebauthn/browser, startRegistration({ optionsJSON }))' });

const NoContent = { 204: Type.Null({ description: 'No content' }) };

const AddedPasskeyBody = Type.Object({
  ...PasskeyBody.properties,
  recovery_codes: Type.Array(Type.String(), { description: 'Shown once: each signs in once in place of a second factor. Empty when the user already had codes' }),
  session: Type.Optional(SessionBody),
});

/**
 * Passkeys, a second factor (docs/authentication.md#passkeys): each user manages its own, with
 * its session, or, while a site that requires a second factor leads it through its sign-in, with
 * that enrolment's partial session (two-factor.ts's rule). A session reauthenticates to start a
 * registration and to remove a passkey; the registration's answer is bound to the challenge that
 * reauthenticated start issued. A first second factor added with an enrolment's partial session
 * completes that sign-in and answers the session, as an authenticator app's confirmation does.
 */
export function twoFactorPasskeyRoutes(app: ApiInstance, deps: RouteDeps): void {
  // Authenticated by the hook as any route, or, asked without a credential, by an enrolment's partial session (two-factor.ts).
  const config = { enrolment: true } as const;
  const holderOf = async (request: FastifyRequest, partialSessionId: string | undefined, sessionOnly = false) => {
    const { enrolling, partial } = await enrollingOf(request, deps, partialSessionId, sessionOnly);
    const confirm: ConfirmIdentity = partial === undefined ? () => reauthenticate(request, deps) : async () => undefined;
    return { holder: passkeyHolder(deps.db, enrolling, partial?.id, confirm), enrolling, partial };
  };

  app.post('/2fa/passkeys/options', {
    config,
    schema: {
      ...asksForReauthentication,
      summary: 'Start adding a passkey: the options for the browser to create one (Atrium extension)',
      description: 'The challenge in them waits five minutes for one answer (POST /2fa/passkeys). The user\'s own passkeys are excluded. '
        + 'Refused while the site setting allowed_2fa_method_webauthn is off. With an enrolment\'s partial session, no reauthentication.',
      body: Type.Object({ partial_session_id: PartialSessionField }),
      response: { 200: CreationOptions, ...errorResponses },
    },
  }, async (request) => {
    const { holder } = await holderOf(request, request.body.partial_session_id);
    return passkeyRegistrationOptions(holder, relyingPartyOf(request));
  });

  app.post('/2fa/passkeys', {
    config,
    schema: {
      summary: 'Add a passkey: the browser\'s answer to the options (Atrium extension)',
      description: 'Verified against the challenge of the options (once, whatever the outcome), this site\'s origin and host name. '
        + 'Ends the user\'s other sessions. A user without recovery codes gets them here, once; with an enrolment\'s partial session, '
        + 'the sign-in it waited for completes and the session is in the answer (for the console, as a cookie).',
      body: Type.Object({ name: Type.Optional(Type.String({ ...Name, default: 'Passkey' })), response: RegistrationResponse, partial_session_id: PartialSessionField }),
      response: { 201: AddedPasskeyBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const { holder, enrolling, partial } = await holderOf(request, request.body.partial_session_id);
    const input = { name: request.body.name ?? 'Passkey', response: request.body.response };
    if (partial === undefined) {
      const added = await addPasskey(holder, input, relyingPartyOf(request));
      return reply.code(201).send({ ...passkeyBody(added.passkey), recovery_codes: added.recoveryCodes });
    }
    const at = { clientIp: request.ip, interface: originOf(request).interface, origin: originOf(request) };
    const secret = partialSecretOf(request, request.body.partial_session_id);
    const { user, added } = await addPasskeyAndSignIn(holder, secret, input, relyingPartyOf(request), at);
    const session = await sessionOfEnrolment(request, reply, deps, enrolling.now, user);
    return reply.code(201).send({ ...passkeyBody(added.passkey), recovery_codes: added.recoveryCodes, session });
  });

  app.get('/2fa/passkeys', {
    config,
    schema: {
      summary: 'List the caller\'s own passkeys, oldest first (Atrium extension)',
      // No partial session in the query: a secret in a URL ends up in logs. The console's cookie carries it.
      querystring: Type.Object({}),
      response: { 200: Type.Array(PasskeyBody), ...errorResponses },
    },
  }, async (request) => (await listPasskeys((await holderOf(request, undefined)).holder)).map(passkeyBody));

  app.patch('/2fa/passkeys/:id', {
    config,
    schema: { summary: 'Rename one of the caller\'s passkeys (Atrium extension)', params: IdParams, body: Type.Object({ name: Name }), response: { 200: PasskeyBody, ...errorResponses } },
  }, async (request) => passkeyBody(await renamePasskeyOf((await holderOf(request, undefined, true)).holder, request.params.id, request.body.name)));

  app.delete('/2fa/passkeys/:id', {
    config,
    schema: {
      ...asksForReauthentication,
      summary: 'Remove one of the caller\'s passkeys (Atrium extension)',
      description: 'Ends the user\'s other sessions; with no second factor left, the recovery codes go too.',
      params: IdParams,
      body: Type.Unknown({ description: 'Ignored.' }),
      response: { ...NoContent, ...errorResponses },
    },
  }, async (request, reply) => {
    await removePasskeyOf((await holderOf(request, undefined, true)).holder, request.params.id);
    return reply.code(204).send(null);
  });
}
