import type { Timing } from '../measure.js';
import type { ResultRow } from '../run-bench.js';
import type { Scenario } from '../scenarios.js';
import type { SeededSite } from '../seed/seed-site.js';
import { ATRIUM_MAIN, startServer, type ServerProcess } from '../server-process.js';
import type { StoreName } from '../stores.js';
import { dryRunOfRootGrant, grantCreation, historyPage, reachOfFolder, smallUpload, workspaceHistoryPage } from './audit-scenarios.js';
import { seedAudit, writerOn } from './audit-seed.js';
import { growHistory } from './history-growth.js';
import { measureRecording } from './recording-cost.js';

/** Runs one scenario and gives its row; `connections` overrides the run's (1 for a latency). */
export type RunScenario = (server: ServerProcess, scenario: Scenario, timing: Timing, row: Omit<ResultRow, 'scenario'>, connections?: number) => Promise<ResultRow>;

export interface AuditContext {
  database: StoreName;
  /** A copy of the site taken when it held `site.grants` grants, with the ids free above it. */
  env: Record<string, string>;
  ids: { groupId: number; grantId: number };
  timing: Timing;
  growthTiming: Timing;
  historySteps: readonly number[];
  /** Records appended to measure what one costs (measureRecording). */
  recordingEvents: number;
  atriumEnv: Record<string, string>;
  nodeArgs: readonly string[];
}

/**
 * History and access review (docs/benchmarks.md): what recording adds to a grant creation and to
 * an upload, how long `reach` and the heaviest dry run take, and whether a page of History stays
 * as cheap from 10^4 to 10^7 records.
 */
export async function auditBench(site: SeededSite, ctx: AuditContext, run: RunScenario, record: (row: ResultRow) => void): Promise<void> {
  const { database } = ctx;
  const writer = await writerOn(database, ctx.env);
  let audit;
  try {
    audit = await seedAudit(writer, site, ctx.ids);
  } finally {
    await writer.close();
  }
  const base = { kind: 'audit' as const, database, grants: site.grants };
  const atrium = await startServer(ATRIUM_MAIN, { ...ctx.env, ...ctx.atriumEnv }, '/health', ctx.nodeArgs);
  try {
    record(await run(atrium, grantCreation(site), ctx.timing, base));
    record(await run(atrium, smallUpload(site), ctx.timing, base));
    // Latencies of single requests: one connection, so no request waits for another.
    record(await run(atrium, reachOfFolder(site), ctx.timing, base, 1));
    record(await run(atrium, dryRunOfRootGrant(site, audit), ctx.timing, base, 1));
  } finally {
    await atrium.stop();
  }
  const cost = await measureRecording(database, ctx.env, ctx.recordingEvents);
  record({ ...base, scenario: 'one History record, appended inside a change', recordingCost: cost });

  for (const records of ctx.historySteps) {
    await growHistory(database, ctx.env, records);
    const server = await startServer(ATRIUM_MAIN, { ...ctx.env, ...ctx.atriumEnv }, '/health', ctx.nodeArgs);
    try {
      for (const scenario of [historyPage(site), workspaceHistoryPage(site)]) {
        record(await run(server, scenario, ctx.growthTiming, { kind: 'history-growth', database, historyRecords: records }));
      }
    } finally {
      await server.stop();
    }
  }
}
