import { Readable } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';
import { outputOfSuccess, type CliResult } from './cli-process.js';

/**
 * `atrium <args>` run by the CLI's own entry function in this process, the code the binary runs
 * (dist/cli/main.js gives it its process's streams), with only the given environment, `input` as
 * its standard input (not a terminal) and its output collected: a command's arguments and output
 * without starting a process each time. The binary's own part (its exit status, stdin, the
 * terminal prompt) is run as a process (cli-process.ts).
 *
 * With `cwd`, the run happens in that working directory, as a shell would start the binary there
 * (the default data dir and relative paths are the working directory's): this process's is changed
 * for the run and put back after it. Vitest runs each process-test file in a process of its own,
 * and a file's tests one at a time, so nothing else sees the change.
 */
export async function atrium(env: Record<string, string>, args: string[], input = '', cwd?: string): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io = {
    env: { ...env },
    stdin: Readable.from(input === '' ? [] : [Buffer.from(input)]),
    stdout: { write: (text: string) => { stdout += text; } },
    stderr: { write: (text: string) => { stderr += text; } },
  };
  const previous = process.cwd();
  if (cwd !== undefined) process.chdir(cwd);
  try {
    const code = await runCli(args, io);
    return { code, stdout, stderr };
  } finally {
    process.chdir(previous);
  }
}

/** The same run, expected to succeed: its standard output. */
export async function atriumOk(env: Record<string, string>, args: string[], input = ''): Promise<string> {
  return outputOfSuccess(args, await atrium(env, args, input));
}
