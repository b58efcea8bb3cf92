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

/**
 * Starts the server on a port the kernel picks and waits until it says where it listens and
 * /health answers there. Reading the port from the server's own log line (rather than picking a
 * free port beforehand) means a test can never talk to another test's server.
 */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const { child, output, exited } = runServer({ ATRIUM_HOST: '127.0.0.1', ATRIUM_PORT: '0', ATRIUM_LOG_LEVEL: 'info', ...env });
  let exitCode: number | null | undefined;
  void exited.then((code) => { exitCode = code; });
  const deadline = Date.now() + 20_000;
  let port = 0;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`server exited with ${exitCode}: ${output()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy: ${output()}`);
    }
    port ||= Number(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output())?.[1] ?? 0);
    if (port !== 0 && (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false))) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    child,
    port,
    baseUrl,
    output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (exitCode !== undefined) return exitCode;
      child.kill(signal);
      return exited;
    },
  };
}
