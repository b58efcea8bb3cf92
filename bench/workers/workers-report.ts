import type { BenchReport, ResultRow } from '../run-bench.js';

const fixed = (value: number | undefined, digits = 0) => (value === undefined || Number.isNaN(value) ? '' : value.toFixed(digits));
const table = (header: string[], rows: string[][]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const problem = (row: ResultRow | undefined) => row?.error ?? row?.skipped ?? (row === undefined ? 'not run' : '');
/** Per-request CPU with two workers may be at most this much above one process's. */
const MAX_CPU_GROWTH = 1.1;

/** One process against a primary with two workers, same site, same run. */
export function workersSection(report: BenchReport): string[] {
  const rows = report.rows.filter((r) => r.kind === 'workers');
  if (rows.length === 0) return [];
  const loaders = [...new Set(rows.map((r) => r.loadGenerator ?? 'autocannon'))].join(', ');
  const out = [`Workers: the same site served by one process (ATRIUM_WORKERS=1) and by a primary with two workers (ATRIUM_WORKERS=2), started in turns, best of the rounds; CPU is every server process's (primary and workers); load by ${loaders}, on the same cores:`, ''];
  out.push(table(['database', 'scenario', 'workers', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'RSS MB (all processes)', ''], rows.map((r) => {
    const m = r.measurement;
    return [r.database, r.scenario, String(r.workers ?? ''), fixed(m?.requestsPerSecond), fixed(m?.p50Ms, 1), fixed(m?.p99Ms, 1), fixed(m?.cpuMicrosPerRequest), fixed(m?.rssMb), problem(r)];
  })));
  out.push('');
  return out;
}

/**
 * Per scenario and database: CPU per request with two workers ≤ 1.1× with one. The baseline's
 * ratio is shown for information: the same spreading with no Atrium in it.
 */
export function workersTargets(report: BenchReport): string[][] {
  const rows = report.rows.filter((r) => r.kind === 'workers' && r.workers !== undefined);
  const pairs = [...new Set(rows.map((r) => `${r.database}\u0000${r.scenario}`))];
  return pairs.map((pair) => {
    if (pair.startsWith('baseline\u0000')) {
      const [one, two] = [1, 2].map((n) => rows.find((r) => r.database === 'baseline' && r.workers === n)?.measurement?.cpuMicrosPerRequest);
      return ['bare Fastify baseline under node:cluster, CPU µs/req with 2 workers over 1 (for information)',
        one !== undefined && two !== undefined && one > 0 ? `${(two / one).toFixed(2)}× (${fixed(two)} / ${fixed(one)} µs)` : 'not measured', ''];
    }
    const [database, scenario] = pair.split('\u0000') as [string, string];
    const one = rows.find((r) => r.database === database && r.scenario === scenario && r.workers === 1);
    const two = rows.find((r) => r.database === database && r.scenario === scenario && r.workers === 2);
    const [a, b] = [one?.measurement?.cpuMicrosPerRequest, two?.measurement?.cpuMicrosPerRequest];
    const ratio = a !== undefined && b !== undefined && a > 0 ? b / a : undefined;
    return [`${database}: ${scenario}: CPU µs/req with 2 workers ≤ ${MAX_CPU_GROWTH}× with 1`,
      ratio === undefined ? problem(one?.measurement === undefined ? one : two) : `${ratio.toFixed(2)}× (${fixed(b)} / ${fixed(a)} µs)`,
      ratio === undefined ? '' : ratio <= MAX_CPU_GROWTH ? 'yes' : 'no'];
  });
}
