import type { BenchReport, ResultRow } from '../run-bench.js';

const fixed = (value: number | undefined, digits = 0) => (value === undefined ? '' : value.toFixed(digits));
const table = (header: string[], rows: string[][]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const problem = (row: ResultRow) => row.error ?? row.skipped ?? '';

/** CPU of a request: the server's and, with PostgreSQL, the database's. */
const requestCpu = (row: ResultRow | undefined) =>
  row?.measurement === undefined ? undefined : row.measurement.cpuMicrosPerRequest + (row.measurement.databaseCpuMicrosPerRequest ?? 0);
const recordCpu = (row: ResultRow | undefined) => (row?.recordingCost === undefined ? undefined : row.recordingCost.appMicros + row.recordingCost.databaseMicros);

/** The History and access-review rows as Markdown: the scenarios, then the History growth series. */
export function auditSection(report: BenchReport): string[] {
  const audit = report.rows.filter((r) => r.kind === 'audit');
  if (audit.length === 0) return [];
  const out = ['History and access review (scenarios that write run on a copy of the site; reach and the dry run with one connection, so p50 is the latency of one request):', ''];
  out.push(table(['database', 'scenario', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'DB CPU µs/req', ''], audit.map((r) => {
    if (r.recordingCost !== undefined) return [r.database, r.scenario, '', '', '', fixed(r.recordingCost.appMicros, 1), fixed(r.recordingCost.databaseMicros, 1), ''];
    const m = r.measurement;
    return [r.database, r.scenario, fixed(m?.requestsPerSecond), fixed(m?.p50Ms, 1), fixed(m?.p99Ms, 1), fixed(m?.cpuMicrosPerRequest), fixed(m?.databaseCpuMicrosPerRequest), problem(r)];
  })));
  const growth = report.rows.filter((r) => r.kind === 'history-growth');
  const sizes = [...new Set(growth.map((r) => r.historyRecords as number))].sort((a, b) => a - b);
  const series = [...new Set(growth.map((r) => `${r.database}\u0000${r.scenario}`))];
  out.push('', 'A page of History as it grows: CPU µs per request (Atrium, plus PostgreSQL where it applies); the ratio is last over first.', '');
  out.push(table(['database', 'scenario', ...sizes.map((n) => `${n.toLocaleString('en')} records`), 'growth'], series.map((id) => {
    const [database, scenario] = id.split('\u0000') as [string, string];
    const cells = sizes.map((n) => growth.find((r) => r.database === database && r.scenario === scenario && r.historyRecords === n));
    const costs = cells.map(requestCpu);
    const [first, last] = [costs[0], costs.at(-1)];
    return [database, scenario, ...cells.map((r) => (r === undefined ? '' : r.measurement !== undefined ? fixed(requestCpu(r)) : problem(r))),
      first !== undefined && last !== undefined ? `${(last / first).toFixed(2)}×` : ''];
  })));
  out.push('');
  return out;
}

/** The targets for History and access review against this run's figures. */
export function auditTargets(report: BenchReport): string[][] {
  const rows: string[][] = [];
  for (const database of ['sqlite', 'postgres']) {
    const of = (prefix: string) => report.rows.find((r) => r.kind === 'audit' && r.database === database && r.scenario.startsWith(prefix));
    const record = recordCpu(of('one History record'));
    for (const [label, prefix, limit] of [['a grant creation', 'POST /permissions', 0.1], ['an upload', 'PUT /files', 0.05]] as const) {
      const change = requestCpu(of(prefix));
      if (record === undefined || change === undefined) continue;
      const share = record / change;
      rows.push([`History recording on ${database}: ≤ ${limit * 100}% of ${label}'s CPU`, `${(share * 100).toFixed(1)}% (${record.toFixed(0)} of ${change.toFixed(0)} µs)`, share <= limit ? 'yes' : 'no']);
    }
    for (const [label, prefix, limitMs] of [['reach on the measured folder', 'GET /permissions/reach', 50], ['dry run of deleting a 1,000-member group\'s root admin grant', 'DELETE /permissions/', 200]] as const) {
      const row = of(prefix);
      const p50 = row?.measurement?.p50Ms;
      if (row === undefined) continue;
      rows.push([`${label} on ${database}: ≤ ${limitMs} ms`, p50 === undefined ? problem(row) : `${p50.toFixed(1)} ms (p50)`, p50 === undefined ? '' : p50 <= limitMs ? 'yes' : 'no']);
    }
    const growth = report.rows.filter((r) => r.kind === 'history-growth' && r.database === database);
    for (const scenario of [...new Set(growth.map((r) => r.scenario))]) {
      const points = growth.filter((r) => r.scenario === scenario).sort((a, b) => (a.historyRecords as number) - (b.historyRecords as number));
      const [first, last] = [requestCpu(points[0]), requestCpu(points.at(-1))];
      if (first === undefined || last === undefined) continue;
      const ratio = last / first;
      rows.push([`${database}: ${scenario}, ${points[0]?.historyRecords?.toLocaleString('en')} → ${points.at(-1)?.historyRecords?.toLocaleString('en')} records: flat (≤ 1.3×)`, `${ratio.toFixed(2)}×`, ratio <= 1.3 ? 'yes' : 'no']);
    }
  }
  return rows;
}
