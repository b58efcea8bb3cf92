import type { FastifyRequest } from 'fastify';
import type { Call } from '../access/index.js';
import { identityConfirmation, type ConfirmIdentity } from '../identity/index.js';
import { readHeader } from './brand-headers.js';
import { originOf } from './origin.js';
import type { RouteDeps } from './route-deps.js';

/** Who acts, where, and when: what every Workspace-scoped service call takes. */
export function callOf(request: FastifyRequest, deps: RouteDeps): Call {
  return {
    db: deps.db, caller: request.caller, requestWorkspaceId: request.requestWorkspaceId, now: deps.clock.now(), origin: originOf(request),
    ...(request.pathFrame === undefined ? {} : { frame: request.pathFrame }),
  };
}

/** Confirms the session user's identity from the request's reauthentication header when a service asks (contract 3.3). */
export function confirmIdentity(request: FastifyRequest, deps: RouteDeps, a: Call): ConfirmIdentity {
  return identityConfirmation(a, readHeader(request.headers, deps.headers.reauthentication));
}
