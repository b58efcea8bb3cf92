import { Command, type CommanderError } from 'commander';
import { addBackupCommands } from './commands/backup.js';
import { addConfigCommands } from './commands/config-check.js';
import { addExplainCommand } from './commands/explain.js';
import { addGrantCommands } from './commands/grants.js';
import { addHistoryCommands } from './commands/history.js';
import { addKeyCommands } from './commands/keys.js';
import { addMigrateCommand } from './commands/migrate.js';
import { addUserCommands } from './commands/users.js';
import { addSettingOptions } from './settings-options.js';

/** Exit status for arguments the CLI cannot use (after printing the usage). */
export const USAGE_EXIT = 2;

/** The whole command tree. Commander parses and prints usage; each command calls one feature. */
export function buildProgram(): Command {
  const program = new Command('atrium')
    .description('Administer an Atrium site: users, keys, permissions, the schema, settings, backups, History.\n'
      + 'Reads the same settings as the server: ATRIUM_* variables, or the same flags (--data-dir, --database-url, ...).')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  addSettingOptions(program);
  addUserCommands(program);
  addKeyCommands(program);
  addExplainCommand(program);
  addGrantCommands(program);
  addMigrateCommand(program);
  addConfigCommands(program);
  addBackupCommands(program);
  addHistoryCommands(program);
  return program;
}

/** Help and version end with 0; any other commander error is a usage error. */
export function usageExitCode(error: CommanderError): number {
  return error.exitCode === 0 ? 0 : USAGE_EXIT;
}
