import fs from 'node:fs';
import path from 'node:path';
import { undoOnInterrupt } from '../cleanup.js';
import { probe, type Measurement } from '../measure.js';
import { cpuMicros, rssBytes } from '../proc-stats.js';
import type { ResultRow } from '../run-bench.js';
import { folderListing } from '../scenarios.js';
import { seedSmallSite } from '../seed/small-site.js';
import { ATRIUM_MAIN, startServer, type ServerProcess } from '../server-process.js';
import { postgresStore, sqliteStore, type StoreName } from '../stores.js';
import { digestsComputed, patternSha256, sendPattern, timed, type Transfer } from '../transfer.js';
import type { AnyRequest } from '../webdav/http-loop.js';
import { ddRead, ddWrite, evictTree, type DiskFigure } from './disk-baseline.js';
import { curlDownload, type DownloadRequest } from './curl-download.js';
import { digestCost } from './digest-cost.js';
import { latencyLoop, type LatencyLoop } from './listing-loop.js';
import { partUpload } from './part-upload.js';

export interface TransfersBenchContext {
  database: StoreName;
  postgresUrl: string;
  /** Size of each file moved (1 GiB; less in a quick run). */
  transferBytes: number;
  /** Rounds of the single transfers and of dd; each figure keeps its best round, each RSS its worst. */
  transferRounds: number;
  /** Uploads at once while the listing's latency is measured. */
  parallelUploads: number;
  /** Seconds of the listing's latency loop without load, for comparison. */
  idleSeconds: number;
  atriumEnv: Record<string, string>;
  nodeArgs: readonly string[];
}

/** Names of the rows, which the report pairs with their dd figure. */
export const TRANSFER_ROWS = {
  ddWrite: 'dd write, bs=1M conv=fsync',
  ddRead: 'dd read, bs=1M, cold',
  partUpload: 'upload: part protocol (File.beginUpload, parts in sequence)',
  putUpload: 'upload: one PUT /files/<path>',
  digestsAfter: 'after the PUT: its md5, sha1 and crc32 by the file-digests job (seconds include the job runner\'s wait)',
  wholeDownload: 'download: signed URL, whole',
  rangeDownload: 'download: signed URL, in Range requests',
  parallelUploads: 'parallel part-protocol uploads',
  listingIdle: 'GET /folders/<path> (20 entries), nothing else running',
  listingLoaded: 'GET /folders/<path> (20 entries), during the parallel uploads',
  floorDrop: 'floor: bare node:http, PUT read and dropped (loopback alone)',
  floorWrite: 'floor: bare node:http, PUT written to a file and flushed',
  floorRead: 'floor: bare node:http, GET of that file, cold',
  digests: 'digests of an upload: md5, crc32 and sha1 beside sha256, against sha256 alone (hashing thread)',
} as const;

/** The rows of the single transfers, in the report's order. */
const SINGLE_ROWS = [TRANSFER_ROWS.ddWrite, TRANSFER_ROWS.ddRead, TRANSFER_ROWS.floorDrop, TRANSFER_ROWS.floorWrite, TRANSFER_ROWS.floorRead,
  TRANSFER_ROWS.partUpload, TRANSFER_ROWS.putUpload, TRANSFER_ROWS.digestsAfter, TRANSFER_ROWS.wholeDownload, TRANSFER_ROWS.rangeDownload];
const BARE_MAIN = path.resolve('bench/transfers/bare-transfer-server.mjs');

const API = '/api/rest/v1';
const FOLDER = 'transfer-bench';
/** The Range requests' size: the part size the SDKs upload in. */
const RANGE_BYTES = 32 * 2 ** 20;

/**
 * Large transfers through the REST API next to the disk's own figures (docs/benchmarks.md): `dd`
 * writes and reads the same amount on the disk holding Atrium's data directory, in the same run;
 * then a file goes up through the part protocol and through one PUT, and down through the signed
 * URL whole and in Range requests, each checked by its SHA-256, with the server's resident memory
 * sampled throughout, and the PUT's md5, sha1 and crc32, which the file-digests job computes after
 * it (waited for after each upload, so that no job runs while the next transfer is measured);
 * then several part-protocol uploads at once while one client lists a folder, its latency against
 * the same loop with nothing else running. Between the two, what those digests cost against
 * sha256 alone on the hashing thread (digest-cost.ts).
 */
export async function transfersBench(ctx: TransfersBenchContext, record: (row: ResultRow) => void, progress: (line: string) => void): Promise<void> {
  const { database } = ctx;
  const store = database === 'sqlite' ? await sqliteStore() : await postgresStore(ctx.postgresUrl);
  if (store === undefined) return progress(`transfers: PostgreSQL did not answer at ${ctx.postgresUrl}`);
  const forget = undoOnInterrupt(() => store.destroy());
  const base = { kind: 'transfers' as const, database };
  let server: ServerProcess | undefined;
  let bare: ServerProcess | undefined;
  try {
    const site = await seedSmallSite(store);
    server = await startServer(ATRIUM_MAIN, { ...store.atriumEnv, ...ctx.atriumEnv }, '/health', ctx.nodeArgs);
    const dataDir = store.atriumEnv.ATRIUM_DATA_DIR as string;
    const floorDir = path.join(dataDir, 'floor');
    fs.mkdirSync(floorDir, { recursive: true });
    bare = await startServer(BARE_MAIN, { FLOOR_DIR: floorDir }, '/health');
    const admin = { 'X-ServiceAPI-Key': site.workspaceAdmin.key };
    for (const row of await singleTransfers({ server, bare, floorDir }, admin, dataDir, ctx, progress)) record({ ...base, ...row });
    record({ ...base, scenario: TRANSFER_ROWS.digests, digestCost: await digestCost(ctx.transferBytes, ctx.transferRounds) });
    await bare.stop();
    bare = undefined;
    fs.rmSync(floorDir, { recursive: true, force: true });
    const listing = folderListing(site, 'key');
    const answer = await probe(server.baseUrl, listing.request);
    const wrong = listing.check(answer.status, answer.body);
    if (wrong !== undefined) throw new Error(`the listing answered wrongly: ${wrong}`);
    for (const row of await parallelUploads(server, admin, listing.request, ctx, progress)) record({ ...base, ...row });
  } catch (error) {
    // The rest of the bench goes on; the report shows what went wrong here.
    record({ ...base, scenario: 'transfers section', error: (error as Error).message });
  } finally {
    await bare?.stop();
    await server?.stop();
    forget();
    await store.destroy();
  }
}

type Row = Omit<ResultRow, 'kind' | 'database'>;

/**
 * dd, the bare server's floor, then Atrium, round after round: each figure keeps its fastest round
 * and its largest RSS.
 */
async function singleTransfers(servers: { server: ServerProcess; bare: ServerProcess; floorDir: string }, admin: Record<string, string>, dataDir: string, ctx: TransfersBenchContext, progress: (line: string) => void): Promise<Row[]> {
  const { server, bare, floorDir } = servers;
  const size = ctx.transferBytes;
  const sha256 = patternSha256(size);
  const best = new Map<string, Transfer>();
  const errors = new Map<string, string>();
  const keep = (name: string, transfer: Transfer) => {
    const kept = best.get(name);
    const worstRss = Math.max(transfer.maxRssBytes ?? 0, kept?.maxRssBytes ?? 0);
    if (kept === undefined || transfer.mibPerSecond > kept.mibPerSecond) best.set(name, { ...transfer, maxRssBytes: worstRss });
    else kept.maxRssBytes = worstRss;
    const rss = transfer.maxRssBytes === undefined ? '' : `, max RSS ${(transfer.maxRssBytes / 1e6).toFixed(0)} MB`;
    progress(`transfers: ${name}: ${(transfer.bytes / transfer.seconds / 1e6).toFixed(0)} MB/s${rss}`);
  };
  const attempt = async (name: string, run: () => Promise<Transfer>) => {
    try {
      keep(name, await run());
    } catch (error) {
      errors.set(name, (error as Error).message);
    }
  };
  const ddFile = path.join(dataDir, 'dd-baseline.bin');
  const filesDir = path.join(dataDir, 'files');
  const parts = `${FOLDER}/parts.bin`;
  const whole = `${FOLDER}/put.bin`;
  try {
    for (let round = 0; round < ctx.transferRounds; round += 1) {
      await attempt(TRANSFER_ROWS.ddWrite, async () => diskTransfer(await ddWrite(ddFile, size)));
      for (const [name, url] of [[TRANSFER_ROWS.floorDrop, `${bare.baseUrl}/drop`], [TRANSFER_ROWS.floorWrite, `${bare.baseUrl}/file`]] as const) {
        await attempt(name, async () => {
          let answer = { status: 0, text: '' };
          const transfer = await timed(size, bare.pid, async () => { answer = await sendPattern(url, 'PUT', {}, size); });
          if (answer.status !== 201 || answer.text !== String(size)) throw new Error(`the bare server answered ${answer.status} ${answer.text.slice(0, 200)}`);
          return transfer;
        });
      }
      await attempt(TRANSFER_ROWS.partUpload, async () => {
        let recorded = '';
        const transfer = await timed(size, server.pid, async () => { recorded = await partUpload(server.baseUrl, parts, admin, size); });
        if (recorded !== sha256) throw new Error(`the part upload's SHA-256 is ${recorded}, not that of the bytes sent`);
        return transfer;
      });
      // Its other digests come afterwards, on the server's CPU: not while the next upload is measured.
      await digestsComputed(`${server.baseUrl}${API}`, parts, admin);
      await attempt(TRANSFER_ROWS.putUpload, async () => {
        let answer = { status: 0, text: '' };
        const transfer = await timed(size, server.pid, async () => { answer = await sendPattern(`${server.baseUrl}${API}/files/${whole}`, 'PUT', admin, size); });
        if (answer.status !== 201) throw new Error(`PUT answered ${answer.status} ${answer.text.slice(0, 200)}`);
        if ((JSON.parse(answer.text) as { sha256?: string }).sha256 !== sha256) throw new Error('the PUT\'s SHA-256 is not that of the bytes sent');
        return transfer;
      });
      await attempt(TRANSFER_ROWS.digestsAfter, () => timed(size, server.pid, () => digestsComputed(`${server.baseUrl}${API}`, whole, admin)));
      await attempt(TRANSFER_ROWS.ddRead, async () => diskTransfer(await ddRead(ddFile)));
      fs.rmSync(ddFile, { force: true });
      await attempt(TRANSFER_ROWS.floorRead, async () => {
        await evictTree(floorDir);
        return timedDownload(bare, size, sha256, [{ url: `${bare.baseUrl}/file` }], 200);
      });
      await attempt(TRANSFER_ROWS.wholeDownload, async () => {
        const url = await downloadUri(server.baseUrl, whole, admin);
        await evictTree(filesDir);
        return timedDownload(server, size, sha256, [{ url }], 200);
      });
      await attempt(TRANSFER_ROWS.rangeDownload, async () => {
        const url = await downloadUri(server.baseUrl, whole, admin);
        await evictTree(filesDir);
        const ranges = Array.from({ length: Math.ceil(size / RANGE_BYTES) }, (_, i) => ({ url, range: { start: i * RANGE_BYTES, end: Math.min(size, (i + 1) * RANGE_BYTES) - 1 } }));
        return timedDownload(server, size, sha256, ranges, 206);
      });
    }
  } finally {
    fs.rmSync(ddFile, { force: true });
    for (const file of [parts, whole]) await remove(server.baseUrl, file, admin);
  }
  return SINGLE_ROWS.map((name) => {
    const transfer = best.get(name);
    return transfer === undefined ? { scenario: name, error: errors.get(name) ?? 'not run' } : { scenario: name, transfer };
  });
}

/**
 * The listing's latency alone, then while `parallelUploads` part-protocol uploads run at once
 * (the loop ends when the last upload does): what the uploads cost the API's other callers.
 */
async function parallelUploads(server: ServerProcess, admin: Record<string, string>, listing: AnyRequest, ctx: TransfersBenchContext, progress: (line: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  const idle = await listingRow(server, listing, ctx.idleSeconds);
  rows.push({ scenario: TRANSFER_ROWS.listingIdle, measurement: idle });
  const size = ctx.transferBytes;
  const sha256 = patternSha256(size);
  const files = Array.from({ length: ctx.parallelUploads }, (_, i) => `${FOLDER}/parallel-${i + 1}.bin`);
  const name = `${ctx.parallelUploads} ${TRANSFER_ROWS.parallelUploads}`;
  try {
    let uploads: Promise<void> | undefined;
    const transfer = timed(size * files.length, server.pid, async () => {
      uploads = Promise.all(files.map(async (file) => {
        const recorded = await partUpload(server.baseUrl, file, admin, size);
        if (recorded !== sha256) throw new Error(`${file}: the SHA-256 recorded is not that of the bytes sent`);
      })).then(() => undefined);
      await uploads;
    });
    const loaded = listingRow(server, listing, transfer);
    const [uploaded, latency] = await Promise.allSettled([transfer, loaded]);
    if (uploaded.status === 'fulfilled') {
      rows.push({ scenario: name, transfer: uploaded.value });
      progress(`transfers: ${name}: ${(uploaded.value.bytes / uploaded.value.seconds / 1e6).toFixed(0)} MB/s in all`);
    } else {
      rows.push({ scenario: name, error: (uploaded.reason as Error).message });
    }
    rows.push(latency.status === 'fulfilled' ? { scenario: `${TRANSFER_ROWS.listingLoaded} (${ctx.parallelUploads})`, measurement: latency.value } : { scenario: TRANSFER_ROWS.listingLoaded, error: String(latency.reason) });
  } finally {
    for (const file of files) await remove(server.baseUrl, file, admin);
  }
  return rows;
}

/** The latency loop as a measurement (its CPU per request only when nothing else ran). */
async function listingRow(server: ServerProcess, listing: AnyRequest, done: Promise<unknown> | number): Promise<Measurement> {
  const cpuBefore = cpuMicros(server.pid);
  const loop: LatencyLoop = await latencyLoop(server.baseUrl, listing, done);
  if (loop.failed > 0) throw new Error(`${loop.failed} listings failed`);
  const cpu = cpuMicros(server.pid) - cpuBefore;
  const alone = typeof done === 'number';
  return {
    requestsPerSecond: loop.requests / loop.seconds, p50Ms: loop.p50Ms, p99Ms: loop.p99Ms,
    cpuMicrosPerRequest: alone ? cpu / loop.requests : Number.NaN, requestsPerCpuSecond: alone ? loop.requests / (cpu / 1e6) : Number.NaN,
    requests: loop.requests, failed: loop.failed, rssMb: rssBytes(server.pid) / 2 ** 20,
  };
}

/**
 * A download by curl (curl-download.ts), timed, every answer checked; then the same requests
 * again, untimed, with the SHA-256 of the whole checked (hashing on the way would time the client).
 */
async function timedDownload(server: ServerProcess, size: number, sha256: string, requests: DownloadRequest[], status: number): Promise<Transfer> {
  let timedAnswers: Awaited<ReturnType<typeof curlDownload>>['answers'] = [];
  const transfer = await timed(size, server.pid, async () => { timedAnswers = (await curlDownload(requests, false)).answers; });
  checkAnswers(timedAnswers, size, requests, status);
  const received = await curlDownload(requests, true);
  checkAnswers(received.answers, size, requests, status);
  if (received.sha256 !== sha256) throw new Error('the downloaded bytes are not those uploaded (SHA-256 differs)');
  return transfer;
}

function checkAnswers(answers: readonly { status: number; bytes: number }[], size: number, requests: DownloadRequest[], status: number): void {
  answers.forEach((answer, i) => {
    const range = requests[i]?.range;
    const expected = range === undefined ? size : range.end - range.start + 1;
    if (answer.status !== status || answer.bytes !== expected) throw new Error(`request ${i + 1} answered ${answer.status} with ${answer.bytes} of ${expected} bytes`);
  });
  if (answers.length !== requests.length) throw new Error(`${answers.length} answers to ${requests.length} requests`);
}

function diskTransfer(figure: DiskFigure): Transfer {
  return { bytes: figure.bytes, seconds: figure.seconds, mibPerSecond: figure.bytes / 2 ** 20 / figure.seconds, cpuMsPerMib: Number.NaN };
}

async function downloadUri(baseUrl: string, file: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(`${baseUrl}${API}/files/${file}`, { headers });
  const body = await response.json() as { download_uri?: string };
  if (response.status !== 200 || body.download_uri === undefined) throw new Error(`GET /files/${file} answered ${response.status} without a download_uri`);
  return body.download_uri;
}

async function remove(baseUrl: string, file: string, headers: Record<string, string>): Promise<void> {
  await fetch(`${baseUrl}${API}/files/${file}`, { method: 'DELETE', headers }).then((r) => r.arrayBuffer(), () => undefined);
}
