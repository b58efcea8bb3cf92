import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { SsoRefusal } from '../../sso/index.js';
import { PUBLIC_API_ROOT } from '../api-paths.js';
import { sessionCookie } from '../console/session-cookie.js';
import type { ApiInstance } from '../fastify-types.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses, RecordId } from '../schemas.js';
import { publicBaseUrl } from './files/transfer-urls.js';

// The console's sign-in with an OpenID Connect provider (docs/authentication.md#single-sign-on-openid-connect):
// browser navigations, not API calls. The start sends the browser to the provider; the callback
// signs the person in and sends the browser back to the console, with the session in the same
// HttpOnly cookie a password sign-in sets. Every decision is the sso feature's; this translates.

/** Below PUBLIC_API_ROOT. */
export const SSO_PATH = '/sso';
/** The path a provider sends the browser back to: the redirect URI to register at the provider. */
export const SSO_CALLBACK_PATH = `${PUBLIC_API_ROOT}${SSO_PATH}/callback`;
const FLOW_COOKIE = 'atrium_sso_flow';
// Flow secrets are hex; anything else in the cookie is not ours.
const FLOW_VALUE = /^[0-9a-f]{16,128}$/;
const FLOW_COOKIE_SECONDS = 10 * 60;

/** The redirect URI of this server, as the browser reaches it (ATRIUM_PUBLIC_URL when set). */
export function ssoRedirectUri(request: FastifyRequest): string {
  return `${publicBaseUrl(request)}${SSO_CALLBACK_PATH}`;
}

/**
 * The cookie that binds a flow to the browser that started it: HttpOnly, sent only to the SSO
 * paths, and SameSite=Lax because the callback is a top-level navigation from the provider's
 * site, which a Strict cookie would not reach.
 */
export function setFlowCookie(reply: FastifyReply, request: FastifyRequest, secret: string | undefined): void {
  reply.header('set-cookie', stringifySetCookie({
    name: FLOW_COOKIE,
    value: secret ?? '',
    path: `${PUBLIC_API_ROOT}${SSO_PATH}`,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    ...(secret === undefined ? { maxAge: 0, expires: new Date(0) } : { maxAge: FLOW_COOKIE_SECONDS }),
  }));
}

function flowSecret(request: FastifyRequest): string | undefined {
  if (request.headers.cookie === undefined) return undefined;
  const value = parseCookie(request.headers.cookie)[FLOW_COOKIE];
  return value !== undefined && FLOW_VALUE.test(value) ? value : undefined;
}

/** Back to the console's sign-in page, which says why in its own words (the code only). */
function refusedPage(refusal: SsoRefusal): string {
  const query = new URLSearchParams({ sso_error: refusal.code, next: refusal.returnTo });
  return `/sign-in?${query.toString()}`;
}

/** The console page a reauthentication goes back to, with its outcome when it failed. */
function withOutcome(returnTo: string, error: string | undefined): string {
  if (error === undefined) return returnTo;
  return `${returnTo}${returnTo.includes('?') ? '&' : '?'}sso_error=${encodeURIComponent(error)}`;
}

export function ssoSignInRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get(`${SSO_PATH}/providers`, {
    config: { public: true },
    schema: {
      summary: 'The sign-in providers the console\'s sign-in page offers ("Sign in with ...")',
      response: { 200: Type.Array(Type.Object({ id: Type.Integer(), label: Type.String() })), ...errorResponses },
    },
  }, async () => deps.sso.signInChoices());

  app.get(`${SSO_PATH}/providers/:provider/sign_in`, {
    config: { public: true },
    schema: {
      summary: 'Start signing in with a provider: redirects the browser to it (state, nonce and PKCE kept for the callback)',
      params: Type.Object({ provider: RecordId({ description: 'the provider\'s id' }) }),
      querystring: Type.Object({ next: Type.Optional(Type.String({ maxLength: 2048, description: 'the console page to go to after: a path of this site' })) }),
      response: { 303: Type.Null(), ...errorResponses },
    },
  }, async (request, reply) => {
    try {
      const started = await deps.sso.startSignIn(request.params.provider, ssoRedirectUri(request), request.query.next);
      setFlowCookie(reply, request, started.flowSecret);
      return reply.code(303).header('Location', started.authorizationUrl).header('Cache-Control', 'no-store').send(null);
    } catch (error) {
      if (!(error instanceof SsoRefusal)) throw error;
      request.log.warn({ sso: error.code, reason: error.message }, 'single sign-on refused');
      return reply.code(303).header('Location', refusedPage(error)).header('Cache-Control', 'no-store').send(null);
    }
  });

  app.get(`${SSO_PATH}/callback`, {
    config: { public: true },
    schema: {
      summary: 'Where the provider sends the browser back (the redirect URI to register): signs in and redirects to the console',
      // The provider's parameters (code, state, iss, error, ...) are read by openid-client as sent.
      querystring: Type.Object({
        code: Type.Optional(Type.String()), state: Type.Optional(Type.String()), iss: Type.Optional(Type.String()),
        error: Type.Optional(Type.String()), error_description: Type.Optional(Type.String()),
      }, { additionalProperties: true }),
      response: { 303: Type.Null(), ...errorResponses },
    },
  }, async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const secret = flowSecret(request);
    // The flow is used once, whatever happens next: its cookie goes.
    if (secret !== undefined) setFlowCookie(reply, request, undefined);
    reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
    try {
      const finished = await deps.sso.finish(secret, query, { interface: 'web', ip: request.ip }, request.protocol === 'https');
      if (finished.session !== undefined) reply.header('set-cookie', sessionCookie(finished.session.id, request.protocol === 'https'));
      return reply.code(303).header('Location', finished.returnTo).send(null);
    } catch (error) {
      if (!(error instanceof SsoRefusal)) throw error;
      request.log.warn({ sso: error.code, reason: error.message }, 'single sign-on refused');
      const location = error.code === 'reauthentication_failed' ? withOutcome(error.returnTo, error.code) : refusedPage(error);
      return reply.code(303).header('Location', location).send(null);
    }
  });
}
