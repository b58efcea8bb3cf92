import { Type } from 'typebox';
import {
  createWorkspace, deleteEmptyWorkspace, getVisibleWorkspace, listVisibleWorkspaces, renameVisibleWorkspace, type Workspace,
} from '../../directory/index.js';
import { isoTime } from '../../lib/time.js';
import { callOf } from '../call.js';
import type { ApiInstance } from '../fastify-types.js';
import { paginationQuery, readPage, sendPage } from '../pagination.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses, IdParams } from '../schemas.js';
import { UPDATE_METHODS } from '../update-methods.js';

export const WorkspaceBody = Type.Object({ id: Type.Integer(), name: Type.String(), created_at: Type.String() });

export function workspaceBody(workspace: Workspace) {
  return { id: workspace.id, name: workspace.name, created_at: isoTime(workspace.createdAt) };
}

export function workspaceRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/workspaces', {
    config: { operation: 'file-context' },
    schema: {
      summary: 'List the Workspaces the caller may see',
      querystring: Type.Object(paginationQuery),
      response: { 200: Type.Array(WorkspaceBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const page = readPage<number>('workspaces', request.query, 'id');
    const rows = await listVisibleWorkspaces(callOf(request, deps), page);
    return sendPage(reply, deps.headers, 'workspaces', rows, page.limit, (w) => w.id).map(workspaceBody);
  });

  app.post('/workspaces', {
    schema: {
      summary: 'Create a Custom Workspace and its root folder (Site Administrators)',
      body: Type.Object({ name: Type.String({ maxLength: 1024 }) }),
      response: { 201: WorkspaceBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const workspace = await createWorkspace(callOf(request, deps), request.body.name);
    return reply.code(201).send(workspaceBody(workspace));
  });

  app.get('/workspaces/:id', {
    config: { operation: 'file-context' },
    schema: { summary: 'Show a Workspace', params: IdParams, response: { 200: WorkspaceBody, ...errorResponses } },
  }, async (request) => workspaceBody(await getVisibleWorkspace(callOf(request, deps), request.params.id)));

  app.route({
    method: UPDATE_METHODS,
    url: '/workspaces/:id',
    schema: {
      summary: 'Rename a Workspace (Site Administrators)',
      params: IdParams,
      body: Type.Object({ name: Type.Optional(Type.String({ maxLength: 1024 })) }),
      response: { 200: WorkspaceBody, ...errorResponses },
    },
    handler: async (request) =>
      workspaceBody(await renameVisibleWorkspace(callOf(request, deps), request.params.id, request.body.name)),
  });

  app.delete('/workspaces/:id', {
    schema: { summary: 'Delete an empty Custom Workspace (Site Administrators)', params: IdParams, response: { 204: Type.Null(), ...errorResponses } },
  }, async (request, reply) => {
    await deleteEmptyWorkspace(callOf(request, deps), request.params.id);
    return reply.code(204).send(null);
  });
}
