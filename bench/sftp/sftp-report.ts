import type { BenchReport, ResultRow } from '../run-bench.js';
import { SFTP_ROWS } from './sftp-bench.js';

const fixed = (value: number | undefined, digits = 0) => (value === undefined || Number.isNaN(value) ? '' : value.toFixed(digits));
const table = (header: string[], rows: string[][]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const problem = (row: ResultRow | undefined) => row?.error ?? row?.skipped ?? (row === undefined ? 'not run' : '');
/** MiB/s as MB/s (10^6 bytes), the unit the issue states its target in. */
const mbPerSecond = (row: ResultRow | undefined) => (row?.transfer === undefined ? undefined : row.transfer.bytes / row.transfer.seconds / 1e6);
const TARGET = 0.7;

/** The SFTP rows as Markdown: the transfers next to OpenSSH's server, then the concurrent sessions. */
export function sftpSection(report: BenchReport): string[] {
  const rows = report.rows.filter((r) => r.kind === 'sftp');
  if (rows.length === 0) return [];
  const out = ['SFTP: OpenSSH\'s `sftp -b` against Atrium and against OpenSSH\'s own sshd (internal-sftp) on this machine, same key, same cipher, same run, one transfer at a time, best of the rounds; then concurrent ssh2 sessions against Atrium (an operation is one folder listing or one whole small-file fetch):', ''];
  out.push(table(['database', 'scenario', 'MB/s', 'seconds', 'Atrium CPU ms/MiB', 'ops/s', 'p50 ms', 'p99 ms', 'Atrium CPU µs/op', ''], rows.map((r) => {
    const m = r.measurement;
    const t = r.transfer;
    return [r.database, r.scenario, fixed(mbPerSecond(r)), fixed(t?.seconds, 2), fixed(t?.cpuMsPerMib, 2), fixed(m?.requestsPerSecond), fixed(m?.p50Ms, 1), fixed(m?.p99Ms, 1), fixed(m?.cpuMicrosPerRequest), problem(r)];
  })));
  out.push('');
  return out;
}

/** Atrium ≥ 70% of OpenSSH's sshd, upload and download. */
export function sftpTargets(report: BenchReport): string[][] {
  const rows = report.rows.filter((r) => r.kind === 'sftp');
  if (rows.length === 0) return [];
  const find = (name: string) => rows.find((r) => r.scenario.startsWith(name));
  return [['put (upload)', SFTP_ROWS.atriumPut, SFTP_ROWS.opensshPut], ['get (download)', SFTP_ROWS.atriumGet, SFTP_ROWS.opensshGet]].map(([what, a, o]) => {
    const atrium = find(a as string);
    const openssh = find(o as string);
    const [ours, theirs] = [mbPerSecond(atrium), mbPerSecond(openssh)];
    const ratio = ours !== undefined && theirs !== undefined && theirs > 0 ? ours / theirs : undefined;
    const measured = ratio !== undefined ? `${(ratio * 100).toFixed(0)}% (${fixed(ours)} / ${fixed(theirs)} MB/s)` : problem(atrium?.transfer === undefined ? atrium : openssh);
    return [`SFTP ${what} with OpenSSH's sftp: Atrium ≥ ${TARGET * 100}% of OpenSSH's sshd`, measured, ratio === undefined ? '' : ratio >= TARGET ? 'yes' : 'no'];
  });
}
