import { Type } from 'typebox';
import {
  apiKeySortValue, createKey, findCallingKey, findKey, listKeys, revokeKey, updateKey, type ApiKey, type ApiKeySortField, type KeyChanges,
} from '../../identity/index.js';
import { definedOnly } from '../../lib/defined-only.js';
import { isoTime } from '../../lib/time.js';
import { callOf, confirmIdentity } from '../call.js';
import type { ApiInstance } from '../fastify-types.js';
import { type ListParameterSpec, listParameterQuery, readListParameters, timeRangeOf } from '../list-parameters.js';
import { paginationQuery, setCursorHeaders } from '../pagination.js';
import { readSortedPage, requestedOrder, sortedPageOf } from '../sorted-cursor.js';
import type { RouteDeps } from '../route-deps.js';
import { UPDATE_METHODS } from '../update-methods.js';
import { errorResponses, IdParams, RecordId } from '../schemas.js';
import { asksForReauthentication } from '../openapi/route-markers.js';

const PermissionSetField = Type.Union([Type.Literal('full'), Type.Literal('files_only')]);
// Null first in each union: under type coercion a string or integer branch tried first would
// turn null into '' or 0.
const NullableTime = Type.Union([Type.Null(), Type.String({ maxLength: 64 })], { description: 'ISO-8601; null or empty for no expiry' });

/** GET /api_keys's list parameters, as the Files.com SDKs document them: all on `expires_at`. */
const API_KEY_LIST_PARAMETERS: ListParameterSpec = {
  listing: 'API keys',
  sortable: ['expires_at'],
  equals: { expires_at: 'time' },
  prefix: [],
  ranges: { expires_at: 'time' },
  notOffered: {},
};

/** The response never carries the secret or its hash; `key` only in the answer to creation. */
const ApiKeyBody = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String({ description: 'free text about the key; empty when none was given' }),
  descriptive_label: Type.String({ description: 'read-only: the key\'s name, whose key it is and its id, e.g. `API key "deploy" of user #5 (key ID #7)`' }),
  user_id: Type.Union([Type.Integer(), Type.Null()], { description: 'null for a site-wide key' }),
  permission_set: PermissionSetField,
  workspace_id: Type.Integer(),
  created_at: Type.String(),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  last_use_at: Type.Union([Type.String(), Type.Null()]),
});
const NewApiKeyBody = Type.Object({ ...ApiKeyBody.properties, key: Type.String({ description: 'The secret, shown only once' }) });

/** Free text, bounded like a name is, only longer: a sentence or two about the key. */
const DescriptionField = Type.String({ maxLength: 1024, description: 'free text about the key, up to 1,024 characters; empty for none' });

const KeyChangesBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  description: Type.Optional(DescriptionField),
  expires_at: Type.Optional(NullableTime),
  permission_set: Type.Optional(Type.String({ maxLength: 64, description: 'the key\'s own (the SDK\'s save() sends it back); another one is refused' })),
});

const NoContent = { 204: Type.Null({ description: 'No content' }) };

function apiKeyBody(key: ApiKey) {
  return {
    id: key.id,
    name: key.name,
    description: key.description,
    descriptive_label: descriptiveLabel(key),
    user_id: key.userId,
    permission_set: key.permissionSet,
    workspace_id: key.workspaceId,
    created_at: isoTime(key.createdAt),
    expires_at: isoTime(key.expiresAt),
    last_use_at: isoTime(key.lastUseAt),
  };
}

/**
 * Files.com's `descriptive_label`: a line that tells keys apart where several accounts' keys are
 * kept. Files.com writes `Site-wide API key for <site URL> (key ID #1)`; Atrium names the key,
 * whose it is and its id, and never any part of the secret (only its hash is stored).
 */
function descriptiveLabel(key: ApiKey): string {
  const whose = key.userId === null ? 'Site-wide API key' : 'API key';
  const owner = key.userId === null ? '' : ` of user #${key.userId}`;
  return `${whose} ${JSON.stringify(key.name)}${owner} (key ID #${key.id})`;
}

function keyChanges(body: { name?: string; description?: string; expires_at?: string | null; permission_set?: string }): KeyChanges {
  return definedOnly({ name: body.name, description: body.description, expiresAt: body.expires_at, permissionSet: body.permission_set });
}

/**
 * API keys (contract 3.4, 7). Deleting answers 204 with no body and no content type, which the
 * Files.com SDKs accept (wire notes (e) 4). A files_only key may read and revoke itself through
 * /api_key, and nothing else here: managing credentials is administrative.
 */
export function apiKeyRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/api_keys', {
    schema: {
      summary: 'List the API keys the caller may see in the request context',
      description: 'Filters and sorts as the Files.com SDKs send them: `filter[expires_at]=` (within that second), `filter_gt[expires_at]=` and the other bounds, '
        + '`sort_by[expires_at]=asc|desc` (a key that never expires last when ascending). Any other field is refused, never ignored.',
      querystring: Type.Object({ ...paginationQuery, ...listParameterQuery(API_KEY_LIST_PARAMETERS), user_id: Type.Optional(RecordId()) }),
      response: { 200: Type.Array(ApiKeyBody), ...errorResponses },
    },
  }, async (request, reply) => {
    const parameters = readListParameters(API_KEY_LIST_PARAMETERS, request.query);
    const order = requestedOrder<ApiKeySortField>(parameters.sort);
    const page = readSortedPage('api_keys', request.query, order);
    const expiresAt = timeRangeOf(parameters, 'expires_at');
    const filter = definedOnly({ userId: request.query.user_id, expiresAt });
    const keys = await listKeys(callOf(request, deps), filter, { ...page, limit: page.limit + 1 });
    const listed = sortedPageOf('api_keys', keys, page, order === undefined, (key) => ({ value: apiKeySortValue(key, page.sort.field), id: key.id }));
    if (listed.cursor !== undefined) setCursorHeaders(reply, deps.headers, listed.cursor);
    return listed.rows.map(apiKeyBody);
  });

  app.post('/api_keys', {
    schema: {
      ...asksForReauthentication,
      summary: 'Create an API key; its secret is in the answer and never again',
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 255 }),
        description: Type.Optional(DescriptionField),
        // null asks for a site-wide key and must never become 0 (the caller): null first, as above.
        user_id: Type.Optional(Type.Union([Type.Null(), RecordId()])),
        permission_set: Type.Optional(PermissionSetField),
        expires_at: Type.Optional(NullableTime),
        workspace_id: Type.Optional(RecordId()),
      }),
      response: { 201: NewApiKeyBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const a = callOf(request, deps);
    const body = request.body;
    const { key, secret } = await createKey(a, {
      name: body.name,
      description: body.description,
      userId: body.user_id,
      permissionSet: body.permission_set,
      expiresAt: body.expires_at,
      workspaceId: body.workspace_id,
    }, confirmIdentity(request, deps, a));
    return reply.code(201).send({ ...apiKeyBody(key), key: secret });
  });

  app.get('/api_keys/:id', {
    schema: { summary: 'Show an API key', params: IdParams, querystring: Type.Object({}), response: { 200: ApiKeyBody, ...errorResponses } },
  }, async (request) => apiKeyBody(await findKey(callOf(request, deps), request.params.id)));

  app.route({
    method: UPDATE_METHODS,
    url: '/api_keys/:id',
    schema: { summary: 'Rename an API key, or change its description or expiry', params: IdParams, body: KeyChangesBody, response: { 200: ApiKeyBody, ...errorResponses } },
    handler: async (request) => {
      const a = callOf(request, deps);
      return apiKeyBody(await updateKey(a, await findKey(a, request.params.id), keyChanges(request.body)));
    },
  });

  app.delete('/api_keys/:id', {
    schema: { ...asksForReauthentication, summary: 'Revoke an API key', params: IdParams, body: Type.Unknown({ description: 'Ignored.' }), response: { ...NoContent, ...errorResponses } },
  }, async (request, reply) => {
    const a = callOf(request, deps);
    await revokeKey(a, await findKey(a, request.params.id), confirmIdentity(request, deps, a));
    return reply.code(204).send(null);
  });

  app.get('/api_key', {
    config: { operation: 'file-context' },
    schema: { summary: 'Show the API key this request authenticated with', querystring: Type.Object({}), response: { 200: ApiKeyBody, ...errorResponses } },
  }, async (request) => apiKeyBody(await findCallingKey(callOf(request, deps))));

  app.route({
    method: UPDATE_METHODS,
    url: '/api_key',
    schema: { summary: 'Rename the calling API key, or change its description or expiry', body: KeyChangesBody, response: { 200: ApiKeyBody, ...errorResponses } },
    handler: async (request) => {
      const a = callOf(request, deps);
      return apiKeyBody(await updateKey(a, await findCallingKey(a), keyChanges(request.body)));
    },
  });

  app.delete('/api_key', {
    // A key, files_only included, may always retire itself: that only ever reduces authority.
    config: { operation: 'file-context' },
    schema: { ...asksForReauthentication, summary: 'Revoke the API key this request authenticated with', body: Type.Unknown({ description: 'Ignored.' }), response: { ...NoContent, ...errorResponses } },
  }, async (request, reply) => {
    const a = callOf(request, deps);
    await revokeKey(a, await findCallingKey(a), confirmIdentity(request, deps, a));
    return reply.code(204).send(null);
  });
}
