import http from 'node:http';
import { errors } from '../../errors/catalogue.js';
import { listenOn } from '../listen.js';
import type { ScrapeSource } from './cluster-metrics.js';
import { bearerMatches } from './metrics-access.js';

/**
 * The scrape on its own port, bound to 127.0.0.1 only: a Prometheus agent on the same host reads
 * it without a token, and nothing off the host can reach it. When a token is set, it is asked
 * here too. Plain node:http: one route needs no framework.
 */
export async function startMetricsListener(
  scrape: ScrapeSource,
  port: number,
  token: string | undefined,
  log: { info(message: string): void },
): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: only GET /metrics is served here.\n');
      return;
    }
    if (token !== undefined && !bearerMatches(request.headers.authorization, token)) {
      response.writeHead(401, { 'Content-Type': 'text/plain', 'WWW-Authenticate': 'Bearer' }).end(`${errors.metricsTokenRequired().message}\n`);
      return;
    }
    scrape.metrics().then(
      (text) => response.writeHead(200, { 'Content-Type': scrape.contentType }).end(text),
      () => response.writeHead(500, { 'Content-Type': 'text/plain' }).end('Metrics could not be collected.\n'),
    );
  });
  const address = await listenOn(server, '127.0.0.1', port);
  log.info(`Metrics listening at http://127.0.0.1:${address.port}/metrics`);
  return server;
}
