import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
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
export async function readNewPassword(sources: PasswordSources): Promise<string | undefined> {
  if (sources.passwordStdin === true) return firstLineOfStdin();
  const fromEnv = process.env[PASSWORD_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (process.stdin.isTTY === true) {
    const first = await promptHidden('New password: ');
    const second = await promptHidden('Repeat it: ');
    if (first !== second) throw new CliError('the two passwords differ');
    return first;
  }
  return undefined;
}

async function firstLineOfStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += (chunk as Buffer).toString('utf8');
    if (text.includes('\n')) break;
  }
  const line = text.split(/\r?\n/)[0] ?? '';
  if (line === '') throw new CliError('--password-stdin: standard input held no password');
  return line;
}

/** Reads a line from the terminal with echo turned off (the prompt itself is shown). */
function promptHidden(prompt: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question(prompt, (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
    muted = true;
  });
}
