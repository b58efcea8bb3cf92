import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../support/server-process.js';

const KEY = 'owner-only-bootstrap-key-0123456789abcdef-0123';

/** Every file and folder below `root`, with its permission bits. */
function modesBelow(root: string): Map<string, number> {
  const modes = new Map<string, number>([[root, fs.statSync(root).mode & 0o777]]);
  for (const name of fs.readdirSync(root, { recursive: true }) as string[]) {
    const file = path.join(root, name);
    modes.set(file, fs.lstatSync(file).mode & 0o777);
  }
  return modes;
}

describe('the data directory is readable by its owner alone', () => {
  const dirs: string[] = [];
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  function freshParent(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-owner-only-'));
    dirs.push(dir);
    return dir;
  }

  it('creates the data dir 0700 and the database, its journal and file contents 0600', async () => {
    const dataDir = path.join(freshParent(), 'data');
    server = await startServer({ ATRIUM_DATA_DIR: dataDir, ATRIUM_BOOTSTRAP_API_KEY: KEY });
    const upload = await fetch(`${server.baseUrl}/api/rest/v1/files/report.txt`, { method: 'PUT', headers: { 'X-ServiceAPI-Key': KEY }, body: 'secret figures' });
    expect(upload.status).toBe(201);

    const modes = modesBelow(dataDir);
    expect(modes.get(dataDir)).toBe(0o700);
    expect(modes.get(path.join(dataDir, 'atrium.sqlite'))).toBe(0o600);
    expect(modes.get(path.join(dataDir, 'atrium.sqlite-wal'))).toBe(0o600);
    const blobs = [...modes.keys()].filter((file) => file.includes(`${path.sep}objects${path.sep}`) && fs.statSync(file).isFile());
    expect(blobs).toHaveLength(1);
    for (const [file, mode] of modes) {
      expect({ file, mode: mode.toString(8) }).toEqual({ file, mode: fs.statSync(file).isDirectory() ? '700' : '600' });
    }
    expect(server.output()).not.toContain('warning');
  });

  it('warns in one line at start when an existing data dir or database is readable by others', async () => {
    const dataDir = path.join(freshParent(), 'data');
    server = await startServer({ ATRIUM_DATA_DIR: dataDir, ATRIUM_BOOTSTRAP_API_KEY: KEY });
    await server.stop();
    fs.chmodSync(dataDir, 0o755);
    fs.chmodSync(path.join(dataDir, 'atrium.sqlite'), 0o644);

    server = await startServer({ ATRIUM_DATA_DIR: dataDir });
    const warnings = server.output().split('\n').filter((line) => line.startsWith('atrium: warning:'));
    expect(warnings).toEqual([
      expect.stringContaining(`${dataDir} is readable by other local accounts (mode 0755)`),
      expect.stringContaining(`${path.join(dataDir, 'atrium.sqlite')} is readable by other local accounts (mode 0644)`),
    ]);
    // It still serves: the warning is advice, not a refusal.
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
  });
});
