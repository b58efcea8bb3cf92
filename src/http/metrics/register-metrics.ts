import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors/catalogue.js';
import type { Config } from '../../config/settings.js';
import type { Database } from '../../db/database.js';
import { createAppMetrics, type AppMetrics } from './app-metrics.js';
import type { ScrapeSource } from './cluster-metrics.js';
import { bearerMatches } from './metrics-access.js';

/** Where a server's metrics are read: on the public port behind a token, or only on the separate listener. */
export interface MetricsExposure {
  metrics: AppMetrics;
  /** What a scrape answers: this server's registry, or with several workers every worker's (cluster-metrics.ts). */
  scrape: ScrapeSource;
  /** Set: `GET /metrics` on the public port answers to `Authorization: Bearer <token>`. */
  publicToken: string | undefined;
}

/**
 * Times every request (the route pattern, never the raw URL, so the label set stays small and no
 * path or token reaches the metrics) and, with a token, serves the scrape on the public port.
 * Registered before the routes, so every route inherits the hook.
 */
export function registerMetrics(app: FastifyInstance, exposure: MetricsExposure): void {
  const { metrics, scrape, publicToken } = exposure;
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.config.metricsRoute ?? request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    metrics.close();
    done();
  });
  if (publicToken === undefined) return;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, publicToken)) {
      reply.header('WWW-Authenticate', 'Bearer');
      throw errors.metricsTokenRequired();
    }
    return reply.type(scrape.contentType).send(await scrape.metrics());
  });
}

/** Metrics are served when a token or a port for them is set. */
export function metricsAreOn(config: Pick<Config, 'metricsToken' | 'metricsPort'>): boolean {
  return config.metricsToken !== undefined || config.metricsPort !== undefined;
}

/**
 * Metrics cost nothing unless asked for (undefined: no hook, no route). With a separate port they
 * are served there only, never on the public port.
 */
export function metricsExposureFor(config: Pick<Config, 'metricsToken' | 'metricsPort'>, database: Database): MetricsExposure | undefined {
  if (!metricsAreOn(config)) return undefined;
  const metrics = createAppMetrics(database);
  return { metrics, scrape: metrics.registry, publicToken: config.metricsPort === undefined ? config.metricsToken : undefined };
}
