import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminQuery, POSTGRES_TEST_URL } from '../support/postgres-server.js';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { TcpProxy } from '../support/tcp-proxy.js';

const KEY = 'outage-test-bootstrap-key-0123456789abcdef';
const serverMode = inject('postgresMode') === 'server';
if (!serverMode) process.stderr.write('\nSKIPPED: database outage tests need a PostgreSQL server (none reachable).\n\n');

describe.skipIf(!serverMode)('a node when PostgreSQL goes away and comes back [postgres]', () => {
  const schema = `atrium_outage_${randomBytes(4).toString('hex')}`;
  const target = new URL(POSTGRES_TEST_URL);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  let node: ServerProcess;

  beforeAll(async () => {
    await adminQuery(`create schema ${schema}`);
    await proxy.start();
    const viaProxy = new URL(POSTGRES_TEST_URL);
    viaProxy.port = String(proxy.port);
    viaProxy.searchParams.set('options', `-c search_path=${schema}`);
    node = await startServer({ ATRIUM_DATABASE_URL: viaProxy.toString(), ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_DATA_DIR: '/tmp/atrium-unused' });
  });
  afterAll(async () => {
    await node?.stop('SIGKILL');
    await proxy.stop();
    await adminQuery(`drop schema if exists ${schema} cascade`);
  });

  const listWorkspaces = async () => {
    const started = Date.now();
    const response = await fetch(`${node.baseUrl}/api/rest/v1/workspaces`, { headers: { 'X-ServiceAPI-Key': KEY } }).catch((error: unknown) => {
      throw new Error(`request failed (${String(error)}); server output:\n${node.output()}`);
    });
    return { status: response.status, body: (await response.json()) as any, ms: Date.now() - started };
  };
  const health = async () => {
    const response = await fetch(`${node.baseUrl}/health`);
    return { status: response.status, body: await response.json() };
  };

  it.each(['refused', 'unreachable'] as const)('survives the database being %s while requests are in flight: each is answered, none crashes the node', async (failure) => {
    for (let round = 0; round < 5; round += 1) {
      const inFlight = Array.from({ length: 20 }, () => listWorkspaces());
      await new Promise((resolve) => setTimeout(resolve, round));
      if (failure === 'refused') await proxy.refuse();
      else proxy.blackhole();
      const statuses = (await Promise.all(inFlight)).map((r) => r.status);
      expect(statuses.every((status) => status === 200 || status === 503), statuses.join(',')).toBe(true);
      await proxy.restore();
    }
    expect(node.child.exitCode).toBeNull();
    let after = await listWorkspaces();
    for (let i = 0; i < 20 && after.status !== 200; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      after = await listWorkspaces();
    }
    expect(after.status).toBe(200);
  }, 60_000);

  it.each(['refused', 'unreachable'] as const)('answers 503 within seconds while the database is %s, then recovers without a restart', async (failure) => {
    expect((await listWorkspaces()).status).toBe(200);

    if (failure === 'refused') await proxy.refuse();
    else proxy.blackhole();
    for (let i = 0; i < 3; i += 1) {
      const during = await listWorkspaces();
      expect(during.status).toBe(503);
      expect(during.body.type).toBe('service-unavailable/database-unavailable');
      expect(during.ms).toBeLessThan(8_000);
    }
    expect(await health()).toEqual({ status: 503, body: { status: 'unavailable', database: 'unreachable', dialect: 'postgres' } });

    await proxy.restore();
    let after = await listWorkspaces();
    for (let i = 0; i < 20 && after.status !== 200; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      after = await listWorkspaces();
    }
    expect(after.status).toBe(200);
    expect((await health()).status).toBe(200);
  }, 60_000);
});
