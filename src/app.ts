import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import type { Core } from './core.js';
import { runInRequestScope } from './db/data-version.js';
import { dataVersionOf } from './db/read-cache.js';
import { API_ROOT, stripJsonSuffix } from './http/api-paths.js';
import { authenticationHook } from './http/authentication-hook.js';
import { brandHeaders } from './http/brand-headers.js';
import { registerErrorRendering } from './http/error-rendering.js';
import type { ApiInstance } from './http/fastify-types.js';
import { frameworkErrorsFor } from './http/framework-errors.js';
import { registerJsonBodyParser } from './http/json-body-parser.js';
import { registerValidators } from './http/validators.js';
import { logOptions } from './http/log-options.js';
import type { RouteDeps } from './http/route-deps.js';
import { healthRoutes } from './http/routes/health.js';
import { registerApiRoutes } from './http/routes/index.js';
import { redactTransferToken } from './http/routes/files/transfer-urls.js';
import { parseQueryString } from './lib/query-string.js';

/**
 * Builds the REST front door over the core. It never listens and reads no environment: main.ts
 * does both, and starts the core before the app listens.
 */
export async function buildApp(core: Core): Promise<ApiInstance> {
  const { database, clock, config } = core;
  const headers = brandHeaders(config.headerBrands);
  const deps: RouteDeps = { database, db: database.db, clock, headers, files: core.files };

  const app = Fastify({
    logger: logOptions(config.logLevel, headers),
    // Fastify's two lines per request cost as much CPU as the request itself; the access log
    // below writes one, and only when asked.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID().replaceAll('-', ''),
    trustProxy: config.trustProxy,
    rewriteUrl: (request) => stripJsonSuffix(request.url ?? '/'),
    // A URL the router cannot decode (`/folders/%C3`) is answered like any other bad input.
    frameworkErrors: frameworkErrorsFor(headers),
    routerOptions: { ignoreTrailingSlash: true, querystringParser: (query) => parseQueryString(query) },
  } satisfies FastifyServerOptions).withTypeProvider<TypeBoxTypeProvider>();

  // Cached reads check once per request whether other processes changed the data (db/data-version.ts).
  if (dataVersionOf(database.db) !== undefined) {
    app.addHook('onRequest', (_request, _reply, done) => runInRequestScope(done));
  }
  registerJsonBodyParser(app);
  registerValidators(app);
  registerErrorRendering(app, headers);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  if (config.accessLog) {
    app.addHook('onResponse', async (request, reply) => {
      request.log.info({ method: request.method, url: redactTransferToken(request.url.split('?')[0] as string), status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    });
  }

  await app.register(swagger, {
    openapi: {
      info: { title: 'Atrium REST API', version: '1', description: 'Files.com-compatible wire conventions; see docs/.' },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: headers.apiKey[0] as string },
          session: { type: 'apiKey', in: 'header', name: headers.session[0] as string },
          basic: { type: 'http', scheme: 'basic' },
        },
      },
      security: [{ apiKey: [] }, { session: [] }, { basic: [] }],
    },
  });

  healthRoutes(app, database);
  await app.register(async (api) => {
    api.addHook('onRequest', authenticationHook(deps.db, deps.clock, headers));
    registerApiRoutes(api, deps);
  }, { prefix: API_ROOT });

  return app;
}
