import fs from 'node:fs/promises';
import path from 'node:path';
import { HOST_KEYS_ENTRY, isHostKeyFile } from './backup-layout.js';

/**
 * Copies the SFTP host keys generated into the data dir to the backup's staging folder, and
 * answers how many files it copied (none when SFTP never ran). They are written once, on the first
 * start, and never change, so a plain copy is consistent.
 */
export async function copyHostKeys(dataDir: string, staging: string): Promise<number> {
  const source = path.join(dataDir, HOST_KEYS_ENTRY);
  const names = (await fs.readdir(source).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  })).filter(isHostKeyFile);
  if (names.length === 0) return 0;
  const target = path.join(staging, HOST_KEYS_ENTRY);
  await fs.mkdir(target, { mode: 0o700 });
  for (const name of names) await fs.copyFile(path.join(source, name), path.join(target, name));
  return names.length;
}

/**
 * After a restore: the host key folder and its files owner-only (0700, 0600), as the server makes
 * them, whatever modes the archive carried. OpenSSH refuses a private key that others can read,
 * and so should anyone who looks at a restored site.
 */
export async function restrictRestoredHostKeys(dataDir: string): Promise<void> {
  const dir = path.join(dataDir, HOST_KEYS_ENTRY);
  const names = await fs.readdir(dir).catch(() => undefined);
  if (names === undefined) return;
  await fs.chmod(dir, 0o700);
  for (const name of names) await fs.chmod(path.join(dir, name), 0o600);
}
