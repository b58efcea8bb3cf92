import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const MAIN = path.resolve('dist/main.js');

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  output(): string;
  /** Each stream alone: standard output carries the JSON log lines, standard error the rest. */
  stdout(): string;
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs the built server (`dist/main.js`, or another copy of it) as its own process, as `npm start` does. */
export function runServer(env: Record<string, string>, args: string[] = [], main = MAIN): { child: ChildProcess; output: () => string; stdout: () => string; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [main, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); stdout += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); stderr += chunk.toString(); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, stdout: () => stdout, stderr: () => stderr, exited };
}

/** How to tell that a server listening on a port is healthy, over HTTP or HTTPS. */
export interface Listener {
  scheme: 'http' | 'https';
  healthy(port: number): Promise<boolean>;
}

const PLAIN_HTTP: Listener = {
  scheme: 'http',
  healthy: (port) => fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false),
};

/**
 * Starts the server on a port the kernel picks and waits until it says where it listens and
 * /health answers there. Reading the port from the server's own log line (rather than picking a
 * free port beforehand) means a test can never talk to another test's server.
 */
export async function startServer(env: Record<string, string>, listener: Listener = PLAIN_HTTP, main = MAIN): Promise<ServerProcess> {
  const { child, output, stdout, stderr, exited } = runServer({ ATRIUM_HOST: '127.0.0.1', ATRIUM_PORT: '0', ATRIUM_LOG_LEVEL: 'info', ...env }, [], main);
  let exitCode: number | null | undefined;
  void exited.then((code) => { exitCode = code; });
  const deadline = Date.now() + 20_000;
  const listening = new RegExp(`Server listening at ${listener.scheme}://127\\.0\\.0\\.1:(\\d+)`);
  let port = 0;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`server exited with ${exitCode}: ${output()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy: ${output()}`);
    }
    port ||= Number(listening.exec(output())?.[1] ?? 0);
    if (port !== 0 && (await listener.healthy(port))) break;
    // A poll, not a sleep: the loop ends as soon as the server answers; no event says it is ready.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    port,
    baseUrl: `${listener.scheme}://127.0.0.1:${port}`,
    output,
    stdout,
    stderr,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (exitCode !== undefined) return exitCode;
      child.kill(signal);
      return exited;
    },
  };
}
