import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { undoOnInterrupt } from './cleanup.js';

/** A server under test, running as its own process so its CPU time can be read from /proc. */
export interface ServerProcess {
  pid: number;
  baseUrl: string;
  /** What it printed until it answered (other doors, such as SFTP, say there where they listen). */
  startupOutput: string;
  stop(): Promise<void>;
  /** CPU time of all its processes (a primary and its workers), when it has more than `pid`; else measure.ts reads `pid`'s. */
  cpuMicros?(): number;
  /** Resident memory of all its processes, likewise. */
  rssBytes?(): number;
}

export const ATRIUM_MAIN = path.resolve('dist/main.js');
export const BASELINE_MAIN = path.resolve('bench/baseline-server.mjs');
export const FLOOR_MAIN = path.resolve('bench/floor-server.mjs');

const LISTENING = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/;
const START_TIMEOUT_MS = 30_000;

/**
 * Starts `node <main>` on a port the kernel picks and waits until it says where it listens and
 * `healthPath` answers there (and, with `readyLine`, until it has printed a line that matches:
 * every worker serving). Its output is read (and dropped) so a chatty server never blocks.
 */
export async function startServer(main: string, env: Record<string, string>, healthPath: string, nodeArgs: readonly string[] = [], readyLine?: RegExp): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeArgs, main], {
    env: { PATH: process.env.PATH ?? '', ATRIUM_HOST: '127.0.0.1', ATRIUM_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let head = '';
  let baseUrl: string | undefined;
  let ready = false;
  const read = (chunk: Buffer) => {
    if (ready) return;
    head += chunk.toString();
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let exitCode: number | null | undefined;
  child.once('exit', (code) => { exitCode = code; });

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`${path.basename(main)} exited with ${exitCode}: ${head}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${path.basename(main)} did not start: ${head}`);
    }
    baseUrl ??= LISTENING.exec(head)?.[1];
    if (baseUrl !== undefined && (readyLine?.test(head) ?? true) && (await fetch(`${baseUrl}${healthPath}`).then((r) => r.ok, () => false))) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  ready = true;
  const forget = undoOnInterrupt(() => stop(child, exited));
  return {
    pid: child.pid as number,
    baseUrl,
    startupOutput: head,
    stop: () => {
      forget();
      return stop(child, exited);
    },
  };
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
