import type { Command } from 'commander';
import { createBackup } from '../backup/create-backup.js';
import { restoreBackup } from '../backup/restore-backup.js';
import { configOf } from '../settings-options.js';

const POSTGRES_NOTE = 'the database is PostgreSQL: this archive holds the file contents; dump the database with pg_dump (see docs/deployment.md)';

/** `atrium backup <file>` and `atrium restore <file>`. */
export function addBackupCommands(program: Command): void {
  program.command('backup')
    .description('write a consistent backup of the site to <file> (a tar archive) while the server runs')
    .argument('<file>', 'the archive to write; it must not exist')
    .action(async (file: string, _options: unknown, command: Command) => {
      const summary = await createBackup(configOf(command), file);
      process.stdout.write(`backup written to ${file} (${summary.dialect} database${summary.dialect === 'sqlite' ? ' and' : ' not included;'} ${summary.objects} stored file${summary.objects === 1 ? '' : 's'})\n`);
      if (summary.dialect === 'postgres') process.stderr.write(`atrium: note: ${POSTGRES_NOTE}\n`);
    });

  program.command('restore')
    .description('restore a backup into the configured data dir, which must be empty; then start the server on it')
    .argument('<file>', 'an archive written by atrium backup')
    .action(async (file: string, _options: unknown, command: Command) => {
      const config = configOf(command);
      const manifest = await restoreBackup(config, file);
      process.stdout.write(`restored the backup of ${manifest.createdAt} into ${config.dataDir}\n`);
      if (manifest.dialect === 'postgres') process.stderr.write('atrium: note: restore the database from its pg_dump with pg_restore before starting the server (see docs/deployment.md)\n');
    });
}
