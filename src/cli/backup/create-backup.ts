import fs from 'node:fs/promises';
import path from 'node:path';
import { create } from 'tar';
import { SQLITE_FILE } from '../../db/data-dir.js';
import type { Config } from '../../config/settings.js';
import { CliError } from '../failure.js';
import { DATABASE_ENTRY, FORMAT_VERSION, HOST_KEYS_ENTRY, MANIFEST, objectsDirOf, OBJECTS_ENTRY, SECRET_KEY_ENTRY, type Manifest } from './backup-layout.js';
import { copyHostKeys } from './host-key-copies.js';
import { linkObjects } from './object-links.js';
import { snapshotSqlite } from './sqlite-snapshot.js';
import { makeStagingFolder } from './stale-staging.js';

export interface BackupSummary {
  dialect: Manifest['dialect'];
  objects: number;
  /** Files of the generated SFTP host keys in the archive. */
  hostKeyFiles: number;
  /** ATRIUM_SFTP_HOST_KEY_FILES: named in the manifest, not in the archive. */
  externalHostKeyFiles: string[];
}

/**
 * Writes one tar archive of the site while the server runs: the SQLite database as of one moment
 * and every blob it can refer to. Blobs are linked before and after the database snapshot: a blob
 * the snapshot names was written before it (uploads store the bytes before they commit the row),
 * so the first pass holds it, or the second does if it arrived in between. With PostgreSQL the
 * archive holds the file contents; the database is dumped with pg_dump just before (see
 * docs/deployment.md). The SFTP host keys generated into the data dir go too; those of
 * ATRIUM_SFTP_HOST_KEY_FILES are only named in the manifest. The archive is written beside `file` and renamed into place when complete.
 */
export async function createBackup(config: Config, file: string): Promise<BackupSummary> {
  const target = path.resolve(file);
  if (await exists(target)) throw new CliError(`${target} already exists; a backup never overwrites a file`);
  const dialect: Manifest['dialect'] = config.databaseUrl === undefined ? 'sqlite' : 'postgres';
  if (dialect === 'sqlite' && !(await exists(path.join(config.dataDir, SQLITE_FILE)))) {
    throw new CliError(`${config.dataDir} holds no Atrium database (check ATRIUM_DATA_DIR)`);
  }
  // A PostgreSQL site's file contents are in the data dir too; the server makes it on its first start.
  if (!(await exists(config.dataDir))) throw new CliError(`${config.dataDir} does not exist: it holds no site's files (check ATRIUM_DATA_DIR)`);
  // In the data dir, so that blobs can be hard-linked (same file system) instead of copied.
  const staging = await makeStagingFolder(config.dataDir);
  const partial = `${target}.partial`;
  try {
    const stagedObjects = path.join(staging, ...OBJECTS_ENTRY.split('/'));
    const liveObjects = objectsDirOf(config.dataDir);
    await fs.mkdir(stagedObjects, { recursive: true });
    let objects = await linkObjects(liveObjects, stagedObjects);
    if (dialect === 'sqlite') await snapshotSqlite(path.join(config.dataDir, SQLITE_FILE), path.join(staging, DATABASE_ENTRY));
    objects += await linkObjects(liveObjects, stagedObjects);
    const hostKeyFiles = await copyHostKeys(config.dataDir, staging);
    // Written once, on the first start that sealed anything, and never changed: a plain copy is consistent.
    const secretKey = await exists(path.join(config.dataDir, SECRET_KEY_ENTRY));
    if (secretKey) await fs.copyFile(path.join(config.dataDir, SECRET_KEY_ENTRY), path.join(staging, SECRET_KEY_ENTRY));
    const externalHostKeyFiles = config.sftpHostKeyFiles ?? [];
    const manifest: Manifest = {
      format: FORMAT_VERSION,
      dialect,
      createdAt: new Date().toISOString(),
      ...(externalHostKeyFiles.length > 0 ? { sftpHostKeyFiles: externalHostKeyFiles } : {}),
    };
    await fs.writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);

    const entries = [MANIFEST, ...(dialect === 'sqlite' ? [DATABASE_ENTRY] : []), OBJECTS_ENTRY, ...(hostKeyFiles > 0 ? [HOST_KEYS_ENTRY] : []), ...(secretKey ? [SECRET_KEY_ENTRY] : [])];
    await create({ file: partial, cwd: staging, portable: true }, entries);
    await fs.rename(partial, target);
    return { dialect, objects, hostKeyFiles, externalHostKeyFiles };
  } finally {
    await fs.rm(partial, { force: true });
    await fs.rm(staging, { recursive: true, force: true });
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(() => true, () => false);
}
