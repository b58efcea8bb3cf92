import type { BenchReport, ResultRow } from '../run-bench.js';
import { CONSOLE_ROWS } from './console-bench.js';

const fixed = (value: number | undefined, digits = 0) => (value === undefined ? '' : value.toFixed(digits));
const times = (ratio: number | undefined) => (ratio === undefined ? '' : `${ratio.toFixed(1)}×`);
const table = (header: string[], rows: string[][]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const problem = (row: ResultRow | undefined) => row?.error ?? row?.skipped ?? (row === undefined ? 'not run' : '');

/** Each console figure and the baseline it is held against, where it has one. */
const PAIRS: readonly { console: string; baseline?: string }[] = [
  { console: CONSOLE_ROWS.signInUsable, baseline: CONSOLE_ROWS.blankUsable },
  { console: CONSOLE_ROWS.firstPage, baseline: CONSOLE_ROWS.plainRows },
  { console: CONSOLE_ROWS.previewText },
  { console: CONSOLE_ROWS.search },
];

function pairs(report: BenchReport) {
  const rows = report.rows.filter((r) => r.kind === 'console');
  return PAIRS.map((pair) => ({
    measured: rows.find((r) => r.database !== 'baseline' && r.scenario.startsWith(pair.console)),
    baseline: pair.baseline === undefined ? undefined : rows.find((r) => r.database === 'baseline' && r.scenario.startsWith(pair.baseline as string)),
    name: pair.console,
  }));
}

/** The console rows as Markdown: each figure's median and worst, its baseline's, the ratio of the medians and the budget. */
export function consoleSection(report: BenchReport): string[] {
  const rows = report.rows.filter((r) => r.kind === 'console');
  if (rows.length === 0) return [];
  const timing = rows.find((r) => r.pageTiming !== undefined)?.pageTiming;
  const rounds = timing === undefined ? 'no rounds' : `${timing.samplesMs.length} rounds${timing.roundsNotKept > 0 ? ` after ${timing.roundsNotKept} not kept` : ''}`;
  const out = [`The web console in Chromium (headless, loopback, SQLite) against a baseline page in the same browser and run; ${rounds}, each page a first visit (cache and cookies emptied):`, ''];
  out.push(table(['database', 'scenario', 'median ms', 'worst ms', 'of baseline (medians)', 'budget', ''], rows.map((r) => [
    r.database, r.scenario, fixed(r.pageTiming?.medianMs), fixed(r.pageTiming?.worstMs), times(r.pageTiming?.ofBaseline), r.budgetMs === undefined ? '' : `${r.budgetMs} ms`, problem(r),
  ])));
  out.push('');
  return out;
}

/**
 * Each console figure's median within its budget (1 s for the sign-in screen, 300 ms for the first
 * page, 500 ms for a text's preview, 800 ms for a search with its pause), with its baseline beside it.
 */
export function consoleTargets(report: BenchReport): string[][] {
  return pairs(report).filter((p) => p.measured !== undefined).map(({ measured, baseline, name }) => {
    const timing = measured?.pageTiming;
    const budget = measured?.budgetMs;
    if (timing === undefined || budget === undefined) return [`console: ${name}`, problem(measured), ''];
    const against = baseline?.pageTiming === undefined ? '' : `, baseline ${fixed(baseline.pageTiming.medianMs)} ms (${times(timing.ofBaseline)})`;
    return [`console: ${name}: median ≤ ${budget} ms`, `${fixed(timing.medianMs)} ms (worst ${fixed(timing.worstMs)} ms)${against}`, timing.medianMs <= budget ? 'yes' : 'no'];
  });
}
