import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminQuery, POSTGRES_TEST_URL } from '../support/postgres-server.js';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { TcpProxy } from '../support/tcp-proxy.js';

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
  const schema = `atrium_reqid_${randomBytes(4).toString('hex')}`;
  const target = new URL(POSTGRES_TEST_URL);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  let node: ServerProcess;

  beforeAll(async () => {
    await adminQuery(`create schema ${schema}`);
    await proxy.start();
    const viaProxy = new URL(POSTGRES_TEST_URL);
    viaProxy.port = String(proxy.port);
    viaProxy.searchParams.set('options', `-c search_path=${schema}`);
    node = await startServer({ ATRIUM_DATABASE_URL: viaProxy.toString(), ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-request-id-')) });
  });
  afterAll(async () => {
    await node?.stop('SIGKILL');
    await proxy.stop();
    await adminQuery(`drop schema if exists ${schema} cascade`);
  });

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
