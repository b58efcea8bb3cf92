import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { cpuMicros } from '../proc-stats.js';

const CHUNK = 1024 * 1024;

/** One large transfer: its size, how long it took from the first byte sent to the last received, and the server's CPU. */
export interface Transfer {
  bytes: number;
  seconds: number;
  mibPerSecond: number;
  /** The server process's CPU time per MiB moved, in ms. */
  cpuMsPerMib: number;
}

/**
 * Sends `bytes` as the body of one request (PUT), from one random MiB written again and again so
 * the bench process spends nothing making data, and waits for the answer. Throws unless `expected`.
 */
export async function upload(baseUrl: string, path: string, headers: Record<string, string>, bytes: number, expected: number[], serverPid: number): Promise<Transfer> {
  const chunk = randomBytes(CHUNK);
  const cpuBefore = cpuMicros(serverPid);
  const started = performance.now();
  const status = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request(`${baseUrl}${path}`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/octet-stream', 'content-length': String(bytes) } }, (response) => {
      let text = '';
      response.on('data', (data: Buffer) => { text += data.toString(); });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    let sent = 0;
    const write = () => {
      while (sent < bytes) {
        const piece = bytes - sent >= CHUNK ? chunk : chunk.subarray(0, bytes - sent);
        sent += piece.length;
        if (!request.write(piece)) return void request.once('drain', write);
      }
      request.end();
    };
    write();
  });
  if (!expected.includes(status.status)) throw new Error(`PUT ${path} answered ${status.status} ${status.text.slice(0, 200)}`);
  return transfer(bytes, started, cpuBefore, serverPid);
}

/** Reads one response's body to its end, counting the bytes; throws unless 200 with `expectedBytes`. */
export async function download(baseUrl: string, path: string, headers: Record<string, string>, expectedBytes: number, serverPid: number): Promise<Transfer> {
  const cpuBefore = cpuMicros(serverPid);
  const started = performance.now();
  const { status, bytes } = await new Promise<{ status: number; bytes: number }>((resolve, reject) => {
    http.get(`${baseUrl}${path}`, { headers }, (response) => {
      let received = 0;
      response.on('data', (data: Buffer) => { received += data.length; });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes: received }));
      response.on('error', reject);
    }).on('error', reject);
  });
  if (status !== 200 || bytes !== expectedBytes) throw new Error(`GET ${path} answered ${status} with ${bytes} of ${expectedBytes} bytes`);
  return transfer(bytes, started, cpuBefore, serverPid);
}

function transfer(bytes: number, started: number, cpuBefore: number, serverPid: number): Transfer {
  const seconds = (performance.now() - started) / 1000;
  const mib = bytes / CHUNK;
  return { bytes, seconds, mibPerSecond: mib / seconds, cpuMsPerMib: (cpuMicros(serverPid) - cpuBefore) / 1000 / mib };
}
