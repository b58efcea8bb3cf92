import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { changeSiteSettings, readSiteSettingsAs } from '../../identity/index.js';
import { CliError } from '../failure.js';
import { noConfirmationNeeded, siteCall } from '../site-caller.js';
import { withSiteDatabase } from '../site-database.js';
import { configOf } from '../settings-options.js';

/**
 * `atrium site allowed-ips`: shows, sets or clears the site's address list. The way back in for
 * an administrator whose own address the list no longer holds: the command line is on the
 * server's host, where no list applies, so the lock-out guard of the REST API does not either.
 */
export function addSiteCommands(program: Command, io: CliIo): void {
  const site = program.command('site').description('the site\'s settings');
  site.command('allowed-ips')
    .description('show the site\'s allowed_ips; with a list (addresses and CIDR ranges, one a line or comma-separated), set it; with --clear, remove it')
    .argument('[list]')
    .option('--clear', 'remove the list: any address may connect again (the users\' and groups\' own lists still apply)')
    .action(async (list: string | undefined, options: { clear?: boolean }, command: Command) => {
      if (list !== undefined && options.clear === true) throw new CliError('give a list or --clear, not both');
      const change = options.clear === true ? '' : list;
      const shown = await withSiteDatabase(configOf(command, io.env), io.stderr, async (database) => {
        const view = change === undefined
          ? await readSiteSettingsAs(siteCall(database.db))
          : await changeSiteSettings(siteCall(database.db), { allowed_ips: change }, noConfirmationNeeded);
        return view.settings.allowed_ips;
      });
      io.stdout.write(shown === '' ? 'no site address list: any address may connect\n' : `${shown}\n`);
    });
}
