#!/usr/bin/env node
import { CommanderError } from 'commander';
import { createOwnerOnlyFromNowOn } from '../db/data-dir.js';
import { describeFailure } from './failure.js';
import { buildProgram, usageExitCode } from './program.js';

// The CLI creates databases, backups and restored data dirs: readable by their owner alone, as
// the server's own files are.
createOwnerOnlyFromNowOn();

buildProgram().parseAsync(process.argv).then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof CommanderError) process.exit(usageExitCode(error));
    process.stderr.write(`atrium: ${describeFailure(error)}\n`);
    process.exit(1);
  },
);
