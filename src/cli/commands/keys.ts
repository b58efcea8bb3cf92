import { Option, type Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { createKey } from '../../identity/index.js';
import { idArgument } from '../arguments.js';
import { findUserByName } from '../find-user.js';
import { noConfirmationNeeded, siteCall } from '../site-caller.js';
import { withSiteDatabase } from '../site-database.js';
import { configOf } from '../settings-options.js';

/** `atrium key create --user <name>`: the secret is printed once, alone on stdout, for scripts to capture. */
export function addKeyCommands(program: Command, io: CliIo): void {
  const key = program.command('key').description('API keys');
  key.command('create')
    .description('create an API key for a user and print its secret (shown only now)')
    .requiredOption('--user <username>', 'the user the key acts as')
    .option('--name <name>', 'a name to recognise the key by', 'Created with atrium key create')
    .addOption(new Option('--permission-set <set>', 'full, or files_only (file operations only)').choices(['full', 'files_only']).default('full'))
    .option('--expires-at <time>', 'ISO-8601 expiry time, for example 2027-01-01T00:00:00Z')
    .option('--workspace <id>', 'the Workspace the key is created in (its user must be able to work there)', idArgument)
    .action(async (options: { user: string; name: string; permissionSet: 'full' | 'files_only'; expiresAt?: string; workspace?: number }, command: Command) => {
      const { key: created, secret } = await withSiteDatabase(configOf(command, io.env), io.stderr, async (database) => {
        const call = siteCall(database.db);
        const owner = await findUserByName(call, options.user);
        return createKey(call, {
          name: options.name,
          userId: owner.id,
          permissionSet: options.permissionSet,
          expiresAt: options.expiresAt,
          workspaceId: options.workspace,
        }, noConfirmationNeeded);
      });
      io.stderr.write(`created key ${created.id} for ${options.user}; its secret is shown only now:\n`);
      io.stdout.write(`${secret}\n`);
    });
}
