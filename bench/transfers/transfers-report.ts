import type { BenchReport, ResultRow } from '../run-bench.js';
import { TRANSFER_ROWS } from './transfers-bench.js';

const fixed = (value: number | undefined, digits = 0) => (value === undefined || Number.isNaN(value) ? '' : value.toFixed(digits));
const table = (header: string[], rows: string[][]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const problem = (row: ResultRow | undefined) => row?.error ?? row?.skipped ?? (row === undefined ? 'not run' : '');
/** MB/s (10^6 bytes), dd's unit. */
const mbPerSecond = (row: ResultRow | undefined) => (row?.transfer === undefined ? undefined : row.transfer.bytes / row.transfer.seconds / 1e6);
const mb = (bytes: number | undefined) => (bytes === undefined ? undefined : bytes / 1e6);

/** Each transfer and the dd figure it is held against, with the share it must reach. */
const PAIRS = [
  { row: TRANSFER_ROWS.partUpload, disk: TRANSFER_ROWS.ddWrite, target: 0.6 },
  { row: TRANSFER_ROWS.putUpload, disk: TRANSFER_ROWS.ddWrite, target: 0.6 },
  { row: TRANSFER_ROWS.wholeDownload, disk: TRANSFER_ROWS.ddRead, target: 0.8 },
  { row: TRANSFER_ROWS.rangeDownload, disk: TRANSFER_ROWS.ddRead, target: 0.8 },
] as const;
/** The bare server's figures, held against dd like Atrium's but with no target: what no server here can beat. */
const FLOORS = [
  { row: TRANSFER_ROWS.floorDrop, disk: TRANSFER_ROWS.ddWrite },
  { row: TRANSFER_ROWS.floorWrite, disk: TRANSFER_ROWS.ddWrite },
  { row: TRANSFER_ROWS.floorRead, disk: TRANSFER_ROWS.ddRead },
] as const;
const RSS_LIMIT_MB = 200;

function share(rows: ResultRow[], row: ResultRow): string {
  const pair = [...PAIRS, ...FLOORS].find((p) => row.scenario === p.row);
  const disk = pair && rows.find((r) => r.database === row.database && r.scenario === pair.disk);
  const [ours, theirs] = [mbPerSecond(row), mbPerSecond(disk)];
  return ours !== undefined && theirs !== undefined && theirs > 0 ? `${((ours / theirs) * 100).toFixed(0)}%` : '';
}

/** The transfer rows as Markdown: dd, each transfer and its share of dd, the server's RSS, the listing's latency. */
export function transfersSection(report: BenchReport): string[] {
  const rows = report.rows.filter((r) => r.kind === 'transfers');
  if (rows.length === 0) return [];
  const out = ['Transfers through the REST API next to `dd` on the disk holding the data directory, same run, one at a time, best of the rounds (the RSS is the largest seen in any round, sampled every 100 ms); then part-protocol uploads at once while one client lists a 20-entry folder:', ''];
  out.push(table(['database', 'scenario', 'MB/s', 'of dd', 'seconds', 'Atrium CPU ms/MiB', 'max RSS MB', 'listings', 'p50 ms', 'p99 ms', ''], rows.filter((r) => r.digestCost === undefined).map((r) => {
    const t = r.transfer;
    const m = r.measurement;
    return [r.database, r.scenario, fixed(mbPerSecond(r)), share(rows, r), fixed(t?.seconds, 2), fixed(t?.cpuMsPerMib, 2), fixed(mb(t?.maxRssBytes)),
      fixed(m?.requests), fixed(m?.p50Ms, 1), fixed(m?.p99Ms, 1), problem(r)];
  })));
  out.push('');
  out.push(...digestLines(rows));
  return out;
}

/** The extra digests' cost, with what it is per MiB of the one-PUT upload's CPU in the same run. */
function digestLines(rows: ResultRow[]): string[] {
  const measured = rows.filter((r) => r.digestCost !== undefined);
  if (measured.length === 0) return [];
  const out = ['Digests of an upload on the hashing thread (md5, crc32 and sha1 beside sha256, which the file-digests job computes after a large upload) against sha256 alone, same run, fastest round; the extra time per MiB set against the one-PUT upload\'s Atrium CPU per MiB:', ''];
  out.push(table(['database', 'MiB hashed', 'sha256 alone ms/MiB', 'all four ms/MiB', 'ratio', 'extra ms/MiB', 'of the upload\'s CPU'], measured.map((r) => {
    const cost = r.digestCost as NonNullable<ResultRow['digestCost']>;
    const extra = cost.allMsPerMib - cost.sha256MsPerMib;
    const upload = rows.find((u) => u.database === r.database && u.scenario === TRANSFER_ROWS.putUpload)?.transfer?.cpuMsPerMib;
    return [r.database, fixed(cost.bytes / 2 ** 20), fixed(cost.sha256MsPerMib, 2), fixed(cost.allMsPerMib, 2), `${fixed(cost.ratio, 2)}×`, fixed(extra, 2),
      upload === undefined || upload <= 0 ? '' : `${fixed((extra / upload) * 100)}%`];
  })));
  out.push('');
  return out;
}

/** Uploads ≥ 60% of dd's write, downloads ≥ 80% of its read, the server under 200 MB throughout; the listing's p99 shown. */
export function transfersTargets(report: BenchReport): string[][] {
  const out: string[][] = [];
  for (const database of [...new Set(report.rows.filter((r) => r.kind === 'transfers').map((r) => r.database))]) {
    const rows = report.rows.filter((r) => r.kind === 'transfers' && r.database === database);
    const find = (name: string) => rows.find((r) => r.scenario.startsWith(name) || r.scenario.includes(name));
    for (const pair of PAIRS) {
      const row = find(pair.row);
      const disk = find(pair.disk);
      const [ours, theirs] = [mbPerSecond(row), mbPerSecond(disk)];
      const ratio = ours !== undefined && theirs !== undefined && theirs > 0 ? ours / theirs : undefined;
      out.push([`${pair.row} on ${database}: ≥ ${pair.target * 100}% of ${pair.disk}`,
        ratio === undefined ? problem(row?.transfer === undefined ? row : disk) : `${(ratio * 100).toFixed(0)}% (${fixed(ours)} / ${fixed(theirs)} MB/s)`,
        ratio === undefined ? '' : ratio >= pair.target ? 'yes' : 'no']);
    }
    for (const floor of FLOORS) {
      const [ours, theirs] = [mbPerSecond(find(floor.row)), mbPerSecond(find(floor.disk))];
      if (ours !== undefined && theirs !== undefined && theirs > 0) {
        out.push([`${floor.row} on ${database}, against ${floor.disk} (for information: what no server here can beat)`, `${((ours / theirs) * 100).toFixed(0)}% (${fixed(ours)} / ${fixed(theirs)} MB/s)`, '']);
      }
    }
    const rss = rows.flatMap((r) => (r.transfer?.maxRssBytes === undefined || r.scenario.startsWith('floor') ? [] : [r.transfer.maxRssBytes / 1e6]));
    if (rss.length > 0) out.push([`server RSS during every transfer on ${database}: < ${RSS_LIMIT_MB} MB`, `${fixed(Math.max(...rss))} MB at most`, Math.max(...rss) < RSS_LIMIT_MB ? 'yes' : 'no']);
    const digests = rows.find((r) => r.digestCost !== undefined)?.digestCost;
    if (digests !== undefined) {
      out.push([`md5, crc32 and sha1 beside sha256 on ${database}, against sha256 alone (reported)`, `${fixed(digests.ratio, 2)}× (${fixed(digests.allMsPerMib, 2)} / ${fixed(digests.sha256MsPerMib, 2)} ms/MiB)`, '']);
    }
    const idle = find(TRANSFER_ROWS.listingIdle)?.measurement;
    const loaded = find(TRANSFER_ROWS.listingLoaded)?.measurement;
    if (idle !== undefined && loaded !== undefined) {
      out.push([`listing p99 on ${database} during the parallel uploads (reported)`, `${fixed(loaded.p99Ms, 1)} ms, against ${fixed(idle.p99Ms, 1)} ms with nothing else running`, '']);
    }
  }
  return out;
}
