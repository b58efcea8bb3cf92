import { undoOnInterrupt } from '../cleanup.js';
import type { LoadSettings } from '../load.js';
import { measure, measureLoad, probe, type Timing } from '../measure.js';
import type { ResultRow } from '../run-bench.js';
import { folderListing, HELLO, usersAsMember, type Scenario } from '../scenarios.js';
import { finishSeeding, growGrants, seedSite } from '../seed/seed-site.js';
import type { SiteShape } from '../seed/site-shape.js';
import path from 'node:path';
import { ATRIUM_MAIN, startServer, type ServerProcess } from '../server-process.js';
import { postgresStore, sqliteStore, type StoreName } from '../stores.js';
import { treeReadings } from './process-tree.js';
import { wrkLoad } from './wrk-load.js';

export interface WorkersBenchContext {
  database: StoreName;
  postgresUrl: string;
  site: SiteShape;
  load: LoadSettings;
  /** Each point: warm-up and load seconds, and the rounds (each point keeps its lowest CPU per request). */
  timing: Timing;
  atriumEnv: Record<string, string>;
  nodeArgs: readonly string[];
  /** Also the bare Fastify baseline with one process and two (once a run, with the first database). */
  withBaseline: boolean;
  /** wrk's command when it is installed (wrk-load.ts): it drives the load instead of autocannon. */
  wrk: string | undefined;
}

/** The baseline under node:cluster, as Atrium's workers run: what spreading requests over processes costs on this machine. */
const BASELINE_WORKERS_MAIN = path.resolve('bench/workers/baseline-workers.mjs');

/** The worker counts compared: one process (the default), and a primary with two workers. */
export const WORKER_COUNTS = [1, 2] as const;

/**
 * The same site served by one process and by two workers (ATRIUM_WORKERS=2), in turns: round after
 * round each count is started afresh and loaded with the folder listing and GET /users, each point
 * keeping its lowest CPU per request. CPU is that of every process of the server (the primary and
 * its workers), read from /proc. The load is driven by wrk when it is installed (wrk-load.ts says
 * why), else by autocannon in this process; either runs on the same cores. With
 * `withBaseline`, the bare Fastify baseline is run the same way beside them: what node:cluster and
 * the machine charge for two processes, without Atrium.
 */
export async function workersBench(ctx: WorkersBenchContext, record: (row: ResultRow) => void, progress: (line: string) => void): Promise<void> {
  const { database } = ctx;
  const store = database === 'sqlite' ? await sqliteStore() : await postgresStore(ctx.postgresUrl);
  if (store === undefined) return progress(`workers: PostgreSQL did not answer at ${ctx.postgresUrl}`);
  const forget = undoOnInterrupt(() => store.destroy());
  try {
    const writer = await store.openWriter();
    const site = await (async () => {
      try {
        const seeded = await seedSite(writer, ctx.site, []);
        await growGrants(writer, seeded, ctx.site.grants);
        await finishSeeding(writer);
        return seeded;
      } finally {
        await writer.close();
      }
    })();
    progress(`workers: ${database} site seeded with ${ctx.site.grants.toLocaleString('en')} grants; load by ${ctx.wrk === undefined ? 'autocannon (wrk is not installed: with two workers the figures include the load generator taking a core)' : 'wrk'}`);
    const scenarios = [folderListing(site, 'key'), usersAsMember(site)];
    const best = new Map<string, ResultRow>();
    const keep = (row: ResultRow) => {
      const key = `${row.database}\u0000${row.workers}\u0000${row.scenario}`;
      const kept = best.get(key);
      if (kept === undefined || keepsLower(kept, row)) best.set(key, row);
    };
    for (let round = 0; round < (ctx.timing.repeats ?? 1); round += 1) {
      for (const workers of WORKER_COUNTS) {
        if (ctx.withBaseline) {
          const baseline = await startWorkers(BASELINE_WORKERS_MAIN, workers, {}, [], '/');
          try {
            keep(await measured(baseline, HELLO, { kind: 'workers', database: 'baseline', workers }, ctx));
          } finally {
            await baseline.stop();
          }
        }
        const server = await startWorkers(ATRIUM_MAIN, workers, { ...store.atriumEnv, ...ctx.atriumEnv }, ctx.nodeArgs, '/health');
        try {
          for (const scenario of scenarios) keep(await measured(server, scenario, { kind: 'workers', database, grants: site.grants, workers }, ctx));
        } finally {
          await server.stop();
        }
      }
    }
    for (const row of best.values()) record(row);
  } catch (error) {
    record({ kind: 'workers', database, scenario: 'workers section', error: (error as Error).message });
  } finally {
    forget();
    await store.destroy();
  }
}

/** A server with this many workers, once every one serves, its CPU read over all its processes. */
async function startWorkers(main: string, workers: number, env: Record<string, string>, nodeArgs: readonly string[], healthPath: string): Promise<ServerProcess> {
  if (workers === 1) return startServer(main, { ...env, ATRIUM_WORKERS: '1' }, healthPath, nodeArgs);
  const server = await startServer(main, { ...env, ATRIUM_WORKERS: String(workers) }, healthPath, nodeArgs, new RegExp(`"msg":"${workers} workers serving"`));
  return { ...server, ...treeReadings(server.pid) };
}

/** One scenario's figures, after checking its answer. */
async function measured(server: ServerProcess, scenario: Scenario, row: Omit<ResultRow, 'scenario'>, ctx: WorkersBenchContext): Promise<ResultRow> {
  const answer = await probe(server.baseUrl, scenario.request);
  const wrong = scenario.check(answer.status, answer.body);
  if (wrong !== undefined) return { ...row, scenario: scenario.name, error: wrong };
  // Each process compiles its own hot code: every worker gets as many warm-up requests as one process alone.
  const warmupSeconds = ctx.timing.warmupSeconds * (row.workers ?? 1);
  const timing = { ...ctx.timing, warmupSeconds, repeats: 1 };
  const wrk = ctx.wrk;
  const measurement = wrk === undefined
    ? await measure(server, scenario.request, ctx.load, timing, false)
    : await measureLoad(server, (seconds) => wrkLoad(wrk, server.baseUrl, scenario.request, ctx.load, seconds), timing, false);
  return { ...row, scenario: scenario.name, measurement, loadGenerator: wrk === undefined ? 'autocannon' : 'wrk', ...(measurement.failed > 0 ? { error: `${measurement.failed} requests failed under load` } : {}) };
}

function keepsLower(kept: ResultRow, row: ResultRow): boolean {
  if (kept.error !== undefined) return false;
  if (row.error !== undefined) return true;
  return (row.measurement?.cpuMicrosPerRequest ?? Infinity) < (kept.measurement?.cpuMicrosPerRequest ?? Infinity);
}
