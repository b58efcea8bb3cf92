import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import type { Core } from './core.js';
import { dataVersionOf, requestArrived } from './db/read-cache.js';
import { API_ROOT, PUBLIC_API_ROOT, stripJsonSuffix } from './http/api-paths.js';
import { authenticationHook } from './http/authentication-hook.js';
import { registerConsole } from './http/console/register-console.js';
import { brandHeaders } from './http/brand-headers.js';
import { registerErrorRendering } from './http/error-rendering.js';
import type { ApiInstance } from './http/fastify-types.js';
import { frameworkErrorsFor } from './http/framework-errors.js';
import { registerJsonBodyParser } from './http/json-body-parser.js';
import { registerSerializers } from './http/serializers.js';
import { registerValidators } from './http/validators.js';
import { logDestination, logOptions } from './http/log-options.js';
import { openApiOptions } from './http/openapi/document.js';
import { registerApiReference } from './http/openapi/register-reference.js';
import { registerMetrics, type MetricsExposure } from './http/metrics/register-metrics.js';
import { requestIdFor } from './http/request-id.js';
import type { RouteDeps } from './http/route-deps.js';
import { healthRoutes } from './http/routes/health.js';
import { registerApiRoutes } from './http/routes/index.js';
import { publicBundleRoutes } from './http/routes/public-bundles.js';
import { ssoSignInRoutes } from './http/routes/sso-sign-in.js';
import { redactWebhookSecret } from './http/routes/automation-webhooks.js';
import { PUBLIC_URL, redactTransferToken } from './http/routes/files/transfer-urls.js';
import type { SftpListenerFacts } from './connect/index.js';
import { closeHttp2SessionsOnClose } from './http/tls/http2-sessions.js';
import type { TlsCredentials } from './http/tls/tls-credentials.js';
import { parseQueryString } from './lib/query-string.js';
import { registerScim } from './scim/register-scim.js';
import { registerWebdav } from './webdav/register-webdav.js';

/** How the front door is reached: over HTTPS with these credentials, and at this public URL. */
export interface FrontDoorListener {
  tls?: TlsCredentials;
  publicUrl?: string | undefined;
  /**
   * An HTTP/2 connection that carries no frame for this long is closed, as an HTTP/1.1 one that
   * moves no byte (stalled, or idle between requests) is.
   */
  idleTimeoutMs?: number;
  /** Request timing and, with a token, `GET /metrics` on this port (main.ts decides). */
  metrics?: MetricsExposure | undefined;
  /** The SFTP host keys' fingerprints when SFTP is on, shown to administrators by GET /site. */
  sftpHostKeyFingerprints?: readonly string[] | undefined;
  /** The SFTP listener's port once it listens, and its host keys, shown to every user by GET /connection_details. */
  sftpListener?: SftpListenerFacts | undefined;
  /** Fields added to every log line: a worker's number, with several (ATRIUM_WORKERS). */
  logFields?: Record<string, unknown> | undefined;
}

/**
 * Builds the REST front door over the core. It never listens and reads no environment: main.ts
 * does both, and starts the core before the app listens.
 */
export async function buildApp(core: Core, listener: FrontDoorListener = {}): Promise<ApiInstance> {
  const { database, clock, config } = core;
  const headers = brandHeaders(config.headerBrands);
  const deps: RouteDeps = { database, db: database.db, clock, headers, files: core.files, secretBox: core.secretBox, sso: core.sso, sftpHostKeyFingerprints: listener.sftpHostKeyFingerprints, sftpListener: listener.sftpListener };

  const app = Fastify({
    logger: { ...logOptions(config.logLevel, headers, listener.logFields), stream: logDestination() },
    // Fastify's two lines per request cost as much CPU as the request itself; the access log
    // below writes one, and only when asked.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdFor,
    trustProxy: config.trustProxy,
    rewriteUrl: (request) => stripJsonSuffix(request.url ?? '/'),
    // A URL the router cannot decode (`/folders/%C3`) is answered like any other bad input.
    frameworkErrors: frameworkErrorsFor(headers),
    routerOptions: { ignoreTrailingSlash: true, querystringParser: (query) => parseQueryString(query) },
    // HTTPS offers HTTP/2 by ALPN beside HTTP/1.1. It changes only the listener, not a route, so
    // the instance keeps its HTTP/1.1 type.
    ...(listener.tls === undefined ? {} : { http2: true, http2SessionTimeout: listener.idleTimeoutMs ?? 60_000, https: { ...listener.tls, allowHTTP1: true } }),
  } as FastifyServerOptions).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate(PUBLIC_URL, listener.publicUrl);
  if (listener.tls !== undefined) closeHttp2SessionsOnClose(app);

  // Cached reads see what other processes committed before the request arrived (db/data-version.ts).
  if (dataVersionOf(database.db) !== undefined) {
    app.addHook('onRequest', (_request, _reply, done) => requestArrived(database.db, done));
  }
  registerJsonBodyParser(app);
  registerValidators(app);
  registerSerializers(app);
  registerErrorRendering(app, headers);
  // Once a browser has reached Atrium over HTTPS, it never tries plain HTTP again for a year.
  const hsts = listener.tls !== undefined;
  // A callback hook: Fastify runs it without a promise, on every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    if (hsts) reply.header('Strict-Transport-Security', 'max-age=31536000');
    done();
  });
  if (listener.metrics !== undefined) registerMetrics(app, listener.metrics);
  if (config.accessLog) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info({ method: request.method, url: redactWebhookSecret(redactTransferToken(request.url.split('?')[0] as string)), status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
      done();
    });
  }

  await app.register(swagger, openApiOptions(headers));
  await registerApiReference(app);

  healthRoutes(app, database);
  await app.register(async (api) => {
    api.addHook('onRequest', authenticationHook(deps.db, deps.clock, headers));
    registerApiRoutes(api, deps);
  }, { prefix: API_ROOT });
  // Atrium's own API for people without an account (a share link's visitors): no credential is read.
  await app.register(async (open) => {
    publicBundleRoutes(open, deps);
    // The console's sign-in with an OpenID Connect provider: browser redirects, before anyone is signed in.
    ssoSignInRoutes(open, deps);
  }, { prefix: PUBLIC_API_ROOT });
  await registerScim(app, { db: deps.db, clock: deps.clock, headers });
  await registerWebdav(app, { db: deps.db, clock: deps.clock, files: core.files, passwords: core.passwords });
  // The web console at `/`, when it has been built (npm run build).
  await registerConsole(app, config.headerBrands[0] as string);

  return app;
}
