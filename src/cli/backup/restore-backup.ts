import fs from 'node:fs/promises';
import path from 'node:path';
import { extract } from 'tar';
import type { Config } from '../../config/settings.js';
import { CliError } from '../failure.js';
import { isBackupEntry, MANIFEST, READABLE_FORMATS, SECRET_KEY_ENTRY, type Manifest } from './backup-layout.js';
import { restrictRestoredHostKeys } from './host-key-copies.js';

/**
 * Unpacks a backup into the configured data dir, which must be missing or empty: a restore never
 * mixes with, or overwrites, a site. The archive may hold only what a backup writes; anything
 * else (another path, a link) fails the restore, and the data dir is left empty again.
 */
export async function restoreBackup(config: Config, file: string): Promise<Manifest> {
  const source = path.resolve(file);
  await fs.access(source).catch(() => {
    throw new CliError(`${source} does not exist`);
  });
  const dataDir = config.dataDir;
  const present = await fs.readdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (present.length > 0) throw new CliError(`${dataDir} is not empty; restore only into a new, empty data dir (ATRIUM_DATA_DIR)`);
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  try {
    const refused: string[] = [];
    await unpack({
      file: source,
      cwd: dataDir,
      strict: true,
      filter: (entryPath, entry) => {
        const allowed = isBackupEntry(entryPath) && ('type' in entry ? entry.type === 'File' || entry.type === 'Directory' : true);
        if (!allowed) refused.push(entryPath);
        return allowed;
      },
    }, source);
    if (refused.length > 0) throw new CliError(`${source} is not an Atrium backup: it holds ${refused[0]}`);
    const manifest = await readManifest(path.join(dataDir, MANIFEST), source);
    const expected = config.databaseUrl === undefined ? 'sqlite' : 'postgres';
    if (manifest.dialect !== expected) {
      throw new CliError(`${source} is a backup of a ${manifest.dialect} site, but the configuration selects ${expected}`);
    }
    await restrictRestoredHostKeys(dataDir);
    // Owner-only, as the server makes it, whatever mode the archive carried.
    await fs.chmod(path.join(dataDir, SECRET_KEY_ENTRY), 0o600).catch(() => undefined);
    await fs.rm(path.join(dataDir, MANIFEST));
    return manifest;
  } catch (error) {
    await emptyDir(dataDir);
    throw error;
  }
}

/** tar's own failures (not an archive, a truncated one) said as what they mean here. */
async function unpack(options: Parameters<typeof extract>[0] & { file: string }, source: string): Promise<void> {
  try {
    await extract(options);
  } catch (error) {
    throw new CliError(`${source} is not an Atrium backup: ${(error as Error).message}`);
  }
}

async function readManifest(file: string, source: string): Promise<Manifest> {
  const text = await fs.readFile(file, 'utf8').catch(() => {
    throw new CliError(`${source} is not an Atrium backup: it has no ${MANIFEST}`);
  });
  const manifest = JSON.parse(text) as Partial<Manifest>;
  if (!READABLE_FORMATS.includes(manifest.format as number) || (manifest.dialect !== 'sqlite' && manifest.dialect !== 'postgres')) {
    throw new CliError(`${source} is a backup format this version does not know (format ${String(manifest.format)})`);
  }
  return manifest as Manifest;
}

async function emptyDir(dir: string): Promise<void> {
  for (const name of await fs.readdir(dir).catch(() => [])) await fs.rm(path.join(dir, name), { recursive: true, force: true });
}
