import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { cpuMicros, rssBytes } from './proc-stats.js';

const CHUNK = 1024 * 1024;
/** How often the server's resident memory is read during a transfer. */
const RSS_SAMPLE_MS = 100;

/**
 * What every upload sends: one random MiB written again and again, so the bench process spends
 * nothing making data, and the SHA-256 of any length of it is known without reading it back.
 */
const PATTERN = randomBytes(CHUNK);

/** One large transfer: its size, how long it took from the first byte sent to the last received, and the server's CPU. */
export interface Transfer {
  bytes: number;
  seconds: number;
  mibPerSecond: number;
  /** The server process's CPU time per MiB moved, in ms. */
  cpuMsPerMib: number;
  /** The server's largest resident memory seen during the transfer (sampled every 100 ms). */
  maxRssBytes?: number;
}

/** The hex SHA-256 of the first `bytes` bytes of what uploads send. */
export function patternSha256(bytes: number): string {
  const hash = createHash('sha256');
  for (let hashed = 0; hashed < bytes; hashed += CHUNK) hash.update(PATTERN.subarray(0, Math.min(CHUNK, bytes - hashed)));
  return hash.digest('hex');
}

/**
 * Sends `bytes` of the pattern as the body of one request and reads the answer to its end.
 * Back-pressure is respected: the next MiB is written only once the socket has taken the last.
 */
export function sendPattern(url: string, method: string, headers: Record<string, string>, bytes: number, agent?: http.Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method,
      headers: { ...headers, 'content-type': 'application/octet-stream', 'content-length': String(bytes) },
      ...(agent === undefined ? {} : { agent }),
    }, (response) => {
      let text = '';
      response.on('data', (data: Buffer) => { text += data.toString(); });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    let sent = 0;
    const write = () => {
      while (sent < bytes) {
        const piece = bytes - sent >= CHUNK ? PATTERN : PATTERN.subarray(0, bytes - sent);
        sent += piece.length;
        if (!request.write(piece)) return void request.once('drain', write);
      }
      request.end();
    };
    write();
  });
}

/** Reads one response's body to its end, counting (and, when `hash` is given, hashing) the bytes. */
export function receive(url: string, headers: Record<string, string>, hash?: ReturnType<typeof createHash>, agent?: http.Agent): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers, ...(agent === undefined ? {} : { agent }) }, (response) => {
      let received = 0;
      response.on('data', (data: Buffer) => {
        received += data.length;
        hash?.update(data);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes: received }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * Times `move` (which moves `bytes` in all), reading the server's CPU before and after and its
 * resident memory every 100 ms in between.
 */
export async function timed(bytes: number, serverPid: number, move: () => Promise<void>): Promise<Transfer> {
  const cpuBefore = cpuMicros(serverPid);
  let maxRss = rssBytes(serverPid);
  const sampler = setInterval(() => { maxRss = Math.max(maxRss, rssBytes(serverPid)); }, RSS_SAMPLE_MS);
  const started = performance.now();
  try {
    await move();
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  maxRss = Math.max(maxRss, rssBytes(serverPid));
  const mib = bytes / CHUNK;
  return { bytes, seconds, mibPerSecond: mib / seconds, cpuMsPerMib: (cpuMicros(serverPid) - cpuBefore) / 1000 / mib, maxRssBytes: maxRss };
}

/** Uploads `bytes` of the pattern in one request (PUT) and waits for the answer. Throws unless `expected`. */
export async function upload(baseUrl: string, path: string, headers: Record<string, string>, bytes: number, expected: number[], serverPid: number): Promise<Transfer> {
  let answer = { status: 0, text: '' };
  const transfer = await timed(bytes, serverPid, async () => { answer = await sendPattern(`${baseUrl}${path}`, 'PUT', headers, bytes); });
  if (!expected.includes(answer.status)) throw new Error(`PUT ${path} answered ${answer.status} ${answer.text.slice(0, 200)}`);
  return transfer;
}

/**
 * Downloads one response whole; throws unless 200 with `expectedBytes` (and, when `sha256` is
 * given, bytes of that SHA-256, hashed as they arrive).
 */
export async function download(baseUrl: string, path: string, headers: Record<string, string>, expectedBytes: number, serverPid: number, sha256?: string): Promise<Transfer> {
  const hash = sha256 === undefined ? undefined : createHash('sha256');
  let answer = { status: 0, bytes: 0 };
  const transfer = await timed(expectedBytes, serverPid, async () => { answer = await receive(`${baseUrl}${path}`, headers, hash); });
  if (answer.status !== 200 || answer.bytes !== expectedBytes) throw new Error(`GET ${path} answered ${answer.status} with ${answer.bytes} of ${expectedBytes} bytes`);
  if (hash !== undefined && hash.digest('hex') !== sha256) throw new Error(`GET ${path}: the bytes are not those uploaded (SHA-256 differs)`);
  return transfer;
}

/**
 * Waits (a minute at most) until a file's md5 is known: a large file's come from a job after its
 * upload, which a bench waits for so that it does not run while the next figure is measured.
 */
export async function digestsComputed(apiUrl: string, file: string, headers: Record<string, string>): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const answer = await fetch(`${apiUrl}/file_actions/metadata/${file}`, { headers });
    if (!answer.ok) throw new Error(`metadata of ${file} answered ${answer.status}`);
    if ((await answer.json() as { md5?: string | null }).md5 != null) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${file}'s md5 was not computed within a minute`);
}
