import type { FastifyRequest } from 'fastify';
import type { Clock } from '../lib/time.js';
import type { Db } from '../db/database.js';
import { admitAtDoor, authenticate, noteActivity } from '../identity/index.js';
import { assertCredentialReaches, assertPasswordChangeAllows, pathFrameOf, resolveRequestWorkspace } from '../access/index.js';
import { readHeader, type BrandHeaders } from './brand-headers.js';
import { isConsoleRequest } from './console/session-cookie.js';
import { originOf } from './origin.js';
import { readCredentials } from './credentials.js';
import { assertCredentialHeadersRead } from './unread-credential-headers.js';
import { assertWorkspaceHeaderSpelling } from './workspace-header-spelling.js';

/**
 * Runs before every non-public API route: who is calling, which Workspace the request operates
 * on, and whether the credential reaches the route's kind of operation (access/ decides). It
 * decides no authority; features do, from current data.
 */
export function authenticationHook(db: Db, clock: Clock, headers: BrandHeaders) {
  return async function authenticateRequest(request: FastifyRequest): Promise<void> {
    const config = request.routeOptions.config;
    if (config.public === true) return;
    const credentials = readCredentials(request.headers, headers);
    // A route open to a required enrolment's partial session, asked without a credential: the
    // route resolves the partial session itself (http/routes/two-factor.ts).
    if (config.enrolment === true && credentials.sessionId === undefined && credentials.apiKey === undefined) return;
    assertCredentialHeadersRead(request.headers, headers, credentials);
    const caller = await authenticate(db, clock, credentials);
    // The account's own settings (an end date, allowed addresses, HTTPS, the REST API flag): access/ decides.
    await admitAtDoor(db, caller, 'rest', { ip: request.ip, encrypted: request.protocol === 'https', interface: originOf(request).interface }, clock.now());
    // A session whose user must change its password reaches only what serves the change.
    assertPasswordChangeAllows(caller, config.duringPasswordChange, routeUserId(request.params));
    request.caller = caller;
    // The user's activity times: a write at most once a minute per user, not one per request.
    await noteActivity(db, caller, isConsoleRequest(request.headers) ? 'web-use' : 'api-use', clock.now());
    assertWorkspaceHeaderSpelling(request.headers, headers);
    request.requestWorkspaceId = await resolveRequestWorkspace(db, caller, readHeader(request.headers, headers.workspace));
    // A Partner user names and is shown paths below its Partner's root folder; read here, once per request.
    if (caller.user?.partnerId !== null && caller.user?.partnerId !== undefined) request.pathFrame = await pathFrameOf(db, caller, request.requestWorkspaceId);
    assertCredentialReaches(caller, config.operation ?? 'administration');
  };
}

/** The user a `/users/:id` route names, as the password-change gate compares it with the caller. */
function routeUserId(params: unknown): number | undefined {
  const id = (params as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && /^\d{1,15}$/.test(id) ? Number(id) : undefined;
}
