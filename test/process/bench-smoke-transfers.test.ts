import { describe, expect, inject, it } from 'vitest';
import { LARGE_SCENARIOS } from '../../bench/large-site/large-scenarios.js';
import { formatReport } from '../../bench/report.js';
import { runSmoke } from './bench-smoke-run.js';

describe('bench harness smoke run, the transfer sections [sqlite]', () => {
  it('runs the WebDAV, transfer and SFTP scenarios and reports figures', async () => {
    const report = await runSmoke(['webdav', 'transfers', 'sftp']);
    expect(report.rows.filter((row) => row.measurement !== undefined).map((row) => row.scenario)).toContain('WebDAV PROPFIND Depth 1 <100-entry folder>');
    // The WebDAV section's uploads and downloads, through each door.
    expect(report.rows.filter((row) => row.kind === 'webdav' && row.transfer !== undefined).map((row) => row.scenario.split(' (')[0])).toEqual(['REST PUT /files/<path>', 'WebDAV PUT', 'REST GET /files/<path>?action=stream', 'WebDAV GET']);
    // The SFTP section: OpenSSH's sftp against Atrium (and against OpenSSH's sshd, installed if missing),
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
      'after the PUT: its md5, sha1 and crc32 by the file-digests job (seconds include the job runner\'s wait)',
      'download: signed URL, whole', 'download: signed URL, in Range requests', '2 parallel part-protocol uploads',
    ]);
    for (const row of transfers.filter((r) => r.transfer !== undefined && !r.scenario.startsWith('dd'))) expect(row.transfer?.maxRssBytes).toBeGreaterThan(0);
    // The extra digests against sha256 alone, measured in the same run.
    expect(transfers.find((row) => row.digestCost !== undefined)?.digestCost?.ratio).toBeGreaterThan(0);
    expect(transfers.filter((row) => row.measurement !== undefined).map((row) => row.scenario.split(' (')[0])).toEqual([
      'GET /folders/<path>', 'GET /folders/<path>',
    ]);
  }, 300_000);
});

// The large site is seeded by PostgreSQL's own SQL: it needs the server, not PGlite.
describe.skipIf(inject('postgresMode') !== 'server')('bench harness smoke run, the large-site section [postgres]', () => {
  it('seeds a large and a small site and measures every scenario on both, warm and after a write', async () => {
    const report = await runSmoke(['large']);
    const rows = report.rows.filter((row) => row.kind === 'large-site');
    // Both seeds, with their time and size on disk.
    expect(rows.filter((row) => row.seed !== undefined).map((row) => row.site)).toEqual(['small', 'large']);
    for (const row of rows.filter((r) => r.seed !== undefined)) expect(row.seed?.bytes).toBeGreaterThan(0);
    // Every scenario on both sites, warm (under load) and cold (each request after a write), its answer checked.
    const measured = rows.filter((row) => row.measurement !== undefined).map((row) => `${row.scenario} ${row.site} ${row.cache}`);
    expect(measured.sort()).toEqual(Object.values(LARGE_SCENARIOS).flatMap((s) => [`${s} large cold`, `${s} large warm`, `${s} small cold`, `${s} small warm`]).sort());
    const text = formatReport(report);
    expect(text).toContain('A large site on PostgreSQL');
    expect(text).toContain('serving process ≤ 250 MB resident');
  }, 300_000);
});
