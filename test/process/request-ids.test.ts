import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { startNodeBehindProxy, type NodeBehindProxy } from '../support/node-behind-proxy.js';
import type { TcpProxy } from '../support/tcp-proxy.js';

const KEY = 'request-id-test-bootstrap-key-0123456789abcdef';
const serverMode = inject('postgresMode') === 'server';

/** The server's JSON log lines that carry this request id. */
function logLinesOf(server: ServerProcess, requestId: string): Record<string, unknown>[] {
  return server.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.reqId === requestId);
}

async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition never held');
}

describe('request ids in a server process (SQLite)', () => {
  let server: ServerProcess;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-request-id-'));
  afterEach(async () => {
    await server?.stop('SIGKILL');
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('writes the incoming id on the log line of its request', async () => {
    server = await startServer({ ATRIUM_DATA_DIR: dataDir, ATRIUM_BOOTSTRAP_API_KEY: KEY });
    const response = await fetch(`${server.baseUrl}/api/rest/v1/workspaces`, { headers: { 'X-ServiceAPI-Key': 'wrong-key', 'X-Request-Id': 'from-the-balancer-1' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('x-request-id')).toBe('from-the-balancer-1');
    await eventually(() => logLinesOf(server, 'from-the-balancer-1').length > 0);
    expect(logLinesOf(server, 'from-the-balancer-1')).toEqual([expect.objectContaining({ msg: 'request', status: 401, url: '/api/rest/v1/workspaces' })]);
  });
});

describe.skipIf(!serverMode)('request ids when PostgreSQL is unreachable [postgres]', () => {
  let node: ServerProcess;
  let proxy: TcpProxy;
  let started: NodeBehindProxy | undefined;

  beforeAll(async () => {
    started = await startNodeBehindProxy('reqid', { ATRIUM_BOOTSTRAP_API_KEY: KEY });
    ({ node, proxy } = started);
  });
  afterAll(() => started?.close());

  it('answers 503 with the request id in the header, the body and the log line', async () => {
    await proxy.refuse();
    try {
      let attempt = 0;
      let status = 0;
      let body: Record<string, unknown> = {};
      let requestId = '';
      // Connections the pool already holds may answer once more before the refusal reaches them.
      await eventually(async () => {
        attempt += 1;
        requestId = `outage-${attempt}`;
        const response = await fetch(`${node.baseUrl}/api/rest/v1/workspaces`, { headers: { 'X-ServiceAPI-Key': KEY, 'X-Request-Id': requestId } });
        status = response.status;
        expect(response.headers.get('x-request-id')).toBe(requestId);
        body = (await response.json()) as Record<string, unknown>;
        return status === 503;
      });
      expect(body).toMatchObject({ 'http-code': 503, instance: requestId, type: 'service-unavailable/database-unavailable' });
      await eventually(() => logLinesOf(node, requestId).length > 0);
      expect(logLinesOf(node, requestId)).toEqual([expect.objectContaining({ msg: 'request', status: 503 })]);
    } finally {
      await proxy.restore();
    }
  }, 30_000);
});
