import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { Database } from '../../db/database.js';
import { registerActivityCounters } from './activity-counters.js';
import { registerDatabaseGauges } from './database-gauges.js';
import { registerAutomationRunGauges } from './automation-run-gauges.js';
import { registerJobGauges } from './job-gauges.js';
import { registerStorageGauges } from './storage-gauges.js';

/** The metrics one server exposes, in their own registry so that apps built side by side never share counts. */
export interface AppMetrics {
  readonly registry: Registry;
  /** The only per-request cost: one histogram observation (its _count is the request counter). */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** Stops listening to the features' activity. */
  close(): void;
}

/** Request latencies, in seconds: REST and WebDAV requests alike. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createAppMetrics(database: Database): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Histogram({
    name: 'atrium_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status, with their latency.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  const stopCounting = registerActivityCounters(registry, REQUEST_BUCKETS);
  registerDatabaseGauges(registry, database);
  registerJobGauges(registry, database);
  registerStorageGauges(registry, database);
  registerAutomationRunGauges(registry, database);
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.observe({ method, route, status }, seconds);
    },
    close: stopCounting,
  };
}
