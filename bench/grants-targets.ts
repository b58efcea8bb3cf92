import type { BenchReport, ResultRow } from './run-bench.js';

/**
 * The grant listing's and the explanation's cost against the 20-entry folder listing's, in the
 * same run on the same site: Atrium's CPU and PostgreSQL's together, as a request costs the
 * machine. The listing of the member's grants (its groups' included) at most 4× the folder
 * listing, the explanation at most 3×.
 */
export function grantsTargets(report: BenchReport): string[][] {
  const rows: string[][] = [];
  const main = (database: string, matches: (scenario: string) => boolean) =>
    report.rows.find((r) => r.kind === 'main' && r.database === database && matches(r.scenario));
  const cost = (row: ResultRow | undefined) =>
    row?.measurement === undefined ? undefined : row.measurement.cpuMicrosPerRequest + (row.measurement.databaseCpuMicrosPerRequest ?? 0);
  const targets: [string, (scenario: string) => boolean, number][] = [
    ['GET /permissions?user_id=&include_groups=true', (s) => s === 'GET /permissions?user_id=&include_groups=true', 4],
    ['GET /permissions/explain', (s) => s === 'GET /permissions/explain', 3],
  ];
  for (const database of ['sqlite', 'postgres']) {
    const listing = cost(main(database, (s) => s.startsWith('GET /folders/<path> (') && s.includes('API key')));
    for (const [name, matches, most] of targets) {
      const measured = cost(main(database, matches));
      if (listing === undefined && measured === undefined) continue;
      const ratio = listing === undefined || measured === undefined ? undefined : measured / listing;
      rows.push([`${database}: ${name}, CPU (Atrium + database) ≤ ${most}× the folder listing's`,
        ratio === undefined ? 'not measured' : `${ratio.toFixed(2)}×`, ratio === undefined ? '' : ratio <= most ? 'yes' : 'no']);
    }
  }
  return rows;
}
