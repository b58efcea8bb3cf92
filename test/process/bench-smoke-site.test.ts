import { describe, expect, it } from 'vitest';
import { formatReport } from '../../bench/report.js';
import { runSmoke } from './bench-smoke-run.js';

describe('bench harness smoke run, the seeded site\'s sections [sqlite]', () => {
  it('runs the main, growth, cold and History scenarios against the seeded site and reports figures', async () => {
    const report = await runSmoke(['main', 'growth', 'cold', 'history']);
    const measured = report.rows.filter((row) => row.measurement !== undefined);
    expect(measured.map((row) => row.scenario)).toEqual(expect.arrayContaining([
      'baseline: bare Fastify hello (start of run)',
      'GET /users (API key: authentication + one authority check)',
      'GET /permissions?user_id=&include_groups=true',
      'GET /permissions/explain',
      'POST /sessions',
    ]));
    // The hot path as shipped (the access log on) beside its floor, request by request.
    const beside = report.rows.filter((row) => (row.kind === 'access-log' || row.kind === 'floor') && row.measurement !== undefined);
    expect(beside.map((row) => `${row.kind} ${row.scenario}`).sort()).toEqual([
      'access-log GET /folders/<path> (20 entries, API key)', 'access-log GET /users (API key: authentication + one authority check)',
      'floor floor: GET /folders/<path> (20 entries, API key)', 'floor floor: GET /users (API key: authentication + one authority check)',
    ]);
    // Activity recording, writing and then not, with the ratio in the report.
    expect(report.rows.filter((row) => row.kind === 'activity' && row.measurement !== undefined)).toHaveLength(2);
    // The cold section: each scenario after a write (every answer checked in the loop) and warm,
    // and the writes alone. Ten requests may well take less than one 10 ms tick of CPU.
    const cold = report.rows.filter((row) => row.kind === 'cold' && row.measurement !== undefined);
    expect(cold.map((row) => `${row.cache ?? '-'} ${row.scenario.split(' (')[0]}`)).toEqual([
      '- a write from another connection, alone',
      'cold GET /folders/<path>', 'warm GET /folders/<path>', 'cold GET /users', 'warm GET /users',
      'cold GET /permissions?user_id=&include_groups=true', 'warm GET /permissions?user_id=&include_groups=true',
      'cold GET /permissions/explain', 'warm GET /permissions/explain',
    ]);
    const text = formatReport(report);
    expect(text).toContain('Cost after a write (every cache empty)');
    expect(text).toContain('| target | measured | met |');
    expect(text).toContain('Activity times: ');
  }, 300_000);
});
