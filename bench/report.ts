import fs from 'node:fs';
import path from 'node:path';
import type { Measurement } from './measure.js';
import { auditSection, auditTargets } from './audit/audit-report.js';
import { automationsSection, automationsTargets } from './automations/automations-report.js';
import { grantsTargets } from './grants-targets.js';
import { coldSection, coldTargets } from './cold/cold-report.js';
import { consoleSection, consoleTargets } from './console/console-report.js';
import { webdavSection, webdavTargets } from './webdav/webdav-report.js';
import { sftpSection, sftpTargets } from './sftp/sftp-report.js';
import { transfersSection, transfersTargets } from './transfers/transfers-report.js';
import { workersSection, workersTargets } from './workers/workers-report.js';
import { searchSection, searchTargets } from './search/search-report.js';
import { largeSiteSection, largeSiteTargets } from './large-site/large-report.js';
import type { BenchReport, ResultRow } from './run-bench.js';

const fixed = (value: number | undefined, digits = 0) => (value === undefined ? '' : value.toFixed(digits));
const percent = (ratio: number | undefined) => (ratio === undefined ? '' : `${(ratio * 100).toFixed(0)}%`);
const table = (header: string[], rows: string[][]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const status = (row: ResultRow) => row.error !== undefined ? `ERROR: ${row.error}` : row.skipped !== undefined ? `skipped: ${row.skipped}` : '';

/** The report as Markdown tables, ready to paste into docs/benchmarks.md. */
export function formatReport(report: BenchReport): string {
  const out: string[] = [];
  const s = report.settings;
  out.push(`Atrium bench, ${report.startedAt}, ${report.seconds} s; ${report.machine.cpus} × ${report.machine.cpuModel}, Node ${report.machine.node}; ` +
    `${s.connections} connections, pipelining ${s.pipelining}, ${s.timing.seconds} s per scenario after ${s.timing.warmupSeconds} s of warm-up` +
    `${s.quick ? ' (QUICK: small site, figures not comparable)' : ''}.`);
  out.push('');
  out.push(table(
    ['database', 'scenario', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'req/s per core', 'of baseline req/s', 'DB CPU µs/req', ''],
    report.rows.filter((r) => r.kind === 'main' || r.kind === 'access-log' || r.kind === 'floor').map((r) => {
      const m = r.measurement;
      return [r.database, r.kind === 'access-log' ? `${r.scenario} + access log` : r.scenario, fixed(m?.requestsPerSecond), fixed(m?.p50Ms, 1), fixed(m?.p99Ms, 1),
        fixed(m?.cpuMicrosPerRequest), fixed(m?.requestsPerCpuSecond), percent(r.ratioToBaseline), fixed(m?.databaseCpuMicrosPerRequest), status(r)];
    }),
  ));
  out.push('');
  const growth = (kind: ResultRow['kind'], by: (r: ResultRow) => number | undefined, label: (n: number) => string) => {
    const rows = report.rows.filter((r) => r.kind === kind);
    const sizes = [...new Set(rows.map(by))].filter((n): n is number => n !== undefined).sort((a, b) => a - b);
    const series = [...new Set(rows.map((r) => `${r.database}\u0000${r.scenario}`))];
    return table(['database', 'scenario', ...sizes.map(label), 'growth'], series.map((id) => {
      const [database, scenario] = id.split('\u0000') as [string, string];
      const cells = sizes.map((n) => rows.find((r) => r.database === database && r.scenario === scenario && by(r) === n));
      const costs = cells.map((r) => r?.measurement?.cpuMicrosPerRequest);
      const first = costs[0];
      const last = costs.at(-1);
      return [database, scenario, ...cells.map((r) => (r === undefined ? '' : r.measurement !== undefined ? fixed(r.measurement.cpuMicrosPerRequest) : status(r))),
        first !== undefined && last !== undefined ? `${(last / first).toFixed(2)}×` : ''];
    }));
  };
  out.push(...activitySection(report));
  // Without the growth section (BENCH_SECTIONS) there is nothing to tabulate.
  if (report.rows.some((r) => r.kind === 'grant-growth' || r.kind === 'folder-growth')) {
    out.push('Growth: CPU µs per request (Atrium process) as the site grows; the ratio is last over first.');
    out.push('');
    out.push(growth('grant-growth', (r) => r.grants, (n) => `${n.toLocaleString('en')} grants`));
    out.push('');
    out.push(growth('folder-growth', (r) => r.folderSize, (n) => `folder of ${n.toLocaleString('en')}`));
    out.push('');
  }
  out.push(...coldSection(report));
  out.push(...auditSection(report));
  out.push(...webdavSection(report));
  out.push(...sftpSection(report));
  out.push(...transfersSection(report));
  out.push(...workersSection(report));
  out.push(...consoleSection(report));
  out.push(...automationsSection(report));
  out.push(...searchSection(report));
  out.push(...largeSiteSection(report));
  out.push('Targets:');
  out.push('');
  out.push(table(['target', 'measured', 'met'], targets(report)));
  for (const note of report.notes) out.push('', `Note: ${note}`);
  return out.join('\n');
}

/**
 * Users' activity times (identity/user-activity.ts): the same requests, each another user's, while
 * each user's first request writes its time, and right after, when none does. The ratio is what
 * the once-a-minute writes cost while that many users are active at once (per database).
 */
function activitySection(report: BenchReport): string[] {
  const rows = report.rows.filter((r) => r.kind === 'activity');
  if (rows.length === 0) return [];
  const databases = [...new Set(rows.map((r) => r.database))];
  const lines = databases.map((database) => {
    const writing = rows.find((r) => r.database === database && r.scenario.includes('writes its activity'));
    const recorded = rows.find((r) => r.database === database && r.scenario.includes('no writes'));
    const cost = (r: ResultRow | undefined) => r?.measurement?.cpuMicrosPerRequest;
    const rps = (r: ResultRow | undefined) => r?.measurement?.requestsPerSecond;
    const ratio = rps(writing) !== undefined && rps(recorded) !== undefined ? (rps(writing) as number) / (rps(recorded) as number) : undefined;
    return [database, fixed(rps(writing)), fixed(cost(writing)), fixed(rps(recorded)), fixed(cost(recorded)), ratio === undefined ? [writing, recorded].map((r) => (r === undefined ? 'not run' : status(r))).join(' ') : `${ratio.toFixed(2)}×`];
  });
  return [
    `Activity times: ${rows[0]?.scenario.split(' (')[0] ?? ''}, while each user's first request writes its time and right after (nothing to write); the ratio is req/s writing over req/s not.`,
    '',
    table(['database', 'writing req/s', 'writing CPU µs/req', 'recorded req/s', 'recorded CPU µs/req', 'ratio'], lines),
    '',
  ];
}

/** The targets against this run's figures. */
export function targets(report: BenchReport): string[][] {
  const rows: string[][] = [];
  const listing = (database: string) => report.rows.find((r) => r.kind === 'main' && r.database === database && r.scenario.startsWith('GET /folders/') && r.scenario.includes('API key'));
  for (const [database, minimum, aim] of [['sqlite', 0.25, 0.5], ['postgres', 0.1, 0.2]] as const) {
    const row = listing(database);
    const ratio = row?.ratioToBaseline;
    rows.push([`key-authenticated folder listing on ${database}: ≥ ${minimum * 100}% of baseline req/s (aim ${aim * 100}%)`,
      ratio === undefined ? (row === undefined ? 'not run' : status(row)) : percent(ratio),
      ratio === undefined ? '' : ratio >= aim ? 'yes (aim met)' : ratio >= minimum ? 'yes' : 'no']);
  }
  rows.push(...hotPathTargets(report));
  rows.push(...grantsTargets(report));
  rows.push(...coldTargets(report));
  for (const kind of ['grant-growth', 'folder-growth'] as const) {
    const series = new Map<string, ResultRow[]>();
    for (const r of report.rows.filter((x) => x.kind === kind)) series.set(`${r.database}: ${r.scenario}`, [...(series.get(`${r.database}: ${r.scenario}`) ?? []), r]);
    for (const [name, rows_] of series) {
      const costs = rows_.map((r) => r.measurement?.cpuMicrosPerRequest);
      const first = costs[0];
      const last = costs.at(-1);
      const what = kind === 'grant-growth' ? `grants ${rows_[0]?.grants?.toLocaleString('en')} → ${rows_.at(-1)?.grants?.toLocaleString('en')}` : `folder ${rows_[0]?.folderSize?.toLocaleString('en')} → ${rows_.at(-1)?.folderSize?.toLocaleString('en')} entries`;
      const ratio = first !== undefined && last !== undefined ? last / first : undefined;
      rows.push([`${name}, ${what}: ≤ 1.3×`, ratio === undefined ? 'not measured' : `${ratio.toFixed(2)}×`, ratio === undefined ? '' : ratio <= 1.3 ? 'yes' : 'no']);
    }
  }
  rows.push(...auditTargets(report));
  rows.push(...webdavTargets(report));
  rows.push(...sftpTargets(report));
  rows.push(...transfersTargets(report));
  rows.push(...workersTargets(report));
  rows.push(...consoleTargets(report));
  rows.push(...automationsTargets(report));
  rows.push(...searchTargets(report));
  rows.push(...largeSiteTargets(report));
  const lastStep = report.site.grantSteps.at(-1);
  const rssOf = (rows_: ResultRow[]) => Math.max(0, ...rows_.filter((r) => r.measurement !== undefined).map((r) => (r.measurement as Measurement).rssMb));
  for (const database of ['sqlite', 'postgres']) {
    const ofDatabase = report.rows.filter((r) => r.database === database);
    // The growth series' servers at the last step: the site's own footprint, no logins.
    const atLastStep = rssOf(ofDatabase.filter((r) => r.kind === 'grant-growth' && r.grants === lastStep));
    if (atLastStep > 0) rows.push([`RSS with ${lastStep?.toLocaleString('en')} grants on ${database}: ≤ 250 MB`, `${atLastStep.toFixed(0)} MB`, atLastStep <= 250 ? 'yes' : 'no']);
    // Logins run argon2id (19 MiB each, up to four at once on libuv's pool): shown apart.
    const peak = rssOf(ofDatabase);
    if (peak > 0) rows.push([`peak RSS on ${database} over the run, logins included (for information)`, `${peak.toFixed(0)} MB`, '']);
  }
  return rows;
}

/**
 * The third round's targets for the hot path, each against its floor measured in turns with it:
 * the key-authenticated listing and `GET /users` as shipped (the access log on) at 90% of the
 * floor's CPU per request on SQLite (the floor's µs over Atrium's) and 80% on PostgreSQL, whose
 * floor pays one read of the data version per turn.
 */
function hotPathTargets(report: BenchReport): string[][] {
  const rows: string[][] = [];
  const scenarios: [string, (scenario: string) => boolean][] = [
    ['folder listing (API key)', (s) => s.startsWith('GET /folders/<path> (') && s.includes('API key')],
    ['GET /users (API key)', (s) => s.startsWith('GET /users')],
  ];
  for (const [database, minimum] of [['sqlite', 0.9], ['postgres', 0.8]] as const) {
    for (const [name, matches] of scenarios) {
      const shipped = report.rows.find((r) => r.kind === 'access-log' && r.database === database && matches(r.scenario));
      const floor = report.rows.find((r) => r.kind === 'floor' && r.database === database && matches(r.scenario.replace(/^floor: /, '')));
      const atriumCost = shipped?.measurement?.cpuMicrosPerRequest;
      const floorCost = floor?.measurement?.cpuMicrosPerRequest;
      const label = `${database}: ${name}, as shipped: ≥ ${minimum * 100}% of its floor's CPU per request`;
      if (atriumCost === undefined || floorCost === undefined) {
        rows.push([label, shipped === undefined || floor === undefined ? 'not run' : `${status(shipped)} ${status(floor)}`.trim(), '']);
        continue;
      }
      const ratio = floorCost / atriumCost;
      rows.push([label, `${percent(ratio)} (${fixed(floorCost)} µs against ${fixed(atriumCost)})`, ratio >= minimum ? 'yes' : 'no']);
    }
  }
  return rows;
}

/** Writes the report as JSON under `dir`, named by its start time; answers the file's path. */
export function writeReport(report: BenchReport, dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${report.startedAt.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
