import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../support/server-process.js';

const KEY = 'webhook-log-test-bootstrap-key-0123456789abcdef';

async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition never held');
}

/** The access log names a webhook call's URL without its secret (docs/automations.md#webhook-calls). */
describe('webhook calls in the access log (SQLite)', () => {
  let server: ServerProcess;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-webhook-log-'));
  beforeAll(async () => {
    server = await startServer({ ATRIUM_DATA_DIR: dataDir, ATRIUM_BOOTSTRAP_API_KEY: KEY });
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs each call with its secret redacted, a wrong one too', async () => {
    const made = await fetch(`${server.baseUrl}/api/rest/v1/automations`, {
      method: 'POST',
      headers: { 'X-ServiceAPI-Key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ automation: 'copy_file', trigger: 'webhook', path: 'in', destinations: ['out/'] }),
    });
    expect(made.status).toBe(201);
    const url = new URL(((await made.json()) as { webhook_url: string }).webhook_url).pathname;
    const [webhookId, secret] = url.split('/').slice(-2) as [string, string];
    expect((await fetch(`${server.baseUrl}${url}?name=x`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}${url}`, { method: 'POST' })).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/api/rest/v1/automations/webhook/${webhookId}/not-${secret}`)).status).toBe(404);
    const redacted = `/api/rest/v1/automations/webhook/${webhookId}/[redacted]`;
    const logged = () => server.output().split('\n').filter((line) => line.includes(redacted)).length;
    await eventually(() => logged() >= 3);
    expect(server.output()).not.toContain(secret);
  });
});
