import fs from 'node:fs/promises';
import path from 'node:path';

const PREFIX = '.backup-';
const OWNER_FILE = 'owner.pid';

/**
 * Makes the staging folder of a backup in the data dir, first removing those that backups which
 * died (killed, power lost) left behind: each names its process in a file, and a folder whose
 * process is gone is removed. A backup running beside this one keeps its folder.
 */
export async function makeStagingFolder(dataDir: string): Promise<string> {
  await removeAbandonedStaging(dataDir);
  const staging = await fs.mkdtemp(path.join(dataDir, PREFIX));
  await fs.writeFile(path.join(staging, OWNER_FILE), String(process.pid), { mode: 0o600 });
  return staging;
}

async function removeAbandonedStaging(dataDir: string): Promise<void> {
  for (const name of await fs.readdir(dataDir)) {
    if (!name.startsWith(PREFIX)) continue;
    const folder = path.join(dataDir, name);
    const owner = Number(await fs.readFile(path.join(folder, OWNER_FILE), 'utf8').catch(() => '0'));
    if (!isRunning(owner)) await fs.rm(folder, { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
