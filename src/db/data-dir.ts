import fs from 'node:fs';
import path from 'node:path';

/** The embedded database's file in the data directory. */
export const SQLITE_FILE = 'atrium.sqlite';
/**
 * The folder of the data directory that holds the SFTP host keys generated on the first start
 * (sftp/host-keys.ts). Named here, beside the database's file, because backups carry it too.
 */
export const SFTP_HOST_KEY_DIR = 'sftp-host-keys';
/**
 * The key that seals the secrets Atrium must read back (identity/secret-box.ts), generated on the
 * first start. Not in the database, so that a copy of the database alone reveals none of them;
 * backups carry it beside the database.
 */
export const SECRET_KEY_FILE = 'secret-box.key';

/**
 * Everything this process creates from now on (the data directory, the database and its journal,
 * file contents, temporary files) is readable by its owner alone: the database holds every
 * password and key hash. The mask is process-wide, so no file can be missed by a forgotten mode.
 */
export function createOwnerOnlyFromNowOn(): void {
  process.umask(0o077);
}

/**
 * Creates the data directory owner-only when it is missing. An existing directory, or database,
 * that other local accounts may read is left as it is (an administrator may have a reason) and
 * named in the warnings returned, one line each.
 */
export function prepareDataDir(dataDir: string): string[] {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const warnings: string[] = [];
  for (const file of [dataDir, path.join(dataDir, SQLITE_FILE)]) {
    const mode = modeOf(file);
    if (mode !== undefined && (mode & 0o077) !== 0) {
      warnings.push(`${file} is readable by other local accounts (mode ${mode.toString(8).padStart(4, '0')}); run: chmod -R go-rwx ${dataDir}`);
    }
  }
  return warnings;
}

function modeOf(file: string): number | undefined {
  try {
    return fs.statSync(file).mode & 0o777;
  } catch {
    return undefined;
  }
}
