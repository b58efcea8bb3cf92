import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../../db/database.js';
import { storedTotals } from '../../files/index.js';

/**
 * What the site stores, by kind: `files` (the files people see), `trash` (deleted files kept for
 * the trash's retention) and `versions` (earlier contents files keep), read from the database when
 * Prometheus scrapes (the same sums as GET /site/usage, cached until the data changes). Every node
 * sees the same data, so with several the value is given once, not summed.
 */
export function registerStorageGauges(registry: Registry, database: Database): void {
  const totals = (() => {
    let inFlight: ReturnType<typeof storedTotals> | undefined;
    return () => {
      inFlight ??= storedTotals(database.db).finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    };
  })();
  new Gauge({
    name: 'atrium_stored_bytes',
    help: 'Bytes stored, by kind: files, trash (deleted, restorable) and versions (earlier contents), at scrape time.',
    labelNames: ['kind'],
    registers: [registry],
    aggregator: 'first',
    async collect() {
      for (const [kind, stored] of Object.entries(await totals())) this.set({ kind }, stored.bytes);
    },
  });
  new Gauge({
    name: 'atrium_stored_files',
    help: 'Files stored, by kind: files, trash (deleted, restorable) and versions (earlier contents), at scrape time.',
    labelNames: ['kind'],
    registers: [registry],
    aggregator: 'first',
    async collect() {
      for (const [kind, stored] of Object.entries(await totals())) this.set({ kind }, stored.files);
    },
  });
}
