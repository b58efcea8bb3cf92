import { Type } from 'typebox';
import { isoTime } from '../../lib/time.js';
import { logIn, logOut } from '../../identity/index.js';
import { readHeader } from '../brand-headers.js';
import { originOf } from '../origin.js';
import { clearedSessionCookie, consoleSessionId, isConsoleRequest, sessionCookie } from '../console/session-cookie.js';
import type { ApiInstance } from '../fastify-types.js';
import type { RouteDeps } from '../route-deps.js';
import { readsSessionHeader } from '../openapi/route-markers.js';
import { errorResponses } from '../schemas.js';

const SessionBody = Type.Object({
  id: Type.String({ description: 'The session id: send it as X-<Brand>API-Auth. Shown only here.' }),
  user_id: Type.Integer(),
  username: Type.String(),
  workspace_id: Type.Integer(),
  created_at: Type.String(),
  read_only: Type.Boolean(),
});

/**
 * POST and DELETE /sessions (contract 3.2). Both are public: a login has no credential yet, and
 * the JS SDK sends a stale session header with it, which must not stand in its way; a logout
 * reads the session header itself and answers `[]` whatever it finds.
 */
export function sessionRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.post('/sessions', {
    config: { public: true },
    schema: {
      summary: 'Log in: create a session from a username and password',
      security: [],
      // otp, partial_session_id and anything else the SDKs send are accepted and ignored.
      body: Type.Object({ username: Type.String({ maxLength: 1024 }), password: Type.String({ maxLength: 4096 }) }),
      response: { 201: SessionBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const session = await logIn(deps.db, deps.clock, { username: request.body.username, password: request.body.password, clientIp: request.ip, interface: originOf(request).interface, encrypted: request.protocol === 'https' });
    // The console gets its session as an HttpOnly cookie, and no id its scripts could leak.
    const inCookie = isConsoleRequest(request.headers);
    if (inCookie) reply.header('set-cookie', sessionCookie(session.id, request.protocol === 'https'));
    return reply.code(201).send({
      id: inCookie ? '' : session.id,
      user_id: session.user.id,
      username: session.user.username,
      workspace_id: session.user.workspaceId,
      created_at: isoTime(session.createdAt),
      read_only: false,
    });
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
