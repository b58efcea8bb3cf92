import { describe, expect, it } from 'vitest';
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
