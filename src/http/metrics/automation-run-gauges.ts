import { Gauge, type Registry } from 'prom-client';
import { automationRunCounts } from '../../automations/index.js';
import type { Database } from '../../db/database.js';

/**
 * Automation runs by status (docs/automations.md#runs), counted in the database at scrape time:
 * `queued` is what waits for a node, `failure` and `partial_failure` what an administrator should
 * look at. With several nodes the count is given once, not summed, as for the jobs.
 */
export function registerAutomationRunGauges(registry: Registry, database: Database): void {
  new Gauge({
    name: 'atrium_automation_runs',
    help: 'Automation runs by status (queued, running, success, partial_failure, failure, skipped, canceled), counted in the database at scrape time.',
    labelNames: ['status'],
    registers: [registry],
    aggregator: 'first',
    async collect() {
      for (const [status, count] of Object.entries(await automationRunCounts(database.db))) this.set({ status }, count);
    },
  });
}
