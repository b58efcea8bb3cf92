import type { SwaggerOptions } from '@fastify/swagger';
import { API_ROOT, PUBLIC_API_ROOT } from '../api-paths.js';
import type { BrandHeaders } from '../brand-headers.js';
import { errorTypesByStatus } from './error-types.js';
import { REAUTHENTICATION_MARKER, SESSION_HEADER_MARKER } from './route-markers.js';

type Json = Record<string, unknown>;
type Operation = { parameters?: Json[]; responses?: Record<string, Json>; [key: string]: unknown };

const AUTH_MARKER = 'x-atrium-credentials';
const LISTING_MARKER = 'x-atrium-listing';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

const WILDCARD_DESCRIPTION =
  'The folder or file path after the resource name, as in `/files/Reports/2024/summary.pdf`. ' +
  'Slashes between folders are sent as they are; every other reserved character is percent-encoded ' +
  '(UTF-8), so a space is `%20`, `#` is `%23` and `?` is `%3F`. A slash inside a name cannot exist. ' +
  'An encoded slash (`%2F`) is read as a plain slash, so a path may also be sent as one encoded segment. ' +
  'Empty (or the bare resource URL) means the root folder.';

const BASIC_DESCRIPTION =
  'HTTP Basic authentication with the API key as the user name and any password, for example ' +
  '`curl -u <key>:x https://atrium.example/api/rest/v1/folders`.';

function headerParameter(name: string, description: string): Json {
  return { name, in: 'header', required: false, schema: { type: 'string' }, description };
}

/** One reusable parameter per header name, in every configured brand, keyed by the header name. */
function headerParameters(headers: BrandHeaders): Record<string, Json> {
  const alternatives = (names: readonly string[], name: string) => {
    const others = names.filter((other) => other !== name);
    return others.length === 0 ? '' : ` Also accepted as ${others.join(', ')}; the first one present is read.`;
  };
  const parameters: Record<string, Json> = {};
  const add = (names: readonly string[], describe: string) => {
    for (const name of names) parameters[name] = headerParameter(name, describe + alternatives(names, name));
  };
  add(headers.apiKey, 'An API key. One credential per request: an API key, a session id, or HTTP Basic.');
  add(headers.session, 'A session id from POST /sessions. One credential per request: an API key, a session id, or HTTP Basic.');
  add(headers.workspace, 'The id of the Workspace the request works in (0 for the default Workspace). Without it, the request works in the Workspace of its credential.');
  return parameters;
}

function reauthenticationParameters(headers: BrandHeaders): Record<string, Json> {
  const parameters: Record<string, Json> = {};
  for (const name of headers.reauthentication) {
    parameters[name] = headerParameter(name, 'With a session, confirms the user\'s identity for this change: `password:<your password>`. Not needed with an API key.');
  }
  return parameters;
}

function parameterRef(name: string): Json {
  return { $ref: `#/components/parameters/${name}` };
}

function cursorResponseHeaders(headers: BrandHeaders): Record<string, Json> {
  const result: Record<string, Json> = {};
  for (const name of [...headers.cursor, ...headers.cursorNext]) {
    result[name] = { description: 'Present when there is a next page: send its value as the `cursor` query parameter to fetch it.', schema: { type: 'string' } };
  }
  return result;
}

function errorResponse(types: readonly string[]): Json {
  return {
    description: `An error; its \`type\` is one of: ${types.map((t) => `\`${t}\``).join(', ')}.`,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

/** The error responses an operation may answer, by status, replacing the generic 4xx and 5xx. */
function errorResponses(byStatus: Map<number, string[]>, credentials: boolean): Record<string, Json> {
  const responses: Record<string, Json> = {};
  for (const [status, types] of byStatus) {
    if (!credentials && (status === 401 || status === 403)) continue;
    responses[String(status)] = errorResponse(types);
  }
  return responses;
}

/**
 * What @fastify/swagger needs to describe the API fully: the headers of every brand the server
 * reads (which route schemas do not declare, so that no request that works today is refused), the
 * wildcard path as `{path}`, and every error type by status. It describes, it never validates.
 */
export function openApiOptions(headers: BrandHeaders): SwaggerOptions {
  const byStatus = errorTypesByStatus();
  return {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Atrium REST API',
        version: '1',
        description:
          'The REST API of Atrium, following the wire conventions of the Files.com REST API. ' +
          `Request headers are accepted in every configured brand (${headers.brands.join(', ')}); response headers are sent in all of them.`,
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          ...Object.fromEntries(headers.apiKey.map((name) => [name, { type: 'apiKey', in: 'header', name, description: 'An API key.' }])),
          ...Object.fromEntries(headers.session.map((name) => [name, { type: 'apiKey', in: 'header', name, description: 'A session id from POST /sessions.' }])),
          basic: { type: 'http', scheme: 'basic', description: BASIC_DESCRIPTION },
        },
      },
      security: [...headers.apiKey, ...headers.session, 'basic'].map((name) => ({ [name]: [] })),
    },
    transform: ({ schema, url, route }) => {
      if (!url.startsWith(`${API_ROOT}/`) && !url.startsWith(`${PUBLIC_API_ROOT}/`)) return { schema: { ...schema, hide: true }, url };
      const documented: Json = { ...(schema as Json) };
      if (route.config?.public !== true) documented[AUTH_MARKER] = true;
      const query = documented.querystring as { properties?: Json } | undefined;
      if (query?.properties?.cursor !== undefined) documented[LISTING_MARKER] = true;
      const params = documented.params as { properties?: Json; required?: string[] } | undefined;
      if (params?.properties?.['*'] !== undefined) {
        const { '*': _wildcard, ...others } = params.properties;
        documented.params = url.endsWith('*')
          ? { ...params, properties: { ...others, path: { type: 'string', description: WILDCARD_DESCRIPTION } }, required: ['path'] }
          : Object.keys(others).length === 0 ? undefined : { ...params, properties: others };
      }
      return { schema: documented, url: url.replace(/\*$/, ':path') };
    },
    transformObject: (documentObject) => {
      const document = (documentObject as { openapiObject: unknown }).openapiObject as Json & { paths: Record<string, Record<string, Operation>>; components: Json };
      const credentialParameters = headerParameters(headers);
      const reauthentication = reauthenticationParameters(headers);
      document.components.parameters = { ...credentialParameters, ...reauthentication };
      const schemas = (document.components.schemas ?? {}) as Json;
      document.components.schemas = { ...schemas, Error: errorSchema(byStatus) };
      for (const pathItem of Object.values(document.paths)) {
        for (const method of HTTP_METHODS) {
          const operation = pathItem[method];
          if (operation !== undefined) describeOperation(operation);
        }
      }
      return document;

      function describeOperation(operation: Operation): void {
        const credentials = operation[AUTH_MARKER] === true;
        const refs = [
          ...(credentials ? Object.keys(credentialParameters) : []),
          ...(!credentials && operation[SESSION_HEADER_MARKER] === true ? headers.session : []),
          ...(operation[REAUTHENTICATION_MARKER] === true ? Object.keys(reauthentication) : []),
        ].map(parameterRef);
        if (refs.length > 0) operation.parameters = [...(operation.parameters ?? []), ...refs];
        if (!credentials) operation.security = [];
        const responses = operation.responses ?? {};
        delete responses['4XX'];
        delete responses['5XX'];
        delete responses['4xx'];
        delete responses['5xx'];
        if (operation[LISTING_MARKER] === true) {
          for (const [status, response] of Object.entries(responses)) {
            if (status.startsWith('2')) response.headers = { ...(response.headers as Json | undefined), ...cursorResponseHeaders(headers) };
          }
        }
        operation.responses = { ...responses, ...errorResponses(byStatus, credentials) };
        delete operation[AUTH_MARKER];
        delete operation[LISTING_MARKER];
        delete operation[REAUTHENTICATION_MARKER];
        delete operation[SESSION_HEADER_MARKER];
      }
    },
  };
}

function errorSchema(byStatus: Map<number, string[]>): Json {
  return {
    type: 'object',
    required: ['error', 'http-code', 'instance', 'title', 'type'],
    properties: {
      error: { type: 'string', description: 'A message for people; it may change between versions.' },
      'http-code': { type: 'integer' },
      instance: { type: 'string', description: 'The request id, also sent as X-Request-Id.' },
      title: { type: 'string' },
      type: { type: 'string', enum: [...byStatus.values()].flat(), description: 'Stable: programs should look at this.' },
      model_errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      'model-errors': { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      data: { type: 'object', additionalProperties: true },
    },
  };
}
