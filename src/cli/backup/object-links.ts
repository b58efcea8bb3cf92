import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Hard-links every blob under `objectsDir` into `intoDir` (same layout), adding only those not
 * linked yet. Blobs are immutable and a link keeps a blob's bytes even when the server deletes it
 * a moment later, so a backup copies the contents without stopping the server and without copying
 * a byte until it writes the archive. A blob deleted while this walks is simply not there.
 */
export async function linkObjects(objectsDir: string, intoDir: string): Promise<number> {
  let linked = 0;
  for (const prefix of await namesIn(objectsDir)) {
    const target = path.join(intoDir, prefix);
    await fs.mkdir(target, { recursive: true });
    for (const key of await namesIn(path.join(objectsDir, prefix))) {
      try {
        await fs.link(path.join(objectsDir, prefix, key), path.join(target, key));
        linked += 1;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EEXIST' && code !== 'ENOENT') throw error;
      }
    }
  }
  return linked;
}

async function namesIn(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
