import http from 'node:http';
import type { Measurement } from '../measure.js';
import { cpuMicros, postgresCpuByPid, postgresCpuSince, rssBytes } from '../proc-stats.js';
import type { Scenario } from '../scenarios.js';
import type { ServerProcess } from '../server-process.js';
import type { OutsideWriter } from './outside-writer.js';

/** What one loop cost: Atrium's CPU and PostgreSQL's (0 on SQLite), in total, and its latencies. */
export interface LoopCost {
  count: number;
  appMicros: number;
  databaseMicros: number;
  seconds: number;
  latenciesMs: number[];
}

/** The answer was not the scenario's: the loop stops, and no figure is given for it. */
export class WrongAnswer extends Error {}

/** One request over a kept-alive connection; the whole answer is read and parsed, for the check. */
function send(baseUrl: string, scenario: Scenario, agent: http.Agent): Promise<{ status: number; body: unknown }> {
  const { method, path, headers, body } = scenario.request;
  return new Promise((resolve, reject) => {
    const outgoing = http.request(`${baseUrl}${path}`, { method, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // Not JSON: the check says what is wrong with it.
        }
        resolve({ status: response.statusCode ?? 0, body: parsed });
      });
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * `count` requests of `scenario`, one at a time, each preceded by a write from outside Atrium when
 * `writer` is given. Every answer is checked, so a figure never measures an error page. CPU is read
 * from /proc around the whole loop (10 ms ticks: loops must be long enough for that).
 */
export async function sequentialLoop(server: ServerProcess, scenario: Scenario, count: number, writer: OutsideWriter | undefined, withDatabaseCpu: boolean, agent: http.Agent): Promise<LoopCost> {
  const latenciesMs: number[] = [];
  const appBefore = cpuMicros(server.pid);
  const databaseBefore = withDatabaseCpu ? postgresCpuByPid() : new Map<number, number>();
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    if (writer !== undefined) await writer.write(i);
    const sent = performance.now();
    const answer = await send(server.baseUrl, scenario, agent);
    latenciesMs.push(performance.now() - sent);
    const wrong = scenario.check(answer.status, answer.body);
    if (wrong !== undefined) throw new WrongAnswer(wrong);
  }
  return {
    count,
    appMicros: cpuMicros(server.pid) - appBefore,
    databaseMicros: withDatabaseCpu ? postgresCpuSince(databaseBefore) : 0,
    seconds: (performance.now() - started) / 1000,
    latenciesMs,
  };
}

/** `count` writes alone, paced as in a cold loop: what Atrium and PostgreSQL spend on the writes themselves. */
export async function writesAlone(server: ServerProcess, writer: OutsideWriter, count: number, withDatabaseCpu: boolean): Promise<LoopCost> {
  const appBefore = cpuMicros(server.pid);
  const databaseBefore = withDatabaseCpu ? postgresCpuByPid() : new Map<number, number>();
  const started = performance.now();
  for (let i = 0; i < count; i += 1) await writer.write(i);
  return { count, appMicros: cpuMicros(server.pid) - appBefore, databaseMicros: withDatabaseCpu ? postgresCpuSince(databaseBefore) : 0, seconds: (performance.now() - started) / 1000, latenciesMs: [] };
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** A loop's cost per request as the bench's other sections report it, less `minus`'s per request (the writes' own cost). */
export function perRequest(server: ServerProcess, loop: LoopCost, withDatabaseCpu: boolean, minus?: LoopCost): Measurement {
  const app = Math.max(0, loop.appMicros / loop.count - (minus === undefined ? 0 : minus.appMicros / minus.count));
  const database = Math.max(0, loop.databaseMicros / loop.count - (minus === undefined ? 0 : minus.databaseMicros / minus.count));
  const sorted = [...loop.latenciesMs].sort((a, b) => a - b);
  return {
    requestsPerSecond: loop.count / loop.seconds,
    p50Ms: quantile(sorted, 0.5),
    p99Ms: quantile(sorted, 0.99),
    cpuMicrosPerRequest: app,
    requestsPerCpuSecond: app === 0 ? 0 : 1_000_000 / app,
    ...(withDatabaseCpu ? { databaseCpuMicrosPerRequest: database } : {}),
    requests: loop.count,
    failed: 0,
    rssMb: rssBytes(server.pid) / (1024 * 1024),
  };
}
