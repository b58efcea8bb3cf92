import type { FastifyRequest } from 'fastify';
import type { FileSession } from '../../../files/index.js';
import type { RouteDeps } from '../../route-deps.js';
import { originOf } from '../../origin.js';
import { capturedPath } from './request-path.js';

/** The caller's file session in the request's Workspace, and the path the URL names after `resource` there. */
export async function sessionAndPath(request: FastifyRequest, deps: RouteDeps, resource: string): Promise<{ session: FileSession; path: string }> {
  const session = await deps.files.session(request.caller, request.requestWorkspaceId, originOf(request));
  return { session, path: capturedPath(request, resource) };
}
