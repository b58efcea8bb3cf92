import { Type } from 'typebox';
import { createGrant, deleteGrant, explainAccess, granteeNames, type GrantSortField, grantSortValue, listGrants } from '../../../grants/index.js';
import { grantCreationScope, grantDeletionScope, reviewChange } from '../../../access-review/index.js';
import { callOf } from '../../call.js';
import { DryRunBody, DryRunQuery, isDryRun, sendDryRun } from '../../dry-run.js';
import type { ApiInstance } from '../../fastify-types.js';
import { readListParameters } from '../../list-parameters.js';
import { setCursorHeaders } from '../../pagination.js';
import { readSortedPage, requestedOrder, sortedPageOf } from '../../sorted-cursor.js';
import { renderedBody } from '../../rendered-body.js';
import type { RouteDeps } from '../../route-deps.js';
import { errorResponses, IdParams } from '../../schemas.js';
import { explainJson } from './explain-body.js';
import { permissionJson, permissionsJson } from './permission-body.js';
import { grantFilterOf, PERMISSION_LIST_PARAMETERS } from './permission-list-parameters.js';
import { reachRoutes } from './reach.js';
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
    const parameters = readListParameters(PERMISSION_LIST_PARAMETERS, query);
    const order = requestedOrder<GrantSortField>(parameters.sort);
    const page = readSortedPage('permissions', query, order);
    const filter = grantFilterOf(parameters, query);
    const call = callOf(request, deps);
    const body = await renderedBody(call, 'permissions-json', JSON.stringify({ filter, page }), async () => {
      const listed = sortedPageOf('permissions', await listGrants(call, filter, page), page, order === undefined, (grant) => ({ value: grantSortValue(grant, page.sort.field), id: grant.id }));
      return { json: JSON.stringify(await permissionsJson(call, listed.rows)), cursor: listed.cursor };
    });
    if (body.cursor !== undefined) setCursorHeaders(reply, deps.headers, body.cursor);
    // Already JSON in the response schema's shape (built by permissionJson): Fastify sends a
    // string with a JSON content type as it is.
    return reply.type('application/json; charset=utf-8').send(body.json as never);
  });

  app.post('/permissions', {
    schema: {
      summary: 'Create a grant; grants it subsumes for the same grantee are replaced',
      querystring: Type.Object(DryRunQuery),
      body: CreatePermissionBody,
      response: { 200: DryRunBody, 201: CreatedPermissionBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const call = callOf(request, deps);
    const dryRun = isDryRun(request.query, request.body);
    const { result, difference } = await reviewChange(call, dryRun, grantCreationScope(call, request.body), (c) => createGrant(c, request.body));
    if (result === undefined) return sendDryRun(reply, call, difference);
    const { grant, replacedIds } = result;
    const names = await granteeNames(call, [grant]);
    return reply.code(201).send({ ...permissionJson(call, grant, names), replaced_permission_ids: replacedIds });
  });

  app.get('/permissions/explain', {
    schema: {
      summary: 'Explain what a user may do on a path, and why',
      querystring: ExplainQuery,
      response: { 200: ExplainBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const { path, user_id: userId, type } = request.query;
    const call = callOf(request, deps);
    const body = await renderedBody(call, 'explain-json', JSON.stringify({ path, userId, type }), async () => {
      const explanation = await explainAccess(call, {
        path,
        ...(userId === undefined ? {} : { userId }),
        ...(type === undefined ? {} : { type }),
      });
      return { json: JSON.stringify(await explainJson(call, explanation)) };
    });
    return reply.type('application/json; charset=utf-8').send(body.json as never);
  });

  // Clients repeat the id in a JSON body ({"id": 9}); it is ignored. 204 with no body and no
  // JSON content type is what the Files.com SDK accepts for an empty success.
  app.delete('/permissions/:id', {
    schema: {
      summary: 'Delete a grant; access it gave ends at once and replaced grants stay deleted',
      params: IdParams,
      querystring: Type.Object(DryRunQuery),
      response: { 200: DryRunBody, 204: Type.Null(), ...errorResponses },
    },
  }, async (request, reply) => {
    const call = callOf(request, deps);
    const dryRun = isDryRun(request.query);
    const { difference } = await reviewChange(call, dryRun, grantDeletionScope(call, request.params.id), (c) => deleteGrant(c, request.params.id));
    if (dryRun) return sendDryRun(reply, call, difference);
    return reply.code(204).send(null);
  });

  reachRoutes(app, deps);
}
