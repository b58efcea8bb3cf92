import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { listAutomations, runAutomationManually } from '../../automations/index.js';
import { idArgument } from '../arguments.js';
import { siteCall } from '../site-caller.js';
import { withSiteDatabase } from '../site-database.js';
import { configOf } from '../settings-options.js';

/** Automations are listed this many at a time, in id order, until none is left. */
const PAGE = 1000;

/**
 * `atrium automation list` and `atrium automation run <id>`: every Workspace's automations, and a
 * manual run queued exactly as `POST /automations/<id>/manual_run` queues one (the same feature,
 * acting as the site's administrator), for scripts and for an administrator at the host.
 */
export function addAutomationCommands(program: Command, io: CliIo): void {
  const automation = program.command('automation').description('automations: the work Workspaces run on their files');
  automation.command('list')
    .description('list every automation: id, Workspace, type, trigger, enabled or disabled, name (tab-separated)')
    .action(async (_options: unknown, command: Command) => {
      const lines = await withSiteDatabase(configOf(command, io.env), io.stderr, async (database) => {
        const call = siteCall(database.db);
        const found: string[] = [];
        let after: { value: number; id: number } | undefined;
        for (;;) {
          const page = await listAutomations(call, {}, { sort: { field: 'id', direction: 'asc' }, after, limit: PAGE });
          for (const { id, workspaceId, settings } of page) {
            found.push([id, workspaceId, settings.automation, settings.trigger, settings.disabled ? 'disabled' : 'enabled', settings.name].join('\t'));
          }
          const last = page.at(-1);
          if (page.length < PAGE || last === undefined) return found;
          after = { value: last.id, id: last.id };
        }
      });
      io.stdout.write(lines.map((line) => `${line}\n`).join(''));
    });
  automation.command('run')
    .description('queue a manual run of an automation (as its Run now does), and print the run\'s id')
    .argument('<id>', 'the automation\'s id', idArgument)
    .action(async (id: number, _options: unknown, command: Command) => {
      const run = await withSiteDatabase(configOf(command, io.env), io.stderr, (database) => runAutomationManually(siteCall(database.db), id));
      io.stderr.write(`queued run ${run.id} of automation ${id}\n`);
      io.stdout.write(`${run.id}\n`);
    });
}
