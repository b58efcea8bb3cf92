import type { FastifyRequest } from 'fastify';
import type { SitePath } from '../../../access/index.js';
import { fileActorOf, sitePathFor, type FileActor } from '../../../files/index.js';
import type { FileCore } from '../../../files/index.js';
import type { RouteDeps } from '../../route-deps.js';
import { capturedPath } from './request-path.js';

export function fileCoreOf(deps: RouteDeps): FileCore {
  const { storage, links, maxUploadBytes } = deps.files;
  return { db: deps.db, clock: deps.clock, storage, links, maxUploadBytes };
}

/** The caller as a file actor in the request context, and the path its URL names there. */
export async function actorAndPath(request: FastifyRequest, deps: RouteDeps, resource: string): Promise<{ actor: FileActor; site: SitePath }> {
  const actor = await fileActorOf(deps.db, request.caller, request.workspaceId);
  return { actor, site: sitePathFor(actor, capturedPath(request, resource)) };
}
