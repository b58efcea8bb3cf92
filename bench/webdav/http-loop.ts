import http from 'node:http';
import { measureLoad, type Measurement, type Timing } from '../measure.js';
import type { ServerProcess } from '../server-process.js';

/**
 * A request of any method (autocannon sends only the methods of RFC 7231 and PATCH, not PROPFIND),
 * and a closed-loop load of it: `connections` keep-alive connections, each sending the next request
 * when the last answer has been read to its end. Both sides of a WebDAV-versus-REST comparison are
 * loaded by this same loop, so neither is measured with a different tool.
 */
export interface AnyRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Sends one request and reads the whole answer; resolves its status and body size. */
export function sendOnce(baseUrl: string, request: AnyRequest, agent?: http.Agent): Promise<{ status: number; bytes: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(`${baseUrl}${request.path}`, {
      method: request.method,
      headers: { ...request.headers, ...(request.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(request.body)) }) },
      ...(agent === undefined ? {} : { agent }),
    }, (response) => {
      let bytes = 0;
      const kept: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        // Only the start is kept, for a probe's check; a loaded answer is counted and dropped.
        if (agent === undefined) kept.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes, text: Buffer.concat(kept).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

interface LoopResult {
  seconds: number;
  ok: number;
  failed: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * `connections` clients each sending the next request as soon as the last is answered, for
 * `seconds`; `request` is the same each time, or made anew for each (a new file for each upload).
 */
export async function closedLoop(baseUrl: string, request: AnyRequest | (() => AnyRequest), connections: number, seconds: number): Promise<LoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const sent = performance.now();
      const answer = await sendOnce(baseUrl, typeof request === 'function' ? request() : request, agent).catch(() => ({ status: 0 }));
      if (answer.status >= 200 && answer.status < 300) latencies.push(performance.now() - sent);
      else failed += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { seconds: elapsed, ok: latencies.length, failed, p50Ms: at(0.5), p99Ms: at(0.99) };
}

/** measure.ts's measurement, with the closed loop as the load. */
export function measureLoop(server: ServerProcess, request: AnyRequest, connections: number, timing: Timing, withDatabaseCpu: boolean): Promise<Measurement> {
  return measureLoad(server, (seconds) => closedLoop(server.baseUrl, request, connections, seconds), timing, withDatabaseCpu);
}
