import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import secureJsonParse from 'secure-json-parse';
import { assertCredentialReaches, resolveRequestWorkspace, type Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import { admitAtDoor, authenticate } from '../identity/index.js';
import type { Clock } from '../lib/time.js';
import { scimErrorOf, scimErrors } from './scim-error.js';
import { discoveryRoutes } from './discovery.js';
import { groupRoutes } from './groups/group-routes.js';
import { userRoutes } from './users/user-routes.js';

export const SCIM_ROOT = '/scim/v2';
export const SCIM_CONTENT_TYPE = 'application/scim+json';

/** The request headers the REST API reads credentials from: SCIM accepts them beside `Authorization: Bearer`. */
export interface ScimHeaderNames {
  apiKey: readonly string[];
  session: readonly string[];
  workspace: readonly string[];
}

export interface ScimDeps {
  db: Db;
  clock: Clock;
  headers: ScimHeaderNames;
}

/** Builds the Call of a SCIM request, as the REST API builds it. */
export type CallOf = (request: FastifyRequest) => Call;

/**
 * SCIM 2.0 (RFC 7643, RFC 7644) under /scim/v2: its own body parser, error form and
 * authentication, in a plugin of its own so none of it leaks into the REST API.
 */
export async function registerScim(app: FastifyInstance, deps: ScimDeps): Promise<void> {
  await app.register(async (scim) => {
    scim.removeAllContentTypeParsers();
    scim.addContentTypeParser(['application/scim+json', 'application/json'], { parseAs: 'string' }, (_request, raw, done) => {
      const text = (raw as string).trim();
      if (text === '') return done(null, {});
      try {
        const parsed: unknown = secureJsonParse.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return done(scimErrors.invalidSyntax('The request body must be a JSON object.'));
        done(null, parsed);
      } catch {
        done(scimErrors.invalidSyntax('The request body is not valid JSON.'));
      }
    });
    scim.setErrorHandler(async (error, request, reply) => {
      const { status, body } = scimErrorOf(error);
      if (status >= 500) request.log.error({ err: error }, 'SCIM request failed');
      return reply.code(status).type(SCIM_CONTENT_TYPE).send(body);
    });
    // A catch-all rather than a not-found handler: the web console answers every other GET path.
    scim.all('/*', { schema: { hide: true }, config: { public: true } }, async () => {
      throw scimErrors.notFound('No such SCIM endpoint (Bulk and Me are not supported).');
    });
    scim.addHook('onSend', async (_request, reply, payload) => {
      if (String(reply.getHeader('content-type') ?? '').startsWith('application/json')) reply.type(SCIM_CONTENT_TYPE);
      return payload;
    });
    scim.addHook('onRequest', async (request) => {
      if (request.routeOptions.config.public === true) return;
      const presented = credentialsOf(request.headers, deps.headers);
      const caller = await authenticate(deps.db, deps.clock, presented);
      // The address lists govern provisioning keys too (the site's, and the key's user's).
      await admitAtDoor(deps.db, caller, 'scim', { ip: request.ip, encrypted: request.protocol === 'https', interface: 'scim' }, deps.clock.now());
      request.caller = caller;
      request.requestWorkspaceId = await resolveRequestWorkspace(deps.db, caller, headerValue(request.headers, deps.headers.workspace));
      assertCredentialReaches(caller, 'administration');
    });
    const callOf: CallOf = (request) => ({ db: deps.db, caller: request.caller, requestWorkspaceId: request.requestWorkspaceId, now: deps.clock.now(), origin: { interface: 'scim', ip: request.ip } });
    userRoutes(scim, callOf);
    groupRoutes(scim, callOf);
    discoveryRoutes(scim);
  }, { prefix: SCIM_ROOT });
}

function credentialsOf(headers: IncomingHttpHeaders, names: ScimHeaderNames) {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
  return { sessionId: headerValue(headers, names.session), apiKey: bearer ?? headerValue(headers, names.apiKey) };
}

function headerValue(headers: IncomingHttpHeaders, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = headers[name.toLowerCase()];
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first !== '') return first;
  }
  return undefined;
}
