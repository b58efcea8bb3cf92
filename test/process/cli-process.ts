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
 * the given environment, feeding `input` to its standard input, in `cwd` (this process's own by
 * default). For what only the binary shows: its exit status, its standard input, its working
 * directory; the commands' arguments and output run in-process (cli-in-process.ts), a lot cheaper.
 */
export function runCliProcess(env: Record<string, string>, args: string[], input = '', cwd?: string): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
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
  return outputOfSuccess(args, await runCliProcess(env, args, input));
}

/** The standard output of a run that succeeded; a run that did not throws, with what it said. */
export function outputOfSuccess(args: string[], result: CliResult): string {
  if (result.code !== 0) throw new Error(`atrium ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

/**
 * The CLI run in a terminal (a pseudo-terminal made by util-linux `script`), as a person runs it:
 * each time the screen shows one more match of `prompt` (a global pattern), the next answer is typed. What the terminal showed
 * is returned, so a test can check that a typed password was not echoed.
 */
export function runCliInTerminal(env: Record<string, string>, args: string[], prompt: RegExp, answers: string[]): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, CLI, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { env: { PATH: process.env.PATH ?? '', TERM: 'dumb', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  let answered = 0;
  const onOutput = (chunk: Buffer) => {
    screen += chunk.toString();
    const prompts = (screen.match(prompt) ?? []).length;
    while (answered < prompts && answered < answers.length) child.stdin.write(`${answers[answered++]}\r`);
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, screen }));
  });
}
