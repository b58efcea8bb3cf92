import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const MAIN = path.resolve('dist/main.js');

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs the built server (`dist/main.js`) as its own process, as `npm start` does. */
export function runServer(env: Record<string, string>, args: string[] = []): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
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
export async function startServer(env: Record<string, string>, listener: Listener = PLAIN_HTTP): Promise<ServerProcess> {
  const { child, output, exited } = runServer({ ATRIUM_HOST: '127.0.0.1', ATRIUM_PORT: '0', ATRIUM_LOG_LEVEL: 'info', ...env });
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
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    port,
    baseUrl: `${listener.scheme}://127.0.0.1:${port}`,
    output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (exitCode !== undefined) return exitCode;
      child.kill(signal);
      return exited;
    },
  };
}
