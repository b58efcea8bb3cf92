import { undoOnInterrupt } from '../cleanup.js';
import type { LoadSettings } from '../load.js';
import { measure, probe, type Timing } from '../measure.js';
import type { ResultRow } from '../run-bench.js';
import { folderListing, usersAsMember } from '../scenarios.js';
import { finishSeeding, growGrants, seedSite } from '../seed/seed-site.js';
import type { SiteShape } from '../seed/site-shape.js';
import { ATRIUM_MAIN, startServer, type ServerProcess } from '../server-process.js';
import { postgresStore, sqliteStore, type StoreName } from '../stores.js';
import { treeReadings } from './process-tree.js';

export interface WorkersBenchContext {
  database: StoreName;
  postgresUrl: string;
  site: SiteShape;
  load: LoadSettings;
  /** Each point: warm-up and load seconds, and the rounds (each point keeps its lowest CPU per request). */
  timing: Timing;
  atriumEnv: Record<string, string>;
  nodeArgs: readonly string[];
}

/** The worker counts compared: one process (the default), and a primary with two workers. */
export const WORKER_COUNTS = [1, 2] as const;

/**
 * The same site served by one process and by two workers (ATRIUM_WORKERS=2), in turns: round after
 * round each count is started afresh and loaded with the folder listing and GET /users, each point
 * keeping its lowest CPU per request. CPU is that of every process of the server (the primary and
 * its workers), read from /proc. The load generator runs in this process, on the same cores.
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
    progress(`workers: ${database} site seeded with ${ctx.site.grants.toLocaleString('en')} grants`);
    const scenarios = [folderListing(site, 'key'), usersAsMember(site)];
    const best = new Map<string, ResultRow>();
    for (let round = 0; round < (ctx.timing.repeats ?? 1); round += 1) {
      for (const workers of WORKER_COUNTS) {
        const server = await startWorkers(workers, { ...store.atriumEnv, ...ctx.atriumEnv }, ctx.nodeArgs);
        try {
          for (const scenario of scenarios) {
            const row: ResultRow = { kind: 'workers', database, grants: site.grants, workers, scenario: scenario.name };
            const answer = await probe(server.baseUrl, scenario.request);
            const wrong = scenario.check(answer.status, answer.body);
            const measured: ResultRow = wrong !== undefined ? { ...row, error: wrong } : { ...row, measurement: await measure(server, scenario.request, ctx.load, { ...ctx.timing, repeats: 1 }, false) };
            if ((measured.measurement?.failed ?? 0) > 0) measured.error = `${measured.measurement?.failed} requests failed under load`;
            const key = `${workers}\u0000${scenario.name}`;
            const kept = best.get(key);
            if (kept === undefined || keepsLower(kept, measured)) best.set(key, measured);
          }
        } finally {
          await server.stop();
        }
      }
    }
    for (const workers of WORKER_COUNTS) for (const scenario of scenarios) record(best.get(`${workers}\u0000${scenario.name}`) as ResultRow);
  } catch (error) {
    record({ kind: 'workers', database, scenario: 'workers section', error: (error as Error).message });
  } finally {
    forget();
    await store.destroy();
  }
}

/** Atrium with this many workers, once every one serves, its CPU read over all its processes. */
async function startWorkers(workers: number, env: Record<string, string>, nodeArgs: readonly string[]): Promise<ServerProcess> {
  if (workers === 1) return startServer(ATRIUM_MAIN, { ...env, ATRIUM_WORKERS: '1' }, '/health', nodeArgs);
  const server = await startServer(ATRIUM_MAIN, { ...env, ATRIUM_WORKERS: String(workers) }, '/health', nodeArgs, new RegExp(`"msg":"${workers} workers serving"`));
  return { ...server, ...treeReadings(server.pid) };
}

function keepsLower(kept: ResultRow, row: ResultRow): boolean {
  if (kept.error !== undefined) return false;
  if (row.error !== undefined) return true;
  return (row.measurement?.cpuMicrosPerRequest ?? Infinity) < (kept.measurement?.cpuMicrosPerRequest ?? Infinity);
}
