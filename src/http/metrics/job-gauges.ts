import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../../db/database.js';
import { jobCounts } from '../../jobs/index.js';

/**
 * The background jobs by status (docs/background-jobs.md), counted in the database when Prometheus
 * scrapes: `queued` is the queue's depth, `running` what nodes hold now, `failed` what gave up.
 * Every node sees the same table, so with several the count is given once, not summed.
 */
export function registerJobGauges(registry: Registry, database: Database): void {
  new Gauge({
    name: 'atrium_jobs',
    help: 'Background jobs by status (queued, running, done, failed, canceled), counted in the database at scrape time.',
    labelNames: ['status'],
    registers: [registry],
    aggregator: 'first',
    async collect() {
      for (const [status, count] of Object.entries(await jobCounts(database.db))) this.set({ status }, count);
    },
  });
}
