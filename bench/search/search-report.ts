import type { BenchReport } from '../run-bench.js';
import { SEARCH_SCENARIOS } from './search-bench.js';

const table = (header: string[], rows: string[][]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

/** What a median search may take in a site of 100,000 entries, on either database. */
export const SEARCH_MEDIAN_TARGET_MS = 50;

/** The search section's table: each scenario's latencies per database. */
export function searchSection(report: BenchReport): string[] {
  const rows = report.rows.filter((r) => r.kind === 'search');
  if (rows.length === 0) return [];
  return [
    `Search by part of a name (search_all) in a site of ${(rows[0]?.folderSize ?? 0).toLocaleString('en')} entries: each search another text, timed alone, request to last byte.`,
    '',
    table(['database', 'scenario', 'searches', 'median ms', 'p90 ms', 'max ms', 'results (median)', 'CPU ms/search (Atrium + database)', ''], rows.map((r) => {
      const l = r.searchLatency;
      const cpu = l === undefined ? '' : `${(l.cpuMsPerSearch.atrium + l.cpuMsPerSearch.database).toFixed(1)} (${l.cpuMsPerSearch.atrium.toFixed(1)} + ${l.cpuMsPerSearch.database.toFixed(1)})`;
      return [r.database, r.scenario, String(l?.searches ?? ''), l?.medianMs.toFixed(1) ?? '', l?.p90Ms.toFixed(1) ?? '', l?.maxMs.toFixed(1) ?? '', String(l?.medianResults ?? ''), cpu,
        r.error !== undefined ? `ERROR: ${r.error}` : ''];
    })),
    '',
  ];
}

/** The median search with a text the name index can look up, as a person's search shows a page of results. */
export function searchTargets(report: BenchReport): string[][] {
  const rows: string[][] = [];
  for (const database of ['sqlite', 'postgres']) {
    for (const scenario of [SEARCH_SCENARIOS.admin(100), SEARCH_SCENARIOS.member]) {
      const row = report.rows.find((r) => r.kind === 'search' && r.database === database && r.scenario === scenario);
      if (row === undefined) continue;
      const median = row.searchLatency?.medianMs;
      rows.push([`${database}: ${scenario}: median ≤ ${SEARCH_MEDIAN_TARGET_MS} ms`, median === undefined ? `ERROR: ${row.error ?? 'not measured'}` : `${median.toFixed(1)} ms`,
        median === undefined ? '' : median <= SEARCH_MEDIAN_TARGET_MS ? 'yes' : 'no']);
    }
  }
  return rows;
}
