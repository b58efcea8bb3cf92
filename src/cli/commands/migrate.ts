import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { migrateToLatest } from '../../db/migrate.js';
import { withStartupLock } from '../../db/startup-lock.js';
import { withNewOrExistingSiteDatabase } from '../site-database.js';
import { configOf } from '../settings-options.js';

/**
 * `atrium migrate`: brings the schema to this version's latest, under the same lock servers take
 * at start-up, so it may run while nodes start. A server also migrates when it starts; this lets
 * an operator do it beforehand, or prepare a database for the other commands.
 */
export function addMigrateCommand(program: Command, io: CliIo): void {
  program.command('migrate')
    .description("bring the database's schema to this version's latest")
    .action(async (_options: unknown, command: Command) => {
      await withNewOrExistingSiteDatabase(configOf(command, io.env), io.stderr, (database) => withStartupLock(database, () => migrateToLatest(database)));
      io.stdout.write('the database schema is up to date\n');
    });
}
