import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { CliIo, CliOutput } from './cli-io.js';
import { CliError } from './failure.js';

/** The variable a script may set instead of typing; the process list never shows a password. */
export const PASSWORD_ENV = 'ATRIUM_USER_PASSWORD';

export interface PasswordSources {
  passwordStdin?: boolean;
}

/**
 * A new password, never from the command line (other local accounts can read it there): the first
 * line of standard input with `--password-stdin`, else ATRIUM_USER_PASSWORD, else a prompt that
 * does not echo when a person is at the terminal. undefined when none of these is available.
 */
export async function readNewPassword(sources: PasswordSources, io: CliIo): Promise<string | undefined> {
  if (sources.passwordStdin === true) return firstLineOf(io.stdin);
  const fromEnv = io.env[PASSWORD_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (io.stdin.isTTY === true) {
    const first = await promptHidden('New password: ', io.stdin, io.stderr);
    const second = await promptHidden('Repeat it: ', io.stdin, io.stderr);
    if (first !== second) throw new CliError('the two passwords differ');
    return first;
  }
  return undefined;
}

async function firstLineOf(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += (chunk as Buffer).toString('utf8');
    if (text.includes('\n')) break;
  }
  const line = text.split(/\r?\n/)[0] ?? '';
  if (line === '') throw new CliError('--password-stdin: standard input held no password');
  return line;
}

/** Reads a line from the terminal with echo turned off (the prompt itself is shown). */
function promptHidden(prompt: string, stdin: NodeJS.ReadableStream, stderr: CliOutput): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) stderr.write(chunk.toString());
      done();
    },
  });
  const rl = createInterface({ input: stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question(prompt, (answer) => {
      rl.close();
      stderr.write('\n');
      resolve(answer);
    });
    muted = true;
  });
}
