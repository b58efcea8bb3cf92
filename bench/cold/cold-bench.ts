import http from 'node:http';
import type { ResultRow } from '../run-bench.js';
import { explainMember, folderListing, permissionsOfMember, usersAsMember, type Scenario } from '../scenarios.js';
import type { SeededSite } from '../seed/seed-site.js';
import { ATRIUM_MAIN, startServer } from '../server-process.js';
import type { StoreName } from '../stores.js';
import { openOutsideWriter } from './outside-writer.js';
import { perRequest, sequentialLoop, WrongAnswer, writesAlone, type LoopCost } from './sequential-loop.js';

export interface ColdSettings {
  database: StoreName;
  /** Atrium's environment on the seeded site (the store's, with the bench's logging settings). */
  atriumEnv: Record<string, string>;
  nodeArgs: readonly string[];
  /** Requests in each cold loop. */
  requests: number;
  /** Requests in each warm loop: more than cold, as a warm request costs a few 10 ms ticks' worth only over many. */
  warmRequests: number;
  /** Rounds over every scenario, each figure keeping its lowest cost. */
  rounds: number;
}

/** The write alone, as the report finds it. */
export const WRITE_ALONE = 'a write from another connection, alone';

const total = (loop: LoopCost) => (loop.appMicros + loop.databaseMicros) / loop.count;
const lower = (kept: LoopCost | undefined, loop: LoopCost) => (kept === undefined || total(loop) < total(kept) ? loop : kept);

/**
 * The cost of a request after a write, when every cache is empty: on a busy site uploads,
 * downloads (a History record each) and sign-ins write all the time, while the main section loads
 * each scenario with nothing writing and so measures warm caches only. Each scenario runs as
 * `requests` sequential requests, each preceded by a commit from another connection, then as
 * sequential requests with no write (warm, for comparison); the writes alone are measured too and
 * their cost, as Atrium and PostgreSQL see it, taken off the cold figure. The rounds take the
 * scenarios in turns so that the machine's other work falls on each alike.
 */
export async function coldBench(site: SeededSite, settings: ColdSettings, record: (row: ResultRow) => void): Promise<void> {
  const { database } = settings;
  const withDatabaseCpu = database === 'postgres';
  const scenarios: Scenario[] = [folderListing(site, 'key'), usersAsMember(site), permissionsOfMember(site), explainMember(site)];
  const server = await startServer(ATRIUM_MAIN, settings.atriumEnv, '/health', settings.nodeArgs);
  const writer = await openOutsideWriter(settings.atriumEnv);
  // One connection, kept alive: the cold cost is the request's, not a TCP handshake's.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const row = { kind: 'cold' as const, database, grants: site.grants };
  try {
    const wrong = new Map<string, string>();
    // Warm-up: the first cold requests also compile Atrium's code paths.
    for (const scenario of scenarios) {
      await sequentialLoop(server, scenario, Math.min(settings.requests, 50), writer, withDatabaseCpu, agent).catch((error: unknown) => {
        if (!(error instanceof WrongAnswer)) throw error;
        wrong.set(scenario.name, error.message);
      });
    }
    let writes: LoopCost | undefined;
    const cold = new Map<string, LoopCost>();
    const warm = new Map<string, LoopCost>();
    for (let round = 0; round < settings.rounds; round += 1) {
      writes = lower(writes, await writesAlone(server, writer, settings.requests, withDatabaseCpu));
      for (const scenario of scenarios.filter((s) => !wrong.has(s.name))) {
        try {
          cold.set(scenario.name, lower(cold.get(scenario.name), await sequentialLoop(server, scenario, settings.requests, writer, withDatabaseCpu, agent)));
          // One unmeasured request fills the caches the last write emptied.
          await sequentialLoop(server, scenario, 1, undefined, withDatabaseCpu, agent);
          warm.set(scenario.name, lower(warm.get(scenario.name), await sequentialLoop(server, scenario, settings.warmRequests, undefined, withDatabaseCpu, agent)));
        } catch (error) {
          if (!(error instanceof WrongAnswer)) throw error;
          wrong.set(scenario.name, error.message);
        }
      }
    }
    const writeCost = writes as LoopCost;
    record({ ...row, scenario: WRITE_ALONE, measurement: perRequest(server, writeCost, withDatabaseCpu) });
    for (const scenario of scenarios) {
      const error = wrong.get(scenario.name);
      if (error !== undefined) {
        record({ ...row, scenario: scenario.name, cache: 'cold', error });
        continue;
      }
      record({ ...row, scenario: scenario.name, cache: 'cold', measurement: perRequest(server, cold.get(scenario.name) as LoopCost, withDatabaseCpu, writeCost) });
      record({ ...row, scenario: scenario.name, cache: 'warm', measurement: perRequest(server, warm.get(scenario.name) as LoopCost, withDatabaseCpu) });
    }
  } finally {
    agent.destroy();
    await writer.close();
    await server.stop();
  }
}
