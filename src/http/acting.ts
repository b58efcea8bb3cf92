import type { FastifyRequest } from 'fastify';
import type { Acting } from '../services/acting.js';
import { identityConfirmation, type ConfirmIdentity } from '../services/reauthentication.js';
import { readHeader } from './brand-headers.js';
import type { RouteDeps } from './route-deps.js';

/** Who acts, where, and when: what every Workspace-scoped service call takes. */
export function acting(request: FastifyRequest, deps: RouteDeps): Acting {
  return { db: deps.db, caller: request.caller, contextWorkspaceId: request.workspaceId, now: deps.clock.now() };
}

/** Confirms the session user's identity from the request's reauthentication header when a service asks (contract 3.3). */
export function confirmIdentity(request: FastifyRequest, deps: RouteDeps, now: number): ConfirmIdentity {
  return identityConfirmation(deps.db, request.caller, readHeader(request.headers, deps.headers.reauthentication), now);
}
