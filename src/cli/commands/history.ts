import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { pruneHistory, verifyHistoryChain } from '../../history/index.js';
import { historyRetentionDays } from '../../identity/index.js';
import { CliError } from '../failure.js';
import { withSiteDatabase } from '../site-database.js';
import { configOf } from '../settings-options.js';

/** `atrium history verify` and `atrium history prune`: the integrity and the retention of History. */
export function addHistoryCommands(program: Command, io: CliIo): void {
  const history = program.command('history').description('History, the record of who did what');
  history.command('verify')
    .description('check the hash chain of History: exit 1 and name the first record that was edited, removed or reordered')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const verdict = await withSiteDatabase(configOf(command, io.env), io.stderr, (database) => verifyHistoryChain(database.db));
      if (options.json === true) io.stdout.write(`${JSON.stringify(verdict)}\n`);
      else if (verdict.intact) {
        io.stdout.write(verdict.checked === 0 ? 'History is intact (no records)\n' : `History is intact: records ${verdict.firstId} to ${verdict.lastId} (${verdict.checked}) verified\n`);
      }
      if (!verdict.intact) throw new CliError(`History is broken at record ${verdict.atId}: ${verdict.problem} (${verdict.checked} records before it verified)`);
    });
  history.command('prune')
    .description('remove the records older than the site\'s history_retention_days now (the server also does it hourly)')
    .action(async (_options: unknown, command: Command) => {
      const removed = await withSiteDatabase(configOf(command, io.env), io.stderr, async (database) => {
        const days = await historyRetentionDays(database.db);
        return { count: await pruneHistory(database.db, Date.now(), days), days };
      });
      io.stdout.write(`removed ${removed.count} records older than ${removed.days} days\n`);
    });
}
