import { describe, expect, it } from 'vitest';
import { runSmoke } from './bench-smoke-run.js';

describe('bench harness smoke run, the workers, console, automations and search sections [sqlite]', () => {
  it('runs their scenarios and reports figures', async () => {
    const report = await runSmoke(['workers', 'console', 'automations', 'search']);
    // The workers section: the baseline, the listing and GET /users with one process and with two.
    const workers = report.rows.filter((row) => row.kind === 'workers' && row.measurement !== undefined);
    expect(workers.map((row) => `${row.workers} ${row.database} ${row.scenario.split(' (')[0]}`).sort()).toEqual([
      '1 baseline baseline: bare Fastify hello', '1 sqlite GET /folders/<path>', '1 sqlite GET /users',
      '2 baseline baseline: bare Fastify hello', '2 sqlite GET /folders/<path>', '2 sqlite GET /users',
    ]);
    // The console section: each figure in Chromium next to its baseline (skipped, with a note, without Chromium).
    const consoleRows = report.rows.filter((row) => row.kind === 'console');
    expect(consoleRows.map((row) => row.database)).toEqual(['baseline', 'sqlite', 'baseline', 'sqlite', 'sqlite', 'sqlite']);
    for (const row of consoleRows) expect(row.pageTiming?.medianMs ?? row.skipped).toBeDefined();
    // The automations section: an upload with none, with some watching other folders, and into a watched folder.
    expect(report.rows.filter((row) => row.kind === 'automations' && row.measurement !== undefined)).toHaveLength(3);
    // The search section: each scenario's searches timed, on its own small site.
    const searches = report.rows.filter((row) => row.kind === 'search' && row.searchLatency !== undefined);
    expect(searches.length).toBeGreaterThan(0);
    for (const row of searches) expect(row.searchLatency?.medianMs).toBeGreaterThan(0);
  }, 300_000);
});
