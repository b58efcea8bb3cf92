import { runLoad, type LoadSettings, type RequestSpec } from './load.js';
import { cpuMicros, postgresCpuByPid, postgresCpuSince, rssBytes } from './proc-stats.js';
import type { ServerProcess } from './server-process.js';

export interface Timing {
  warmupSeconds: number;
  seconds: number;
  /** Loads of `seconds` each; the one with the lowest CPU per request is kept (other work on the machine only ever adds). */
  repeats?: number;
}

export interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The server process's CPU time (user + system) per successful request. */
  cpuMicrosPerRequest: number;
  /** Requests per second for each second of the server's CPU time: throughput per core. */
  requestsPerCpuSecond: number;
  /** PostgreSQL's own CPU time per request, when it runs on this machine. */
  databaseCpuMicrosPerRequest?: number;
  requests: number;
  failed: number;
  rssMb: number;
}

/** What one load reports: successful and failed requests, its length and latency quantiles. */
export interface LoadOutcome {
  ok: number;
  failed: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Warms the server up on the request, then loads it for `timing.seconds` and reads the server's
 * CPU time from /proc before and after: CPU per request counts the server's own work only, not
 * the load generator's, whichever core either ran on.
 */
export function measure(server: ServerProcess, request: RequestSpec, settings: LoadSettings, timing: Timing, withDatabaseCpu: boolean): Promise<Measurement> {
  return measureLoad(server, (seconds) => runLoad(server.baseUrl, request, settings, seconds), timing, withDatabaseCpu);
}

/**
 * `measure` with any load generator (`load` runs for the seconds given): a warm-up, then
 * `timing.repeats` loads, keeping the one with the lowest server CPU per request.
 */
export async function measureLoad(server: ServerProcess, load: (seconds: number) => Promise<LoadOutcome>, timing: Timing, withDatabaseCpu: boolean): Promise<Measurement> {
  if (timing.warmupSeconds > 0) await load(timing.warmupSeconds);
  let best: Measurement | undefined;
  for (let i = 0; i < (timing.repeats ?? 1); i += 1) {
    const measured = await measureOnce(server, load, timing.seconds, withDatabaseCpu);
    if (best === undefined || measured.cpuMicrosPerRequest < best.cpuMicrosPerRequest) best = measured;
  }
  return best as Measurement;
}

/** The server's CPU time so far: all its processes' when it has several (ATRIUM_WORKERS). */
const serverCpu = (server: ServerProcess) => server.cpuMicros?.() ?? cpuMicros(server.pid);

/**
 * One load of `seconds`. A load in which no request was answered (the machine was busy elsewhere,
 * as when the smoke run shares it with the rest of the test suite) measures nothing: it is run
 * again, twice as long each time, up to eight times the length asked.
 */
async function measureOnce(server: ServerProcess, load: (seconds: number) => Promise<LoadOutcome>, seconds: number, withDatabaseCpu: boolean): Promise<Measurement> {
  for (let length = seconds; ; length *= 2) {
    const measured = await measureLoadOnce(server, load, length, withDatabaseCpu);
    if (measured.requests > 0 || length >= seconds * 8) return measured;
  }
}

async function measureLoadOnce(server: ServerProcess, load: (seconds: number) => Promise<LoadOutcome>, seconds: number, withDatabaseCpu: boolean): Promise<Measurement> {
  const cpuBefore = serverCpu(server);
  const databaseBefore = withDatabaseCpu ? postgresCpuByPid() : new Map<number, number>();
  const outcome = await load(seconds);
  const cpu = serverCpu(server) - cpuBefore;
  const databaseCpu = withDatabaseCpu ? postgresCpuSince(databaseBefore) : 0;
  const requests = Math.max(outcome.ok, 1);
  return {
    requestsPerSecond: outcome.ok / outcome.seconds,
    p50Ms: outcome.p50Ms,
    p99Ms: outcome.p99Ms,
    cpuMicrosPerRequest: cpu / requests,
    requestsPerCpuSecond: cpu === 0 ? 0 : (outcome.ok * 1_000_000) / cpu,
    ...(withDatabaseCpu ? { databaseCpuMicrosPerRequest: databaseCpu / requests } : {}),
    requests: outcome.ok,
    failed: outcome.failed,
    rssMb: (server.rssBytes?.() ?? rssBytes(server.pid)) / (1024 * 1024),
  };
}

/** Sends the request once and answers the status and parsed body, to check a scenario before loading it. */
export async function probe(baseUrl: string, request: RequestSpec): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: keep the text for the error message.
  }
  return { status: response.status, body };
}
