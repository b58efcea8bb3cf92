import { Type } from 'typebox';
import { isoTime } from '../../lib/time.js';
import { logIn, logOut, type NewSession, passkeySignInOptions } from '../../identity/index.js';
import { readHeader } from '../brand-headers.js';
import { originOf } from '../origin.js';
import { errors } from '../../errors/catalogue.js';
import {
  clearedPartialSessionCookie, clearedSessionCookie, consolePartialSessionId, consoleSessionId, isConsoleRequest, partialSessionCookie, sessionCookie,
} from '../console/session-cookie.js';
import type { ApiInstance } from '../fastify-types.js';
import type { RouteDeps } from '../route-deps.js';
import { readsSessionHeader } from '../openapi/route-markers.js';
import { relyingPartyOf } from '../relying-party.js';
import { errorResponses } from '../schemas.js';

export const SessionBody = Type.Object({
  id: Type.String({ description: 'The session id: send it as X-<Brand>API-Auth. Shown only here.' }),
  user_id: Type.Integer(),
  username: Type.String(),
  workspace_id: Type.Integer(),
  created_at: Type.String(),
  read_only: Type.Boolean(),
});

/** WebAuthn's request options, as @simplewebauthn/browser's startAuthentication takes them. */
const RequestOptions = Type.Object({
  challenge: Type.String(),
  rpId: Type.Optional(Type.String()),
  timeout: Type.Optional(Type.Integer()),
  allowCredentials: Type.Optional(Type.Array(Type.Object({ id: Type.String(), type: Type.String(), transports: Type.Optional(Type.Array(Type.String())) }))),
  userVerification: Type.Optional(Type.String()),
  hints: Type.Optional(Type.Array(Type.String())),
  extensions: Type.Optional(Type.Object({})),
}, { description: 'PublicKeyCredentialRequestOptionsJSON' });

/** A new session as the API shows it; the console's has no id, which it holds as a cookie its scripts cannot read. */
export function sessionBody(session: NewSession, inCookie: boolean) {
  return {
    id: inCookie ? '' : session.id,
    user_id: session.user.id,
    username: session.user.username,
    workspace_id: session.user.workspaceId,
    created_at: isoTime(session.createdAt),
    read_only: false,
  };
}

/**
 * POST and DELETE /sessions (contract 3.2). Both are public: a login has no credential yet, and
 * the JS SDK sends a stale session header with it, which must not stand in its way; a logout
 * reads the session header itself and answers `[]` whatever it finds.
 */
export function sessionRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.post('/sessions', {
    config: { public: true },
    schema: {
      summary: 'Log in: create a session from a username and password, and the second factor when the user has one',
      description: 'A user with two-factor authentication is answered 401 not-authenticated/two-factor-authentication-error with data.partial_session_id and '
        + 'data.two_factor_authentication_methods; send the code as otp, with the username and password again or with partial_session_id '
        + '(docs/authentication.md#the-challenge). A user the site requires to have a second factor, who has none, is answered 403 '
        + 'not-authorized/two-factor-authentication-required with a partial_session_id that opens only the /2fa enrolment endpoints.',
      security: [],
      // Anything else the SDKs send is accepted and ignored.
      body: Type.Object({
        username: Type.Optional(Type.String({ maxLength: 1024 })),
        password: Type.Optional(Type.String({ maxLength: 4096 })),
        otp: Type.Optional(Type.String({ maxLength: 64, description: 'The code of the authenticator app, or a recovery code' })),
        partial_session_id: Type.Optional(Type.String({ maxLength: 256, description: 'From a two-factor challenge: sent with otp instead of the password' })),
        webauthn: Type.Optional(Type.Object({}, {
          description: 'Atrium\'s own, for the web console: a passkey\'s answer to POST /sessions/passkey_options (the browser\'s PublicKeyCredential as JSON), '
            + 'sent with the partial session instead of otp (docs/authentication.md#passkeys)',
        })),
      }),
      response: { 201: SessionBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const inCookie = isConsoleRequest(request.headers);
    const secure = request.protocol === 'https';
    const { body } = request;
    const outcome = await logIn(deps.db, deps.clock, deps.secretBox, {
      username: body.username,
      password: body.password,
      otp: body.otp,
      // The console's partial session is its cookie: its scripts never see the id.
      partialSessionId: body.partial_session_id ?? (inCookie ? consolePartialSessionId(request.headers) : undefined),
      fromConsole: inCookie,
      webauthn: body.webauthn,
      relyingParty: relyingPartyOf(request),
      clientIp: request.ip,
      interface: originOf(request).interface,
      encrypted: secure,
    });
    if (outcome.kind !== 'session') {
      // The console's old session cookie goes too: a stale one (an idle session the browser kept)
      // would stand before the partial session at the enrolment endpoints, which prefer a session.
      if (inCookie) reply.header('set-cookie', [partialSessionCookie(outcome.partialSessionId, secure), clearedSessionCookie(secure)]);
      const partialSessionId = inCookie ? '' : outcome.partialSessionId;
      throw outcome.kind === 'challenge'
        ? errors.twoFactorChallenge({ partial_session_id: partialSessionId, two_factor_authentication_methods: outcome.methods })
        : errors.twoFactorRequired({ partial_session_id: partialSessionId });
    }
    const { session } = outcome;
    // The console gets its session as an HttpOnly cookie, and no id its scripts could leak.
    if (inCookie) reply.header('set-cookie', [sessionCookie(session.id, secure), clearedPartialSessionCookie(secure)]);
    return reply.code(201).send(sessionBody(session, inCookie));
  });

  app.post('/sessions/passkey_options', {
    config: { public: true },
    schema: {
      summary: 'Ask for the options to answer a two-factor challenge with a passkey (Atrium extension, for the web console)',
      description: 'For the partial session of a challenge that offered webauthn (the console sends its cookie): the options for the browser\'s '
        + 'navigator.credentials.get (or startAuthentication of @simplewebauthn/browser), allowing only the user\'s passkeys. Their challenge waits '
        + 'for one answer, sent as webauthn to POST /sessions; asking again replaces it.',
      security: [],
      body: Type.Object({ partial_session_id: Type.Optional(Type.String({ maxLength: 256, description: 'From the challenge; the console sends its cookie instead' })) }),
      response: { 200: RequestOptions, ...errorResponses },
    },
  }, async (request) => {
    const partialSessionId = request.body.partial_session_id ?? (isConsoleRequest(request.headers) ? consolePartialSessionId(request.headers) : undefined);
    if (partialSessionId === undefined) throw errors.paramsRequired({ partial_session_id: ['is required: the partial session of the challenge'] });
    return passkeySignInOptions(deps.db, deps.clock.now(), partialSessionId, relyingPartyOf(request));
  });

  app.delete('/sessions', {
    config: { public: true },
    schema: {
      ...readsSessionHeader,
      summary: 'Log out: end the session named by the session header; always answers []',
      security: [],
      body: Type.Unknown({ description: 'Ignored.' }),
      response: { 200: Type.Array(Type.Unknown(), { maxItems: 0 }), ...errorResponses },
    },
  }, async (request, reply) => {
    await logOut(deps.db, deps.clock, readHeader(request.headers, deps.headers.session) ?? consoleSessionId(request.headers), originOf(request));
    if (isConsoleRequest(request.headers)) reply.header('set-cookie', clearedSessionCookie(request.protocol === 'https'));
    return [];
  });
}
