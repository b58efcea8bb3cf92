import { CommanderError } from 'commander';
import { createOwnerOnlyFromNowOn } from '../db/data-dir.js';
import { describeFailure } from './failure.js';
import type { CliIo } from './cli-io.js';
import { buildProgram, usageExitCode } from './program.js';

/**
 * One run of `atrium` with `args` (the words after the command's name): the exit status it ends
 * with, 0 when the command did its work, 2 for arguments it cannot use (after the usage), 1 for any
 * other failure (after one line saying why).
 */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  // The CLI creates databases, backups and restored data dirs: readable by their owner alone, as
  // the server's own files are. The mask is the process's: run in another program (a test), it
  // stays set there too.
  createOwnerOnlyFromNowOn();
  try {
    await buildProgram(io).parseAsync(args, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return usageExitCode(error);
    io.stderr.write(`atrium: ${describeFailure(error)}\n`);
    return 1;
  }
}
