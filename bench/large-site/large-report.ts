import type { BenchReport, ResultRow } from '../run-bench.js';
import { SEED_ROW } from './large-bench.js';
import { LARGE_SCENARIOS } from './large-scenarios.js';

const table = (header: string[], rows: string[][]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const fixed = (n: number | undefined, digits = 0) => (n === undefined ? '' : n.toFixed(digits));

/** What a hot request may cost on the large site, as a multiple of the same request on the small one. */
export const LARGE_RATIO_TARGET = 1.3;
/** What the process serving the large site may hold in memory. */
export const LARGE_RSS_TARGET_MB = 250;

const rowsOf = (report: BenchReport) => report.rows.filter((r) => r.kind === 'large-site');
const find = (rows: ResultRow[], scenario: string, site: 'large' | 'small', cache: 'warm' | 'cold') =>
  rows.find((r) => r.scenario === scenario && r.site === site && r.cache === cache);
const cpu = (r: ResultRow | undefined) => r?.measurement?.cpuMicrosPerRequest;
const ratio = (large: number | undefined, small: number | undefined) => (large === undefined || small === undefined || small === 0 ? undefined : large / small);
const cell = (r: ResultRow | undefined) => (r === undefined ? 'not run' : r.error !== undefined ? `ERROR: ${r.error}` : fixed(cpu(r)));

/** The largest resident memory the large site's server showed in any of its loads. */
export function largeSiteRssMb(report: BenchReport): number | undefined {
  const sizes = rowsOf(report).filter((r) => r.site === 'large' && r.measurement !== undefined).map((r) => r.measurement?.rssMb as number);
  return sizes.length === 0 ? undefined : Math.max(...sizes);
}

/** The section's tables: the two seeds, then each scenario's CPU on either site, warm and cold, and the ratios. */
export function largeSiteSection(report: BenchReport): string[] {
  const rows = rowsOf(report);
  if (rows.length === 0) return [];
  const seeds = rows.filter((r) => r.scenario === SEED_ROW);
  const out = [
    'A large site on PostgreSQL against a small one (its first Workspace alone), seeded in bulk by the database.',
    '',
    table(['site', 'users', 'groups', 'grants', 'folders', 'files', 'History', 'seed s', 'size on disk'], seeds.map((r) => {
      const s = r.seed;
      if (s === undefined) return [r.site ?? '', r.skipped ?? r.error ?? '', '', '', '', '', '', '', ''];
      return [r.site ?? '', ...[s.users, s.groups, s.grants, s.folders, s.files, s.history].map((n) => n.toLocaleString('en')), s.seconds.toFixed(1), `${(s.bytes / 2 ** 30).toFixed(2)} GiB`];
    })),
    '',
    'CPU µs per request of Atrium\'s process, warm (autocannon, as the main section) and cold (one at a time, each after a write from another connection, the write\'s own cost taken off), with PostgreSQL\'s CPU per cold request; the ratio is large over small.',
    '',
  ];
  const lines = Object.values(LARGE_SCENARIOS).map((scenario) => {
    const [warmLarge, warmSmall, coldLarge, coldSmall] = [find(rows, scenario, 'large', 'warm'), find(rows, scenario, 'small', 'warm'), find(rows, scenario, 'large', 'cold'), find(rows, scenario, 'small', 'cold')];
    const warm = ratio(cpu(warmLarge), cpu(warmSmall));
    const cold = ratio(cpu(coldLarge), cpu(coldSmall));
    const db = (r: ResultRow | undefined) => fixed(r?.measurement?.databaseCpuMicrosPerRequest);
    return [scenario, cell(warmLarge), cell(warmSmall), warm === undefined ? '' : `${warm.toFixed(2)}×`, cell(coldLarge), cell(coldSmall), cold === undefined ? '' : `${cold.toFixed(2)}×`,
      `${db(coldLarge)} / ${db(coldSmall)}`, `${fixed(coldLarge?.measurement?.p50Ms, 1)} / ${fixed(coldSmall?.measurement?.p50Ms, 1)}`];
  });
  out.push(table(['scenario', 'warm large', 'warm small', 'warm ratio', 'cold large', 'cold small', 'cold ratio', 'PostgreSQL µs/req cold (large / small)', 'cold p50 ms (large / small)'], lines));
  const rss = largeSiteRssMb(report);
  out.push('', `Serving process of the large site: at most ${fixed(rss)} MB resident.`, '');
  for (const r of rows.filter((x) => x.scenario !== SEED_ROW && x.cache === undefined && x.error !== undefined)) out.push(`ERROR: ${r.scenario}: ${r.error}`, '');
  return out;
}

/** Each scenario's warm CPU on the large site against the small one, and the large site's server's memory. */
export function largeSiteTargets(report: BenchReport): string[][] {
  const rows = rowsOf(report);
  if (rows.length === 0) return [];
  const targets = Object.values(LARGE_SCENARIOS).map((scenario) => {
    const r = ratio(cpu(find(rows, scenario, 'large', 'warm')), cpu(find(rows, scenario, 'small', 'warm')));
    return [`large site on postgres: ${scenario}: CPU ≤ ${LARGE_RATIO_TARGET}× the small site's`, r === undefined ? 'not measured' : `${r.toFixed(2)}×`, r === undefined ? '' : r <= LARGE_RATIO_TARGET ? 'yes' : 'no'];
  });
  const rss = largeSiteRssMb(report);
  targets.push([`large site on postgres: serving process ≤ ${LARGE_RSS_TARGET_MB} MB resident`, rss === undefined ? 'not measured' : `${rss.toFixed(0)} MB`, rss === undefined ? '' : rss <= LARGE_RSS_TARGET_MB ? 'yes' : 'no']);
  return targets;
}
