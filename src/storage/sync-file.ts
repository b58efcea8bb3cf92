import fs from 'node:fs/promises';

/**
 * fsync (or, with `dataOnly`, fdatasync) through a new descriptor: it flushes the file's data
 * whichever descriptor wrote it. A folder is synced the same way, to make a rename in it durable.
 */
export async function syncFile(file: string, options: { dataOnly?: boolean } = {}): Promise<void> {
  const handle = await fs.open(file, 'r');
  try {
    await (options.dataOnly === true ? handle.datasync() : handle.sync());
  } finally {
    await handle.close();
  }
}
