import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { adminQuery, POSTGRES_TEST_URL } from './postgres-server.js';
import { startServer, type ServerProcess } from './server-process.js';
import { TcpProxy } from './tcp-proxy.js';

/** A server process on a PostgreSQL schema of its own, reached through a proxy the test can cut. */
export interface NodeBehindProxy {
  node: ServerProcess;
  proxy: TcpProxy;
  /** Kills the node, stops the proxy, drops the schema and removes the data directory. */
  close(): Promise<void>;
}

export async function startNodeBehindProxy(name: string, env: Record<string, string>): Promise<NodeBehindProxy> {
  const schema = `atrium_${name}_${randomBytes(4).toString('hex')}`;
  const target = new URL(POSTGRES_TEST_URL);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `atrium-${name}-`));
  await adminQuery(`create schema ${schema}`);
  await proxy.start();
  const viaProxy = new URL(POSTGRES_TEST_URL);
  viaProxy.port = String(proxy.port);
  viaProxy.searchParams.set('options', `-c search_path=${schema}`);
  let node: ServerProcess | undefined;
  const close = async () => {
    await node?.stop('SIGKILL');
    await proxy.stop();
    await adminQuery(`drop schema if exists ${schema} cascade`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    node = await startServer({ ATRIUM_DATABASE_URL: viaProxy.toString(), ATRIUM_DATA_DIR: dataDir, ...env });
  } catch (error) {
    await close();
    throw error;
  }
  return { node, proxy, close };
}
