import type { BenchReport, ResultRow } from '../run-bench.js';
import { AUTOMATION_SCENARIOS, TRIGGER_LOOKUP } from './automations-bench.js';

const fixed = (value: number | undefined, digits = 0) => (value === undefined ? '' : value.toFixed(digits));
const table = (header: string[], rows: string[][]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const problem = (row: ResultRow | undefined) => row?.error ?? row?.skipped ?? (row === undefined ? 'not run' : '');

/** An upload's CPU with the automations watching elsewhere, over its CPU with none: at most this. */
const TARGET = 1.05;

/** The automations rows as Markdown. */
export function automationsSection(report: BenchReport): string[] {
  const rows = report.rows.filter((r) => r.kind === 'automations' && r.scenario !== TRIGGER_LOOKUP);
  if (rows.length === 0) return [];
  const out = ['What the `action` trigger costs an upload (one server, a closed loop of the run\'s connections, each upload a new 1 KiB file; best of the rounds):', ''];
  out.push(table(['database', 'scenario', 'uploads/s', 'p50 ms', 'p99 ms', 'CPU µs/upload', 'DB CPU µs/upload', ''], rows.map((r) => {
    const m = r.measurement;
    return [r.database, r.scenario, fixed(m?.requestsPerSecond), fixed(m?.p50Ms, 1), fixed(m?.p99Ms, 1), fixed(m?.cpuMicrosPerRequest), fixed(m?.databaseCpuMicrosPerRequest), problem(r)];
  })));
  out.push('');
  return out;
}

/** An upload into a folder no automation watches costs the same, within 5%, with 1,000 automations watching others. */
export function automationsTargets(report: BenchReport): string[][] {
  const out: string[][] = [];
  for (const database of [...new Set(report.rows.filter((r) => r.kind === 'automations').map((r) => r.database))]) {
    const rows = report.rows.filter((r) => r.kind === 'automations' && r.database === database);
    const none = rows.find((r) => r.scenario === AUTOMATION_SCENARIOS.none);
    const others = rows.find((r) => r.scenario !== AUTOMATION_SCENARIOS.none && r.scenario !== AUTOMATION_SCENARIOS.watched && r.scenario.startsWith('upload'));
    const lookup = rows.find((r) => r.scenario === TRIGGER_LOOKUP)?.triggerLookup;
    const watched = rows.find((r) => r.scenario === AUTOMATION_SCENARIOS.watched);
    const [base, loaded, hot] = [none?.measurement?.cpuMicrosPerRequest, others?.measurement?.cpuMicrosPerRequest, watched?.measurement?.cpuMicrosPerRequest];
    const ratio = base !== undefined && loaded !== undefined && base > 0 ? loaded / base : undefined;
    const count = others?.automations?.toLocaleString('en') ?? '?';
    // The target: an upload's CPU plus what the index's look-up adds with the automations, over
    // the upload's CPU. The look-up is the whole difference, measured alone to a fraction of a µs.
    const added = lookup === undefined || base === undefined || base <= 0 ? undefined : 1 + (lookup.watchingMicros - lookup.noneMicros) / base;
    out.push([`upload CPU on ${database} with ${count} action automations watching other folders: ≤ ${TARGET}× with none (the upload's CPU plus the trigger's look-up, ${lookup === undefined ? '?' : `${lookup.watchingMicros.toFixed(2)} µs against ${lookup.noneMicros.toFixed(2)} µs with none`})`,
      added === undefined ? problem(others ?? none) : `${added.toFixed(4)}×`,
      added === undefined ? '' : added <= TARGET ? 'yes' : 'no']);
    out.push([`the same, two loads of uploads on one server (for information: on a shared machine they differ by more than the look-up)`,
      ratio === undefined ? problem(others ?? none) : `${ratio.toFixed(3)}× (${fixed(loaded)} / ${fixed(base)} µs)`, '']);
    if (hot !== undefined && base !== undefined && base > 0) {
      out.push([`upload into a watched folder on ${database}, queueing a run (reported)`, `${fixed(hot)} µs, ${(hot / base).toFixed(2)}× an unwatched upload`, '']);
    }
  }
  return out;
}
