import { Command, type CommanderError } from 'commander';
import { addAutomationCommands } from './commands/automations.js';
import { addBackupCommands } from './commands/backup.js';
import { addConfigCommands } from './commands/config-check.js';
import { addExplainCommand } from './commands/explain.js';
import { addGrantCommands } from './commands/grants.js';
import { addHistoryCommands } from './commands/history.js';
import { addKeyCommands } from './commands/keys.js';
import { addMigrateCommand } from './commands/migrate.js';
import { addSiteCommands } from './commands/site.js';
import { addUserCommands } from './commands/users.js';
import type { CliIo, CliOutput } from './cli-io.js';
import { addSettingOptions } from './settings-options.js';

/** Exit status for arguments the CLI cannot use (after printing the usage). */
export const USAGE_EXIT = 2;

/** The whole command tree, reading and writing `io`. Commander parses and prints usage; each command calls one feature. */
export function buildProgram(io: CliIo): Command {
  const program = new Command('atrium')
    .description('Administer an Atrium site: users, keys, permissions, the schema, settings, backups, History, automations.\n'
      + 'Reads the same settings as the server: ATRIUM_* variables, or the same flags (--data-dir, --database-url, ...).')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      getOutHelpWidth: () => helpWidth(io.stdout),
      getErrHelpWidth: () => helpWidth(io.stderr),
    });
  addSettingOptions(program);
  addUserCommands(program, io);
  addKeyCommands(program, io);
  addExplainCommand(program, io);
  addGrantCommands(program, io);
  addMigrateCommand(program, io);
  addConfigCommands(program, io);
  addBackupCommands(program, io);
  addHistoryCommands(program, io);
  addAutomationCommands(program, io);
  addSiteCommands(program, io);
  return program;
}

/** Help is wrapped at a terminal's width, else at commander's own 80 columns. */
function helpWidth(output: CliOutput): number {
  return output.isTTY === true && output.columns !== undefined ? output.columns : 80;
}

/** Help and version end with 0; any other commander error is a usage error. */
export function usageExitCode(error: CommanderError): number {
  return error.exitCode === 0 ? 0 : USAGE_EXIT;
}
