import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { assertChangesOwnSecondFactors, type Caller } from '../../access/index.js';
import { errors } from '../../errors/catalogue.js';
import {
  confirmEnrolmentAndSignIn, confirmTotpEnrolment, type Enrolling, findEnrolment, openSession, regenerateRecoveryCodes, removeTotp,
  type PartialSession, requireReauthentication, startTotpEnrolment, twoFactorStatus,
} from '../../identity/index.js';
import type { User } from '../../directory/index.js';
import { readHeader } from '../brand-headers.js';
import { callOf } from '../call.js';
import { clearedPartialSessionCookie, consolePartialSessionId, isConsoleRequest, sessionCookie } from '../console/session-cookie.js';
import type { ApiInstance } from '../fastify-types.js';
import { asksForReauthentication } from '../openapi/route-markers.js';
import { originOf } from '../origin.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses } from '../schemas.js';
import { PasskeyBody, passkeyBody } from './passkey-body.js';
import { SessionBody, sessionBody } from './sessions.js';

export const PartialSessionField = Type.Optional(Type.String({
  maxLength: 256,
  description: 'The partial session of a sign-in the site requires two-factor authentication for (not-authorized/two-factor-authentication-required), when there is no session; the console sends its cookie instead',
}));

const StatusBody = Type.Object({
  required: Type.Boolean({ description: 'The site (or an administrator) requires the user to have a second factor' }),
  totp: Type.Boolean({ description: 'An authenticator app is set up' }),
  totp_pending: Type.Boolean({ description: 'An authenticator app is being set up, waiting for its first code' }),
  passkeys: Type.Array(PasskeyBody, { description: 'The user\'s passkeys, oldest first (docs/authentication.md#passkeys)' }),
  recovery_codes_left: Type.Integer({ description: 'Unused recovery codes' }),
  methods_allowed: Type.Array(Type.String(), { description: 'The second factors this site lets users set up: totp, webauthn' }),
});

const RecoveryCodesBody = Type.Object({
  recovery_codes: Type.Array(Type.String(), { description: 'Shown once: each signs in once in place of a code. Empty when the user already had codes' }),
  session: Type.Optional(SessionBody),
});

/** Who is setting up second factors, and how they came: with a session, or with an enrolment's partial session. */
export interface EnrollingRequest {
  enrolling: Enrolling;
  partial: PartialSession | undefined;
}

/**
 * The /2fa endpoints (an Atrium extension; Files.com sets these up in its web interface only):
 * a user's own authenticator app and recovery codes (docs/authentication.md#two-factor-authentication).
 * Open to the user's session, which reauthenticates for what removes or replaces, and to the
 * partial session of a sign-in whose site requires a second factor the user lacks: its first
 * confirmed factor completes that sign-in and answers the session.
 */
export function twoFactorRoutes(app: ApiInstance, deps: RouteDeps): void {
  // Authenticated by the hook as any route, or, asked without a credential, by an enrolment's partial session here.
  const config = { enrolment: true } as const;

  app.get('/2fa', {
    config,
    // No partial session in the query: a secret in a URL ends up in logs. The console's cookie carries it.
    schema: { summary: 'Show the caller\'s own second factors (Atrium extension)', querystring: Type.Object({}), response: { 200: StatusBody, ...errorResponses } },
  }, async (request) => {
    const { enrolling } = await enrollingOf(request, deps, undefined);
    const status = await twoFactorStatus(deps.db, enrolling.user);
    return { required: status.required, totp: status.totp, totp_pending: status.totpPending, passkeys: status.passkeys.map(passkeyBody), recovery_codes_left: status.recoveryCodesLeft, methods_allowed: status.methodsAllowed };
  });

  app.post('/2fa/totp', {
    config,
    schema: {
      ...asksForReauthentication,
      summary: 'Start setting up an authenticator app: a new secret and its otpauth:// address (Atrium extension)',
      body: Type.Object({ partial_session_id: PartialSessionField }),
      response: { 201: Type.Object({ secret: Type.String({ description: 'Base32, for typing into the app' }), otpauth_uri: Type.String({ description: 'For the app\'s QR code' }) }), ...errorResponses },
    },
  }, async (request, reply) => {
    const { enrolling, partial } = await enrollingOf(request, deps, request.body.partial_session_id);
    if (partial === undefined) await reauthenticate(request, deps);
    const started = await startTotpEnrolment(deps.db, deps.secretBox, enrolling);
    return reply.code(201).send({ secret: started.secret, otpauth_uri: started.uri });
  });

  app.post('/2fa/totp/confirm', {
    config,
    schema: {
      summary: 'Confirm the authenticator app with its first code; a first second factor comes with recovery codes (Atrium extension)',
      body: Type.Object({ otp: Type.String({ maxLength: 64 }), partial_session_id: PartialSessionField }),
      response: { 200: RecoveryCodesBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const { enrolling, partial } = await enrollingOf(request, deps, request.body.partial_session_id);
    if (partial === undefined) return { recovery_codes: (await confirmTotpEnrolment(deps.db, deps.secretBox, enrolling, request.body.otp)).recoveryCodes };
    return signInAfterEnrolment(request, reply, deps, partialSecretOf(request, request.body.partial_session_id), request.body.otp);
  });

  app.delete('/2fa/totp', {
    config,
    schema: { ...asksForReauthentication, summary: 'Remove the authenticator app (Atrium extension)', response: { 204: Type.Null(), ...errorResponses } },
  }, async (request, reply) => {
    const { enrolling } = await enrollingOf(request, deps, undefined, true);
    await reauthenticate(request, deps);
    await removeTotp(deps.db, enrolling);
    return reply.code(204).send(null);
  });

  app.post('/2fa/recovery_codes', {
    config,
    schema: {
      ...asksForReauthentication,
      summary: 'Make new recovery codes in place of the old ones (Atrium extension)',
      body: Type.Object({}),
      response: { 200: Type.Object({ recovery_codes: Type.Array(Type.String()) }), ...errorResponses },
    },
  }, async (request) => {
    const { enrolling } = await enrollingOf(request, deps, undefined, true);
    await reauthenticate(request, deps);
    return { recovery_codes: await regenerateRecoveryCodes(deps.db, enrolling) };
  });
}

/**
 * The user setting up second factors: the session's, or, when the request carries no credential,
 * the enrolment partial session's (sent as `partial_session_id`, or as the console's cookie).
 * `sessionOnly`: what removes or replaces takes a session.
 */
export async function enrollingOf(request: FastifyRequest, deps: RouteDeps, partialSessionId: string | undefined, sessionOnly = false): Promise<EnrollingRequest> {
  const now = deps.clock.now();
  const origin = originOf(request);
  // Without a credential the hook left no caller: the partial session it came with stands in.
  const caller = request.caller as Caller | undefined;
  if (caller === undefined) {
    const partialId = partialSessionId ?? consolePartialSessionId(request.headers);
    if (sessionOnly || partialId === undefined) throw errors.authenticationRequired();
    const { partial, user } = await findEnrolment(deps.db, partialId, now);
    return { enrolling: { user, keepSessionId: undefined, now, origin }, partial };
  }
  assertChangesOwnSecondFactors(caller);
  const keepSessionId = caller.credential.kind === 'session' ? caller.credential.sessionId : undefined;
  // assertChangesOwnSecondFactors has made sure of a user.
  return { enrolling: { user: caller.user!, keepSessionId, now, origin }, partial: undefined };
}

export async function reauthenticate(request: FastifyRequest, deps: RouteDeps): Promise<void> {
  await requireReauthentication(callOf(request, deps), readHeader(request.headers, deps.headers.reauthentication), 'action');
}

/** The partial session's id as the request carried it: in the body, or the console's cookie. */
export function partialSecretOf(request: FastifyRequest, sent: string | undefined): string {
  return sent ?? consolePartialSessionId(request.headers) ?? '';
}

/**
 * Confirms the authenticator app of a required enrolment and completes the sign-in it waited for;
 * answers the recovery codes and the session (a cookie for the console, as POST /sessions does).
 */
async function signInAfterEnrolment(request: FastifyRequest, reply: FastifyReply, deps: RouteDeps, secret: string, otp: string) {
  const now = deps.clock.now();
  const at = { clientIp: request.ip, interface: originOf(request).interface, encrypted: request.protocol === 'https', origin: originOf(request) };
  const { user, recoveryCodes } = await confirmEnrolmentAndSignIn(deps.db, deps.secretBox, now, secret, otp, at);
  return { recovery_codes: recoveryCodes, session: await sessionOfEnrolment(request, reply, deps, now, user) };
}

/** The session of a sign-in a required enrolment completed: a cookie for the console, as POST /sessions does, and its body. */
export async function sessionOfEnrolment(request: FastifyRequest, reply: FastifyReply, deps: RouteDeps, now: number, user: User) {
  const at = { clientIp: request.ip, interface: originOf(request).interface, encrypted: request.protocol === 'https' };
  const session = await openSession(deps.db, now, user, at);
  const inCookie = isConsoleRequest(request.headers);
  if (inCookie) reply.header('set-cookie', [sessionCookie(session.id, at.encrypted), clearedPartialSessionCookie(at.encrypted)]);
  return sessionBody(session, inCookie);
}
