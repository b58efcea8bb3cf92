import { spawn, spawnSync } from 'node:child_process';
import type { LoadSettings, RequestSpec } from '../load.js';
import type { LoadOutcome } from '../measure.js';

/**
 * The workers section's load generator: wrk (C, one thread, epoll), when it is installed.
 *
 * autocannon runs in the bench's own Node.js process and takes most of a core to drive 10
 * connections. With one Atrium process that leaves it a core; with two workers on a 2-core machine
 * the three busy processes share two cores, and what is measured is mostly preemption: the bare
 * Fastify hello itself cost 1.28× per request under node:cluster that way. wrk drives the same
 * load with a fraction of a core, so two workers can each have most of one, as they would on a
 * machine with a core to spare, which is what the comparison is about.
 */
export function wrkCommand(env: NodeJS.ProcessEnv): string | undefined {
  const command = env.BENCH_WRK ?? 'wrk';
  if (command === '' || command === 'none') return undefined;
  const found = spawnSync(command, ['--version'], { stdio: 'ignore' });
  return found.error === undefined ? command : undefined;
}

/** Drives `request` at the server for `seconds` with wrk (GET only), one thread, `settings.connections` connections. */
export function wrkLoad(command: string, baseUrl: string, request: RequestSpec, settings: LoadSettings, seconds: number): Promise<LoadOutcome> {
  if (request.method !== 'GET' || request.body !== undefined) throw new Error('wrk load: only GET requests without a body');
  if (settings.pipelining !== 1) throw new Error('wrk load: no pipelining');
  const headers = Object.entries(request.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const args = ['-t1', `-c${settings.connections}`, `-d${Math.max(1, Math.round(seconds))}s`, '--latency', ...headers, `${baseUrl}${request.path}`];
  return new Promise((resolve, reject) => {
    const wrk = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    wrk.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    wrk.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    wrk.on('error', reject);
    wrk.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited with ${code}: ${output.slice(0, 300)}`));
      try {
        resolve(parseWrkOutput(output));
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}

/** The figures of wrk's report (with `--latency`). */
export function parseWrkOutput(output: string): LoadOutcome {
  const total = /(\d+) requests in ([\d.]+)(us|ms|s|m)\b/.exec(output);
  if (total === null) throw new Error(`wrk: no request count in ${output.slice(0, 300)}`);
  const requests = Number(total[1]);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors = socketErrors === null ? 0 : socketErrors.slice(1).reduce((sum, count) => sum + Number(count), 0);
  return {
    ok: requests - non2xx,
    failed: non2xx + errors,
    seconds: toMs(Number(total[2]), total[3] as string) / 1000,
    p50Ms: latencyMs(output, '50%'),
    p99Ms: latencyMs(output, '99%'),
  };
}

function latencyMs(output: string, quantile: string): number {
  const line = new RegExp(`^\\s*${quantile}\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(output);
  if (line === null) throw new Error(`wrk: no ${quantile} latency in ${output.slice(0, 300)}`);
  return toMs(Number(line[1]), line[2] as string);
}

function toMs(value: number, unit: string): number {
  const perUnit: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
  return value * (perUnit[unit] ?? Number.NaN);
}
