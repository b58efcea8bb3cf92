import type { BenchReport, ResultRow } from '../run-bench.js';

const fixed = (value: number | undefined, digits = 0) => (value === undefined ? '' : value.toFixed(digits));
const percent = (ratio: number | undefined) => (ratio === undefined ? '' : `${(ratio * 100).toFixed(0)}%`);
const table = (header: string[], rows: string[][]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const problem = (row: ResultRow | undefined) => row?.error ?? row?.skipped ?? (row === undefined ? 'not run' : '');

/** The comparisons: WebDAV's figure over REST's, each pair from the same run and server. */
const PAIRS = [
  { what: 'PROPFIND Depth 1 against GET /folders, req/s', rest: 'REST GET /folders/', dav: 'WebDAV PROPFIND', figure: (r: ResultRow) => r.measurement?.requestsPerSecond },
  { what: 'PUT (upload) MiB/s', rest: 'REST PUT', dav: 'WebDAV PUT', figure: (r: ResultRow) => r.transfer?.mibPerSecond },
  { what: 'GET (download) MiB/s', rest: 'REST GET /files/', dav: 'WebDAV GET', figure: (r: ResultRow) => r.transfer?.mibPerSecond },
] as const;
const TARGET = 0.8;

function ratios(report: BenchReport, database: string) {
  const rows = report.rows.filter((r) => r.kind === 'webdav' && r.database === database);
  return PAIRS.map((pair) => {
    const rest = rows.find((r) => r.scenario.startsWith(pair.rest));
    const dav = rows.find((r) => r.scenario.startsWith(pair.dav));
    const [restFigure, davFigure] = [rest && pair.figure(rest), dav && pair.figure(dav)];
    const ratio = restFigure !== undefined && davFigure !== undefined && restFigure > 0 ? davFigure / restFigure : undefined;
    return { pair, rest, dav, ratio };
  });
}

/** The WebDAV rows as Markdown: the listings under load, the transfers, and WebDAV over REST. */
export function webdavSection(report: BenchReport): string[] {
  const rows = report.rows.filter((r) => r.kind === 'webdav');
  if (rows.length === 0) return [];
  const out = ['WebDAV next to REST (same server, same user, same folder or file, same run; listings under a closed loop of the run\'s connections, transfers one at a time, best of the rounds):', ''];
  out.push(table(['database', 'scenario', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'MiB/s', 'seconds', 'CPU ms/MiB', ''], rows.map((r) => {
    const m = r.measurement;
    const t = r.transfer;
    return [r.database, r.scenario, fixed(m?.requestsPerSecond), fixed(m?.p50Ms, 1), fixed(m?.p99Ms, 1), fixed(m?.cpuMicrosPerRequest),
      fixed(t?.mibPerSecond), fixed(t?.seconds, 2), fixed(t?.cpuMsPerMib, 2), problem(r)];
  })));
  out.push('');
  return out;
}

/** WebDAV ≥ 80% of REST for each pair, per database. */
export function webdavTargets(report: BenchReport): string[][] {
  const rows: string[][] = [];
  for (const database of [...new Set(report.rows.filter((r) => r.kind === 'webdav').map((r) => r.database))]) {
    for (const { pair, rest, dav, ratio } of ratios(report, database)) {
      // Under load the cores are shared with the load generator: the server's CPU per request (REST's over
      // WebDAV's, as a throughput ratio) is shown too, being the steadier figure on a busy machine.
      const restCpu = rest?.measurement?.cpuMicrosPerRequest;
      const davCpu = dav?.measurement?.cpuMicrosPerRequest;
      const byCpu = restCpu !== undefined && davCpu !== undefined && davCpu > 0 ? `; by CPU per request ${percent(restCpu / davCpu)}` : '';
      const measured = ratio !== undefined ? `${percent(ratio)} (${fixed(dav && pair.figure(dav), 1)} / ${fixed(rest && pair.figure(rest), 1)})${byCpu}` : problem(rest?.error !== undefined ? rest : dav);
      rows.push([`WebDAV ${pair.what} on ${database}: ≥ ${TARGET * 100}% of REST`, measured, ratio === undefined ? '' : ratio >= TARGET ? 'yes' : 'no']);
    }
  }
  return rows;
}
