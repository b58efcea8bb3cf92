import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { createBackup } from '../backup/create-backup.js';
import { restoreBackup } from '../backup/restore-backup.js';
import { configOf } from '../settings-options.js';

const POSTGRES_NOTE = 'the database is PostgreSQL: this archive holds the file contents; dump the database with pg_dump (see docs/deployment.md)';

/** `atrium backup <file>` and `atrium restore <file>`. */
export function addBackupCommands(program: Command, io: CliIo): void {
  program.command('backup')
    .description('write a consistent backup of the site to <file> (a tar archive) while the server runs')
    .argument('<file>', 'the archive to write; it must not exist')
    .action(async (file: string, _options: unknown, command: Command) => {
      const summary = await createBackup(configOf(command, io.env), file);
      io.stdout.write(`backup written to ${file} (${summary.dialect} database${summary.dialect === 'sqlite' ? ' and' : ' not included;'} ${summary.objects} stored file${summary.objects === 1 ? '' : 's'})\n`);
      if (summary.dialect === 'postgres') io.stderr.write(`atrium: note: ${POSTGRES_NOTE}\n`);
      if (summary.externalHostKeyFiles.length > 0) io.stderr.write(`atrium: note: ${externalKeysNote(summary.externalHostKeyFiles, 'are not in this backup: keep copies of them with it')}\n`);
    });

  program.command('restore')
    .description('restore a backup into the configured data dir, which must be empty; then start the server on it')
    .argument('<file>', 'an archive written by atrium backup')
    .action(async (file: string, _options: unknown, command: Command) => {
      const config = configOf(command, io.env);
      const manifest = await restoreBackup(config, file);
      io.stdout.write(`restored the backup of ${manifest.createdAt} into ${config.dataDir}\n`);
      if (manifest.dialect === 'postgres') io.stderr.write('atrium: note: restore the database from its pg_dump with pg_restore before starting the server (see docs/deployment.md)\n');
      const external = manifest.sftpHostKeyFiles ?? [];
      if (external.length > 0) io.stderr.write(`atrium: note: ${externalKeysNote(external, 'were not in the backup: set ATRIUM_SFTP_HOST_KEY_FILES to them (or to copies) before starting the server, or SFTP clients will see a new host key')}\n`);
    });
}

/** The SFTP host keys of ATRIUM_SFTP_HOST_KEY_FILES live outside the data dir: a backup names them, and never holds them. */
function externalKeysNote(files: string[], what: string): string {
  return `the SFTP host keys of ATRIUM_SFTP_HOST_KEY_FILES (${files.join(', ')}) ${what}`;
}
