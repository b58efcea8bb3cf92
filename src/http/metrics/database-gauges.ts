import { performance } from 'node:perf_hooks';
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { Database } from '../../db/database.js';

/** Gauges read from the database when Prometheus scrapes, and only then. */
export function registerDatabaseGauges(registry: Registry, database: Database): void {
  new Gauge({
    name: 'atrium_sessions_active',
    help: 'Sessions not ended, counted in the database at scrape time.',
    registers: [registry],
    // Every worker counts the same rows: with several, the count is given once, not summed.
    aggregator: 'first',
    async collect() {
      // One count per scrape rather than a count kept in memory: with several nodes on one
      // database, only the database knows every session.
      const row = await database.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number | string>().as('count')).where('ended_at', 'is', null).executeTakeFirst();
      this.set(Number(row?.count ?? 0));
    },
  });

  const queries = new Histogram({
    name: 'atrium_database_query_duration_seconds',
    help: 'Time each database statement took, and whether it failed.',
    labelNames: ['outcome'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [registry],
  });
  database.onQuery((durationMs, failed) => queries.observe({ outcome: failed ? 'error' : 'ok' }, durationMs / 1000));
  new Gauge({
    name: 'atrium_database_pool_connections',
    help: 'PostgreSQL pool connections by state (in use, idle) and requests waiting for one; absent on SQLite.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const use = database.poolUse();
      if (use === undefined) return;
      this.set({ state: 'in_use' }, use.total - use.idle);
      this.set({ state: 'idle' }, use.idle);
      this.set({ state: 'waiting' }, use.waiting);
    },
  });

  // Whether the database answers, and how long one round trip takes from this node, at scrape
  // time. Both gauges are collected at once in a scrape and share that scrape's one ping.
  let pingInFlight: Promise<{ up: boolean; seconds: number }> | undefined;
  const pingOnce = () => {
    pingInFlight ??= timedPing(database).finally(() => {
      pingInFlight = undefined;
    });
    return pingInFlight;
  };
  new Gauge({
    name: 'atrium_database_up',
    help: 'Whether the database answered a ping at scrape time (1) or not (0).',
    registers: [registry],
    aggregator: 'min',
    async collect() {
      this.set((await pingOnce()).up ? 1 : 0);
    },
  });
  new Gauge({
    name: 'atrium_database_ping_seconds',
    help: 'Round-trip time of one ping to the database at scrape time.',
    registers: [registry],
    aggregator: 'average',
    async collect() {
      this.set((await pingOnce()).seconds);
    },
  });
}

async function timedPing(database: Database): Promise<{ up: boolean; seconds: number }> {
  const started = performance.now();
  const up = await database.ping().catch(() => false);
  return { up, seconds: (performance.now() - started) / 1000 };
}
