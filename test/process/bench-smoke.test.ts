import { describe, expect, it } from 'vitest';
import { benchOptions } from '../../bench/options.js';
import { formatReport } from '../../bench/report.js';
import { runBench } from '../../bench/run-bench.js';
import { QUICK_SITE } from '../../bench/seed/site-shape.js';

/**
 * The bench harness end to end, every section, at the smallest size that still runs each one's
 * code: a tiny site, loads of a fraction of a second, one point in each growth series, 8 MiB transfers, a
 * handful of SFTP sessions and a console folder one entry past its first page. It seeds, starts
 * the servers, checks every scenario's answer and produces a report; each section then costs a few
 * seconds, most of them its servers starting. No figure is asserted: benchmarks are not tests, and
 * this machine's speed is not the suite's business.
 */
describe('bench harness smoke run [sqlite]', () => {
  it('runs every scenario against the seeded site and reports figures', async () => {
    const quick = benchOptions({ BENCH_QUICK: '1' });
    // A third of a second holds a few of the slowest requests (a sign-in's password hash, a dry
    // run, each sent on several connections at once) even on a loaded machine, and many 10 ms ticks
    // of the server's CPU, in which the figures are read; the growth points ask only for cheap
    // reads, and 0.15 s holds hundreds. Half a second each (and a quarter for the growth points)
    // cost this run 10 s more of CPU (60 s against 50, alone on 2 cores).
    const options = {
      ...quick,
      databases: ['sqlite' as const],
      timing: { warmupSeconds: 0, seconds: 0.3 },
      growthTiming: { warmupSeconds: 0, seconds: 0.15 },
      site: { ...QUICK_SITE, grants: 1_000 },
      grantSteps: [1_000],
      folderSizes: [100],
      historySteps: [1_000],
      recordingEvents: 100,
      webdav: { folderSize: 100, transferBytes: 8 * 2 ** 20, transferRounds: 1 },
      sftp: { transferBytes: 8 * 2 ** 20, transferRounds: 1, sessions: 2, smallFiles: 4 },
      transfers: { transferBytes: 8 * 2 ** 20, transferRounds: 1, parallelUploads: 2, idleSeconds: 0.5 },
      cold: { requests: 10, warmRequests: 10, rounds: 1 },
      // One row past the console's first page of 200.
      console: { rounds: 1, warmupRounds: 0, folderSize: 201 },
      automations: { automations: 3, rounds: 1 },
      search: { entries: 2_000, searches: 10 },
    };
    const report = await runBench(options, () => undefined);

    expect(report.rows.filter((row) => row.error !== undefined)).toEqual([]);
    const measured = report.rows.filter((row) => row.measurement !== undefined);
    expect(measured.map((row) => row.scenario)).toEqual(expect.arrayContaining([
      'baseline: bare Fastify hello (start of run)',
      'GET /users (API key: authentication + one authority check)',
      'GET /permissions?user_id=&include_groups=true',
      'GET /permissions/explain',
      'POST /sessions',
      'floor: the listing\'s answer behind an API-key check, bare Fastify',
      'WebDAV PROPFIND Depth 1 <100-entry folder>',
    ]));
    // Activity recording, writing and then not, with the ratio in the report.
    expect(report.rows.filter((row) => row.kind === 'activity' && row.measurement !== undefined)).toHaveLength(2);
    // The WebDAV section's uploads and downloads, through each door.
    expect(report.rows.filter((row) => row.kind === 'webdav' && row.transfer !== undefined).map((row) => row.scenario.split(' (')[0])).toEqual(['REST PUT /files/<path>', 'WebDAV PUT', 'REST GET /files/<path>?action=stream', 'WebDAV GET']);
    // The automations section: an upload with none, with some watching other folders, and into a watched folder.
    expect(report.rows.filter((row) => row.kind === 'automations' && row.measurement !== undefined)).toHaveLength(3);
    // The SFTP section: OpenSSH's sftp against Atrium (and against OpenSSH's sshd, where installed),
    // then the concurrent sessions.
    const sftp = report.rows.filter((row) => row.kind === 'sftp');
    expect(sftp.filter((row) => row.transfer !== undefined).map((row) => row.scenario.split(' (')[0])).toEqual(expect.arrayContaining(['SFTP put, Atrium', 'SFTP get, Atrium']));
    for (const row of sftp.filter((r) => r.scenario.includes('OpenSSH'))) expect(row.transfer ?? row.skipped).toBeDefined();
    expect(sftp.find((row) => row.scenario.startsWith('SFTP sessions'))?.measurement?.requests).toBeGreaterThan(0);
    // The transfers section: dd, then each upload and download (checked by SHA-256 in the section
    // itself), then the listing alone and during the parallel uploads.
    const transfers = report.rows.filter((row) => row.kind === 'transfers');
    expect(transfers.filter((row) => row.transfer !== undefined).map((row) => row.scenario)).toEqual([
      'dd write, bs=1M conv=fsync', 'dd read, bs=1M, cold',
      'floor: bare node:http, PUT read and dropped (loopback alone)', 'floor: bare node:http, PUT written to a file and flushed', 'floor: bare node:http, GET of that file, cold',
      'upload: part protocol (File.beginUpload, parts in sequence)', 'upload: one PUT /files/<path>',
      'download: signed URL, whole', 'download: signed URL, in Range requests', '2 parallel part-protocol uploads',
    ]);
    for (const row of transfers.filter((r) => r.transfer !== undefined && !r.scenario.startsWith('dd'))) expect(row.transfer?.maxRssBytes).toBeGreaterThan(0);
    // The extra digests against sha256 alone, measured in the same run.
    expect(transfers.find((row) => row.digestCost !== undefined)?.digestCost?.ratio).toBeGreaterThan(0);
    expect(transfers.filter((row) => row.measurement !== undefined).map((row) => row.scenario.split(' (')[0])).toEqual([
      'GET /folders/<path>', 'GET /folders/<path>',
    ]);
    // The workers section: the baseline, the listing and GET /users with one process and with two.
    const workers = report.rows.filter((row) => row.kind === 'workers' && row.measurement !== undefined);
    expect(workers.map((row) => `${row.workers} ${row.database} ${row.scenario.split(' (')[0]}`).sort()).toEqual([
      '1 baseline baseline: bare Fastify hello', '1 sqlite GET /folders/<path>', '1 sqlite GET /users',
      '2 baseline baseline: bare Fastify hello', '2 sqlite GET /folders/<path>', '2 sqlite GET /users',
    ]);
    // The cold section: each scenario after a write (every answer checked in the loop) and warm,
    // and the writes alone. Ten requests may well take less than one 10 ms tick of CPU.
    const cold = report.rows.filter((row) => row.kind === 'cold' && row.measurement !== undefined);
    expect(cold.map((row) => `${row.cache ?? '-'} ${row.scenario.split(' (')[0]}`)).toEqual([
      '- a write from another connection, alone',
      'cold GET /folders/<path>', 'warm GET /folders/<path>', 'cold GET /users', 'warm GET /users',
      'cold GET /permissions?user_id=&include_groups=true', 'warm GET /permissions?user_id=&include_groups=true',
      'cold GET /permissions/explain', 'warm GET /permissions/explain',
    ]);
    expect(formatReport(report)).toContain('Cost after a write (every cache empty)');
    // The console section: each figure in Chromium next to its baseline (skipped, with a note, without Chromium).
    const consoleRows = report.rows.filter((row) => row.kind === 'console');
    expect(consoleRows.map((row) => row.database)).toEqual(['baseline', 'sqlite', 'baseline', 'sqlite', 'sqlite', 'sqlite']);
    for (const row of consoleRows) expect(row.pageTiming?.medianMs ?? row.skipped).toBeDefined();
    for (const row of measured) {
      expect(row.measurement?.requests, `${row.scenario}: ${row.measurement?.failed} failed`).toBeGreaterThan(0);
      // The listing during the uploads has no CPU of its own: the server's CPU then is the uploads'.
      if (row.kind !== 'cold' && !row.scenario.includes('during the parallel uploads')) expect(row.measurement?.cpuMicrosPerRequest).toBeGreaterThan(0);
    }
    // The search section: each scenario's searches timed, on its own small site.
    const searches = report.rows.filter((row) => row.kind === 'search' && row.searchLatency !== undefined);
    expect(searches.length).toBeGreaterThan(0);
    for (const row of searches) expect(row.searchLatency?.medianMs).toBeGreaterThan(0);
    expect(formatReport(report)).toContain('| target | measured | met |');
    expect(formatReport(report)).toContain('Activity times: ');
  }, 120_000);
});
