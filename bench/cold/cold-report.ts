import type { BenchReport, ResultRow } from '../run-bench.js';
import { WRITE_ALONE } from './cold-bench.js';

const fixed = (value: number | undefined) => (value === undefined ? '' : value.toFixed(0));
const cost = (row: ResultRow | undefined) =>
  row?.measurement === undefined ? undefined : row.measurement.cpuMicrosPerRequest + (row.measurement.databaseCpuMicrosPerRequest ?? 0);
const isListing = (scenario: string) => scenario.startsWith('GET /folders/<path> (') && scenario.includes('API key');
const coldRows = (report: BenchReport, database: string) => report.rows.filter((r) => r.kind === 'cold' && r.database === database);

/** The cold section's table: each scenario after a write and warm, one request at a time. */
export function coldSection(report: BenchReport): string[] {
  if (!report.rows.some((r) => r.kind === 'cold')) return [];
  const rows: string[][] = [];
  for (const database of ['sqlite', 'postgres']) {
    const ofDatabase = coldRows(report, database);
    const listing = cost(ofDatabase.find((r) => r.cache === 'cold' && isListing(r.scenario)));
    for (const coldRow of ofDatabase.filter((r) => r.cache === 'cold')) {
      const warmRow = ofDatabase.find((r) => r.cache === 'warm' && r.scenario === coldRow.scenario);
      const coldCost = cost(coldRow);
      const warmCost = cost(warmRow);
      rows.push([database, coldRow.scenario,
        coldRow.error !== undefined ? `ERROR: ${coldRow.error}` : fixed(coldRow.measurement?.cpuMicrosPerRequest), fixed(coldRow.measurement?.databaseCpuMicrosPerRequest),
        fixed(warmRow?.measurement?.cpuMicrosPerRequest), fixed(warmRow?.measurement?.databaseCpuMicrosPerRequest),
        coldCost !== undefined && warmCost !== undefined && warmCost > 0 ? `${(coldCost / warmCost).toFixed(1)}×` : '',
        coldCost !== undefined && listing !== undefined ? `${(coldCost / listing).toFixed(2)}×` : '']);
    }
    const write = ofDatabase.find((r) => r.scenario === WRITE_ALONE)?.measurement;
    if (write !== undefined) rows.push([database, `${WRITE_ALONE} (taken off the cold figures)`, fixed(write.cpuMicrosPerRequest), fixed(write.databaseCpuMicrosPerRequest), '', '', '', '']);
  }
  const table = (header: string[], body: string[][]) =>
    [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...body.map((r) => `| ${r.join(' | ')} |`)].join('\n');
  return [
    'Cost after a write (every cache empty): sequential requests, each after a commit from another connection, against the same requests with no write (warm); CPU µs per request, Atrium and PostgreSQL.',
    '',
    table(['database', 'scenario', 'cold CPU µs/req', 'cold DB CPU µs/req', 'warm CPU µs/req', 'warm DB CPU µs/req', 'cold ÷ warm', 'cold × cold listing'], rows),
    '',
  ];
}

/** The targets 1 and 2 applied to the cold case: include_groups ≤ 4× the cold listing, explain ≤ 3×. */
export function coldTargets(report: BenchReport): string[][] {
  const rows: string[][] = [];
  const targets: [string, number][] = [['GET /permissions?user_id=&include_groups=true', 4], ['GET /permissions/explain', 3]];
  for (const database of ['sqlite', 'postgres']) {
    const ofDatabase = coldRows(report, database).filter((r) => r.cache === 'cold');
    if (ofDatabase.length === 0) continue;
    const listing = cost(ofDatabase.find((r) => isListing(r.scenario)));
    for (const [name, most] of targets) {
      const measured = cost(ofDatabase.find((r) => r.scenario === name));
      const ratio = listing === undefined || measured === undefined ? undefined : measured / listing;
      rows.push([`${database}: ${name} after a write (cold), CPU (Atrium + database) ≤ ${most}× the cold folder listing's`,
        ratio === undefined ? 'not measured' : `${ratio.toFixed(2)}×`, ratio === undefined ? '' : ratio <= most ? 'yes' : 'no']);
    }
  }
  return rows;
}
