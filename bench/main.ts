import fs from 'node:fs';
import { undoAll } from './cleanup.js';
import { benchOptions } from './options.js';
import { formatReport, writeReport } from './report.js';
import { runBench } from './run-bench.js';
import { ATRIUM_MAIN } from './server-process.js';

/** `npm run bench`: builds Atrium first (see package.json), runs everything, prints and saves the report. */
async function main(): Promise<void> {
  if (!fs.existsSync(ATRIUM_MAIN)) throw new Error(`${ATRIUM_MAIN} is missing: run \`npm run build\` first`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`${signal}: stopping the servers and dropping the temporary databases\n`);
      void undoAll().finally(() => process.exit(130));
    });
  }
  const options = benchOptions(process.env);
  const report = await runBench(options, (line) => process.stderr.write(`${line}\n`));
  const file = writeReport(report, options.resultsDir);
  process.stdout.write(`\n${formatReport(report)}\n\nSaved to ${file}\n`);
  if (report.rows.some((row) => row.error !== undefined)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
