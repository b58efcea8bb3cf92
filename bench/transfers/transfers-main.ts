import fs from 'node:fs';
import os from 'node:os';
import { undoAll } from '../cleanup.js';
import { benchOptions } from '../options.js';
import { writeReport } from '../report.js';
import type { BenchReport, ResultRow } from '../run-bench.js';
import { ATRIUM_MAIN } from '../server-process.js';
import { transfersBench } from './transfers-bench.js';
import { transfersSection, transfersTargets } from './transfers-report.js';

/**
 * The transfers section alone, for working on transfer speed without the whole bench:
 *   npm run build && npx tsc -p bench/tsconfig.json && node dist/.bench/bench/transfers/transfers-main.js
 * with the bench's settings (BENCH_QUICK, BENCH_DATABASES, BENCH_TRANSFER_MIB,
 * BENCH_TRANSFER_PARALLEL, BENCH_NODE_ARGS). `npm run bench` runs the same section for each database.
 */
async function main(): Promise<void> {
  if (!fs.existsSync(ATRIUM_MAIN)) throw new Error(`${ATRIUM_MAIN} is missing: run \`npm run build\` first`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void undoAll().finally(() => process.exit(130)));
  const options = benchOptions(process.env);
  const started = Date.now();
  const rows: ResultRow[] = [];
  const atriumEnv = { ATRIUM_LOG_LEVEL: 'info', ATRIUM_ACCESS_LOG: 'false' };
  for (const database of options.databases) {
    await transfersBench({ database, postgresUrl: options.postgresUrl, ...options.transfers, atriumEnv, nodeArgs: options.atriumNodeArgs },
      (row) => { rows.push(row); process.stderr.write(`${row.database}: ${row.scenario}: ${row.error ?? 'done'}\n`); }, (line) => process.stderr.write(`${line}\n`));
  }
  const report: BenchReport = {
    startedAt: new Date(started).toISOString(),
    seconds: Math.round((Date.now() - started) / 1000),
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    settings: { quick: options.quick, ...options.load, timing: options.timing, growthTiming: options.growthTiming, atriumEnv },
    site: { ...options.site, folderSizes: [], grantSteps: [] },
    rows,
    notes: [],
  };
  const targets = transfersTargets(report);
  process.stdout.write(`${[...transfersSection(report), '| target | measured | met |', '|---|---|---|', ...targets.map((r) => `| ${r.join(' | ')} |`)].join('\n')}\n`);
  process.stdout.write(`\nSaved to ${writeReport(report, options.resultsDir)}\n`);
  if (rows.some((row) => row.error !== undefined)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`transfers bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
