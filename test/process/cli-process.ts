import { spawn } from 'node:child_process';
import path from 'node:path';

const CLI = path.resolve('dist/cli/main.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI (`dist/cli/main.js`, the package's `atrium` bin) as its own process with only
 * the given environment, feeding `input` to its standard input.
 */
export function runCli(env: Record<string, string>, args: string[], input = ''): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The same CLI run, expected to succeed: its standard output. */
export async function cliOk(env: Record<string, string>, args: string[], input = ''): Promise<string> {
  const result = await runCli(env, args, input);
  if (result.code !== 0) throw new Error(`atrium ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}
