import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * A maker of temporary folders that are all removed after the file's (or the block's) last test,
 * so that a run leaves nothing in the system's temporary folder. Call it at the top of a file or
 * of a describe block, where it registers that clean-up.
 */
export function temporaryFolders(): (prefix: string) => string {
  const made: string[] = [];
  afterAll(() => {
    for (const folder of made.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  });
  return (prefix) => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    made.push(folder);
    return folder;
  };
}
