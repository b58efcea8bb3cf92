import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startNodeBehindProxy, type NodeBehindProxy } from '../support/node-behind-proxy.js';
import type { ServerProcess } from '../support/server-process.js';
import type { TcpProxy } from '../support/tcp-proxy.js';

const KEY = 'outage-test-bootstrap-key-0123456789abcdef';
const serverMode = inject('postgresMode') === 'server';
if (!serverMode) process.stderr.write('\nSKIPPED: database outage tests need a PostgreSQL server (none reachable).\n\n');

describe.skipIf(!serverMode)('a node when PostgreSQL goes away and comes back [postgres]', () => {
  let node: ServerProcess;
  let proxy: TcpProxy;
  let started: NodeBehindProxy | undefined;

  beforeAll(async () => {
    started = await startNodeBehindProxy('outage', { ATRIUM_BOOTSTRAP_API_KEY: KEY });
    ({ node, proxy } = started);
  });
  afterAll(() => started?.close());

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
