import type { FastifyRequest } from 'fastify';
import type { Acting } from '../services/users.js';
import type { RouteDeps } from './route-deps.js';

/** Who acts, where, and when: what every Workspace-scoped service call takes. */
export function acting(request: FastifyRequest, deps: RouteDeps): Acting {
  return { db: deps.db, caller: request.caller, contextWorkspaceId: request.workspaceId, now: deps.clock.now() };
}
