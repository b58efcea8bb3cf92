import { Type } from 'typebox';
import { isoTime } from '../../lib/time.js';
import type { Workspace } from '../../repositories/workspaces.js';
import { listVisibleWorkspaces } from '../../services/workspaces.js';
import type { ApiInstance } from '../fastify-types.js';
import { paginationQuery, readPage, sendPage } from '../pagination.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses } from '../schemas.js';

export const WorkspaceBody = Type.Object({ id: Type.Integer(), name: Type.String(), created_at: Type.String() });

export function workspaceBody(workspace: Workspace) {
  return { id: workspace.id, name: workspace.name, created_at: isoTime(workspace.createdAt) };
}

export function workspaceRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/workspaces', {
    config: { allowFilesOnlyKeys: true },
    schema: {
      summary: 'List the Workspaces the caller may see',
      querystring: Type.Object(paginationQuery),
      response: { 200: Type.Array(WorkspaceBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const page = readPage<number>('workspaces', request.query, 'number');
    const rows = await listVisibleWorkspaces(deps.db, request.caller, request.workspaceId, page);
    return sendPage(reply, deps.headers, 'workspaces', rows, page.limit, (w) => w.id).map(workspaceBody);
  });
}
