import { expect } from 'vitest';
import { benchOptions, type BenchSection } from '../../bench/options.js';
import { runBench, type BenchReport } from '../../bench/run-bench.js';
import { QUICK_SITE } from '../../bench/seed/site-shape.js';
import { SMOKE_LARGE_SITE } from '../../bench/large-site/large-shape.js';
import { POSTGRES_TEST_URL } from '../support/postgres-server.js';

/**
 * The bench harness end to end, some of its sections at a time, at the smallest size that still
 * runs each one's code: a tiny site, loads of a fraction of a second, one point in each growth
 * series, 8 MiB transfers, a handful of SFTP sessions and a console folder one entry past its
 * first page. It seeds, starts the servers, checks every scenario's answer and produces a report;
 * each section then costs a few seconds, most of them its servers starting. The sections are run
 * by three files (bench-smoke-*.test.ts), so that they run beside each other and none holds the
 * suite at its end. No figure is asserted: benchmarks are not tests, and this machine's speed is
 * not the suite's business.
 */
export async function runSmoke(sections: BenchSection[]): Promise<BenchReport> {
  const quick = benchOptions({ BENCH_QUICK: '1', BENCH_SECTIONS: sections.join(',') });
  // A third of a second holds a few of the slowest requests (a sign-in's password hash, a dry
  // run, each sent on several connections at once) even on a loaded machine, and many 10 ms ticks
  // of the server's CPU, in which the figures are read; the growth points ask only for cheap
  // reads, and 0.15 s holds hundreds. Half a second each (and a quarter for the growth points)
  // cost this run 10 s more of CPU (60 s against 50, alone on 2 cores).
  const options = {
    ...quick,
    databases: ['sqlite' as const],
    timing: { warmupSeconds: 0, seconds: 0.3 },
    growthTiming: { warmupSeconds: 0, seconds: 0.15 },
    site: { ...QUICK_SITE, grants: 1_000 },
    grantSteps: [1_000],
    folderSizes: [100],
    historySteps: [1_000],
    recordingEvents: 100,
    webdav: { folderSize: 100, transferBytes: 8 * 2 ** 20, transferRounds: 1 },
    sftp: { transferBytes: 8 * 2 ** 20, transferRounds: 1, sessions: 2, smallFiles: 4 },
    transfers: { transferBytes: 8 * 2 ** 20, transferRounds: 1, parallelUploads: 2, idleSeconds: 0.5 },
    cold: { requests: 10, warmRequests: 10, rounds: 1 },
    // One row past the console's first page of 200.
    console: { rounds: 1, warmupRounds: 0, folderSize: 201 },
    automations: { automations: 3, rounds: 1 },
    search: { entries: 2_000, searches: 10 },
    // The large-site section runs on PostgreSQL whatever `databases` says: the suite's server.
    postgresUrl: POSTGRES_TEST_URL,
    large: { shape: SMOKE_LARGE_SITE, coldRequests: 5, rounds: 1, keepSchemas: false },
  };
  const report = await runBench(options, () => undefined);

  expect(report.rows.filter((row) => row.error !== undefined)).toEqual([]);
  // The baseline, measured at the start and the end of every run.
  expect(report.rows.filter((row) => row.database === 'baseline' && row.scenario.startsWith('baseline: bare Fastify hello (')).length).toBe(2);
  for (const row of report.rows.filter((r) => r.measurement !== undefined)) {
    expect(row.measurement?.requests, `${row.scenario}: ${row.measurement?.failed} failed`).toBeGreaterThan(0);
    // The listing during the uploads has no CPU of its own: the server's CPU then is the uploads'.
    // A handful of requests after a write may well take less than one 10 ms tick of CPU.
    if (row.kind !== 'cold' && row.cache !== 'cold' && !row.scenario.includes('during the parallel uploads')) expect(row.measurement?.cpuMicrosPerRequest).toBeGreaterThan(0);
  }
  return report;
}
