import { Type } from 'typebox';
import { createPermission, deletePermission } from '../../../grants/index.js';
import { explainAccess } from '../../../grants/index.js';
import { listPermissionsFor } from '../../../grants/index.js';
import type { ApiInstance } from '../../fastify-types.js';
import { readPage, sendPage } from '../../pagination.js';
import type { RouteDeps } from '../../route-deps.js';
import { errorResponses, IdParams } from '../../schemas.js';
import { explainJson } from './explain-body.js';
import { namesFor, permissionJson, permissionsJson } from './permission-body.js';
import { CreatedPermissionBody, CreatePermissionBody, ExplainBody, ExplainQuery, ListPermissionsQuery, PermissionBody } from './schemas.js';

/** Folder permissions (contract 5): create, list, delete and explain grants. Administrative: no files_only keys. */
export function permissionRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/permissions', {
    schema: {
      summary: 'List the grants the caller may see in the request context',
      querystring: ListPermissionsQuery,
      response: { 200: Type.Array(PermissionBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const query = request.query;
    const page = readPage<number>('permissions', query, 'number');
    const userId = query.user_id ?? query.filter?.user_id;
    const groupId = query.group_id ?? query.filter?.group_id;
    const path = query.path ?? query.filter?.path;
    const rows = await listPermissionsFor(deps.db, request.caller, request.workspaceId, {
      ...(userId === undefined ? {} : { userId }),
      ...(groupId === undefined ? {} : { groupId }),
      ...(path === undefined ? {} : { path }),
      includeGroups: query.include_groups === true,
    }, page);
    const pageRows = sendPage(reply, deps.headers, 'permissions', rows, page.limit, (row) => row.id);
    return permissionsJson(deps.db, pageRows, request.workspaceId);
  });

  app.post('/permissions', {
    schema: {
      summary: 'Create a grant; grants it subsumes for the same grantee are replaced',
      body: CreatePermissionBody,
      response: { 201: CreatedPermissionBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const { permission, replacedIds } = await createPermission(deps.db, deps.clock, request.caller, request.workspaceId, request.body);
    const names = await namesFor(deps.db, [permission]);
    return reply.code(201).send({ ...permissionJson(permission, request.workspaceId, names), replaced_permission_ids: replacedIds });
  });

  app.get('/permissions/explain', {
    schema: {
      summary: 'Explain what a user may do on a path, and why',
      querystring: ExplainQuery,
      response: { 200: ExplainBody, ...errorResponses },
    },
  }, async (request) => {
    const { path, user_id: userId, type } = request.query;
    const explanation = await explainAccess(deps.db, request.caller, request.workspaceId, {
      path,
      ...(userId === undefined ? {} : { userId }),
      ...(type === undefined ? {} : { type }),
    });
    return explainJson(deps.db, explanation, request.workspaceId);
  });

  // Clients repeat the id in a JSON body ({"id": 9}); it is ignored. 204 with no body and no
  // JSON content type is what the Files.com SDK accepts for an empty success.
  app.delete('/permissions/:id', {
    schema: {
      summary: 'Delete a grant; access it gave ends at once and replaced grants stay deleted',
      params: IdParams,
      response: { 204: Type.Null(), ...errorResponses },
    },
  }, async (request, reply) => {
    await deletePermission(deps.db, request.caller, request.workspaceId, request.params.id);
    return reply.code(204).send(null);
  });
}
