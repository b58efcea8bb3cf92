import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runServer, startServer, type ServerProcess } from '../support/server-process.js';

const KEY = 'process-test-bootstrap-key-0123456789abcdef';

describe('the server as a process (SQLite)', () => {
  const running: ServerProcess[] = [];
  const dataDirs: string[] = [];
  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-test-'));
    dataDirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop('SIGKILL')));
    for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stops start-up on a bad setting with one line naming it, no stack trace', async () => {
    const { output, exited } = runServer({ ATRIUM_PORT: 'eighty', ATRIUM_DATA_DIR: dataDir() });
    expect(await exited).toBe(1);
    expect(output().trim()).toBe('atrium: configuration error: ATRIUM_PORT: "eighty" is not a port number (0 to 65535)');
  });

  it('stops start-up on a bootstrap password below the minimum length', async () => {
    const { output, exited } = runServer({ ATRIUM_DATA_DIR: dataDir(), ATRIUM_ADMIN_USERNAME: 'admin', ATRIUM_ADMIN_PASSWORD: 'short' });
    expect(await exited).toBe(1);
    expect(output().trim()).toBe('atrium: configuration error: ATRIUM_ADMIN_PASSWORD: must be at least 12 characters');
  });

  it('on a first start with nothing configured, creates an administrator and prints its secrets once', async () => {
    const dir = dataDir();
    const first = await startServer({ ATRIUM_DATA_DIR: dir });
    running.push(first);
    await waitFor(() => /API key: +(\S+)/.test(first.output()));
    const key = /API key: +(\S+)/.exec(first.output())?.[1] as string;
    expect(first.output()).toMatch(/username: +admin/);
    expect(first.output()).toMatch(/password: +\S{16,}/);
    const listed = await fetch(`${first.baseUrl}/api/rest/v1/workspaces`, { headers: { 'X-ServiceAPI-Key': key } });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual([expect.objectContaining({ id: 0 })]);
    expect(await first.stop()).toBe(0);

    const second = await startServer({ ATRIUM_DATA_DIR: dir });
    running.push(second);
    expect(second.output()).not.toMatch(/password:|API key:/);
    const again = await fetch(`${second.baseUrl}/api/rest/v1/workspaces`, { headers: { 'X-ServiceAPI-Key': key } });
    expect(again.status).toBe(200);
  });

  it('uses the configured bootstrap key and never writes a credential to its log', async () => {
    const server = await startServer({ ATRIUM_DATA_DIR: dataDir(), ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_LOG_LEVEL: 'trace' });
    running.push(server);
    const basic = `Basic ${Buffer.from(`${KEY}:x`).toString('base64')}`;
    expect((await fetch(`${server.baseUrl}/api/rest/v1/workspaces.json`, { headers: { authorization: basic } })).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/api/rest/v1/workspaces`, { headers: { 'X-ServiceAPI-Key': KEY } })).status).toBe(200);
    await fetch(`${server.baseUrl}/api/rest/v1/workspaces`, { headers: { 'X-ServiceAPI-Auth': 'some-session-id-value' } });
    await waitFor(() => (server.output().match(/"msg":"request"/g) ?? []).length >= 3);
    expect(server.output()).not.toContain(KEY);
    expect(server.output()).not.toContain(basic.slice(6));
    expect(server.output()).not.toContain('some-session-id-value');
    // Logs are structured JSON, one object a line.
    for (const line of server.output().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('shuts down gracefully on %s, finishing a request in flight, and exits 0', async (signal) => {
    const server = await startServer({ ATRIUM_DATA_DIR: dataDir(), ATRIUM_BOOTSTRAP_API_KEY: KEY });
    // A request whose body is still arriving when the signal comes: it must still be answered.
    const request = http.request(`${server.baseUrl}/api/rest/v1/no-such-route`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '2', 'X-ServiceAPI-Key': KEY },
    });
    const answered = new Promise<number>((resolve, reject) => {
      request.on('response', (response) => { response.resume(); resolve(response.statusCode ?? 0); });
      request.on('error', reject);
    });
    request.write('{');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopped = server.stop(signal);
    await waitFor(() => server.output().includes(`${signal} received, shutting down`));
    request.end('}');
    expect(await answered).toBe(404);
    expect(await stopped).toBe(0);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
