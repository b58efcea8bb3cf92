import http from 'node:http';
import { undoOnInterrupt } from '../cleanup.js';
import { openOutsideWriter, type OutsideWriter } from '../cold/outside-writer.js';
import { perRequest, sequentialLoop, WrongAnswer, writesAlone } from '../cold/sequential-loop.js';
import type { LoadSettings } from '../load.js';
import { measure, probe, type Timing } from '../measure.js';
import type { ResultRow } from '../run-bench.js';
import type { Scenario } from '../scenarios.js';
import { ATRIUM_MAIN, startServer, type ServerProcess } from '../server-process.js';
import { postgresStore, type BenchStore } from '../stores.js';
import { seedLargeSite, type LargeSite } from './large-seed.js';
import { largeScenarios, nextHistoryCursor } from './large-scenarios.js';
import { siteTotals, smallSiteOf, type LargeSiteShape } from './large-shape.js';

export interface LargeBenchContext {
  postgresUrl: string;
  shape: LargeSiteShape;
  load: LoadSettings;
  timing: Timing;
  /** Requests in each loop after a write (every cache empty). */
  coldRequests: number;
  /**
   * Rounds over every scenario, each figure keeping its lowest CPU: a server's first loads cost
   * more than its later ones, and the machine's other work only ever adds.
   */
  rounds: number;
  atriumEnv: Record<string, string>;
  nodeArgs: readonly string[];
  /** Leave both schemas in place afterwards (`BENCH_LARGE_KEEP=1`), to EXPLAIN the server's queries on them; drop them by hand. */
  keepSchemas: boolean;
}

/** The seed's row, as the report finds it. */
export const SEED_ROW = 'seed';

/** Whether `row` should replace `kept` as a figure: an error always shows, else the lower CPU. */
function keepsLower(kept: ResultRow, row: ResultRow): boolean {
  if (kept.error !== undefined) return false;
  if (row.error !== undefined) return true;
  return (row.measurement?.cpuMicrosPerRequest ?? Infinity) < (kept.measurement?.cpuMicrosPerRequest ?? Infinity);
}

interface SiteUnderTest {
  which: 'large' | 'small';
  store: BenchStore;
  site: LargeSite;
  server?: ServerProcess;
  scenarios?: Scenario[];
  writer?: OutsideWriter;
}

/**
 * A large organisation's site on PostgreSQL against a small one (its first Workspace alone),
 * seeded the same way in two schemas, served by two Atrium processes side by side, each scenario
 * measured on the small site and then on the large one before the next scenario, so the machine's
 * other work falls on both alike, in `rounds` rounds, each figure keeping its lowest CPU. Each is measured as the main section measures (autocannon, warm
 * caches) and as the cold section does (one request at a time, each after a commit from another
 * connection, so the database is asked every time: where the site's size can show).
 */
export async function largeSiteBench(ctx: LargeBenchContext, record: (row: ResultRow) => void, progress: (line: string) => void): Promise<void> {
  const row = { kind: 'large-site' as const, database: 'postgres' as const };
  const sites: SiteUnderTest[] = [];
  const forget = undoOnInterrupt(async () => { for (const s of sites) await s.store.destroy(); });
  try {
    for (const [which, shape] of [['small', smallSiteOf(ctx.shape)], ['large', ctx.shape]] as const) {
      const store = await postgresStore(ctx.postgresUrl);
      if (store === undefined) {
        record({ ...row, scenario: SEED_ROW, skipped: `PostgreSQL did not answer at ${ctx.postgresUrl}` });
        return;
      }
      sites.push({ which, store, site: undefined as unknown as LargeSite });
      const seeded = await seedLargeSite(store.atriumEnv.ATRIUM_DATABASE_URL as string, shape, progress);
      (sites.at(-1) as SiteUnderTest).site = seeded;
      record({ ...row, scenario: SEED_ROW, site: which, seed: { seconds: seeded.seedSeconds, bytes: seeded.bytes, ...siteTotals(shape) } });
    }
    await Promise.all(sites.map(async (s) => {
      s.server = await startServer(ATRIUM_MAIN, { ...s.store.atriumEnv, ...ctx.atriumEnv }, '/health', ctx.nodeArgs);
      s.scenarios = largeScenarios(s.site, await nextHistoryCursor(s.server.baseUrl, s.site));
      s.writer = await openOutsideWriter(s.store.atriumEnv);
    }));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const best = new Map<string, ResultRow>();
      const keep = (key: string, kept: ResultRow) => {
        const before = best.get(key);
        if (before === undefined || keepsLower(before, kept)) best.set(key, kept);
      };
      const count = sites[0]?.scenarios?.length ?? 0;
      for (let round = 0; round < ctx.rounds; round += 1) {
        // The writes alone, whose cost is taken off each cold request's.
        const writeLoops = new Map<SiteUnderTest, Awaited<ReturnType<typeof writesAlone>>>();
        for (const s of sites) writeLoops.set(s, await writesAlone(s.server as ServerProcess, s.writer as OutsideWriter, ctx.coldRequests, true));
        for (let i = 0; i < count; i += 1) {
          for (const s of sites) {
            const server = s.server as ServerProcess;
            const scenario = (s.scenarios as Scenario[])[i] as Scenario;
            const at = { ...row, scenario: scenario.name, site: s.which };
            const answer = await probe(server.baseUrl, scenario.request);
            const error = scenario.check(answer.status, answer.body);
            if (error !== undefined) {
              keep(`${i} ${s.which} warm`, { ...at, cache: 'warm', error });
              continue;
            }
            const measurement = await measure(server, scenario.request, ctx.load, ctx.timing, true);
            keep(`${i} ${s.which} warm`, measurement.failed > 0 ? { ...at, cache: 'warm', measurement, error: `${measurement.failed} requests failed under load` } : { ...at, cache: 'warm', measurement });
            try {
              // A first cold loop, unmeasured, compiles the cold code paths.
              await sequentialLoop(server, scenario, Math.min(ctx.coldRequests, 20), s.writer, true, agent);
              const cold = await sequentialLoop(server, scenario, ctx.coldRequests, s.writer, true, agent);
              keep(`${i} ${s.which} cold`, { ...at, cache: 'cold', measurement: perRequest(server, cold, true, writeLoops.get(s)) });
            } catch (caught) {
              if (!(caught instanceof WrongAnswer)) throw caught;
              keep(`${i} ${s.which} cold`, { ...at, cache: 'cold', error: caught.message });
            }
          }
        }
      }
      for (let i = 0; i < count; i += 1) {
        for (const s of sites) for (const cache of ['warm', 'cold']) {
          const kept = best.get(`${i} ${s.which} ${cache}`);
          if (kept !== undefined) record(kept);
        }
      }
    } finally {
      agent.destroy();
    }
  } catch (error) {
    record({ ...row, scenario: 'large-site section', error: (error as Error).message });
  } finally {
    for (const s of sites) {
      await s.writer?.close();
      await s.server?.stop();
      if (ctx.keepSchemas) progress(`large-site section: the ${s.which} site's schema is kept: ${s.store.atriumEnv.ATRIUM_DATABASE_URL}`);
      else await s.store.destroy();
    }
    forget();
  }
}
