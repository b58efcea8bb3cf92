import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runServer } from '../support/server-process.js';

describe('metrics and connection settings at start-up', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-settings-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it.each([
    [{ ATRIUM_IDLE_TIMEOUT: 'soon' }, 'ATRIUM_IDLE_TIMEOUT: "soon" is not a duration (for example 500ms, 30s or 2m)'],
    [{ ATRIUM_IDLE_TIMEOUT: '0s' }, 'ATRIUM_IDLE_TIMEOUT: "0s" is not a duration (for example 500ms, 30s or 2m)'],
    [{ ATRIUM_KEEP_ALIVE_TIMEOUT: '5h' }, 'ATRIUM_KEEP_ALIVE_TIMEOUT: "5h" is not a duration (for example 500ms, 30s or 2m)'],
    [{ ATRIUM_MAX_CONNECTIONS: '-1' }, 'ATRIUM_MAX_CONNECTIONS: "-1" is not a whole number (0 for no limit)'],
    [{ ATRIUM_MAX_CONNECTIONS_PER_CLIENT: 'many' }, 'ATRIUM_MAX_CONNECTIONS_PER_CLIENT: "many" is not a whole number (0 for no limit)'],
    [{ ATRIUM_METRICS_PORT: '70000' }, 'ATRIUM_METRICS_PORT: "70000" is not a port number (0 to 65535)'],
    [{ ATRIUM_METRICS_TOKEN: 'short-secret' }, 'ATRIUM_METRICS_TOKEN: must be at least 16 characters'],
  ])('stops on %o with one line naming the setting', async (env, message) => {
    const { output, exited } = runServer({ ATRIUM_DATA_DIR: dataDir, ...env });
    expect(await exited).toBe(1);
    expect(output().trim()).toBe(`atrium: configuration error: ${message}`);
    // A rejected token is never repeated back, where logs would keep it.
    expect(output()).not.toContain('short-secret');
  });

  it('takes the same settings as flags', async () => {
    const { output, exited } = runServer({ ATRIUM_DATA_DIR: dataDir }, ['--idle-timeout', 'never']);
    expect(await exited).toBe(1);
    expect(output().trim()).toBe('atrium: configuration error: ATRIUM_IDLE_TIMEOUT: "never" is not a duration (for example 500ms, 30s or 2m)');
  });
});
