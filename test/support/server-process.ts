import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

const MAIN = path.resolve('dist/main.js');

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A free loopback port, found by letting the kernel pick one. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
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

/** Starts the server and waits until /health answers (or the process exits). */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const { child, output, exited } = runServer({ ATRIUM_HOST: '127.0.0.1', ATRIUM_PORT: String(port), ...env });
  const baseUrl = `http://127.0.0.1:${port}`;
  let exitCode: number | null | undefined;
  void exited.then((code) => { exitCode = code; });
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`server exited with ${exitCode}: ${output()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy: ${output()}`);
    }
    const healthy = await fetch(`${baseUrl}/health`).then((r) => r.ok, () => false);
    if (healthy) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
