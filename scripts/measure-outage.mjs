// Measures how one Atrium node answers while PostgreSQL is stopped or unreachable, and how soon it
// recovers. Runs the built server (`npm run build` first) against the PostgreSQL at
// ATRIUM_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) through a loopback
// TCP proxy that it cuts, in a schema of its own that it drops afterwards.
import { spawn } from 'node:child_process';
import net from 'node:net';
import pg from 'pg';

const databaseUrl = new URL(process.env.ATRIUM_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const schema = `atrium_outage_measure_${process.pid}`;
const key = 'outage-measurement-key-0123456789abcdef';
const atriumPort = 18_556;

const sockets = new Set();
let forwarding = true;
const accept = (client) => {
  sockets.add(client);
  client.on('error', () => client.destroy());
  if (!forwarding) return;
  const upstream = net.connect(Number(databaseUrl.port || 5432), databaseUrl.hostname);
  sockets.add(upstream);
  upstream.on('error', () => client.destroy());
  client.pipe(upstream).pipe(client);
};
let proxy = net.createServer(accept);
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const proxyPort = proxy.address().port;
const dropAll = () => { for (const socket of sockets) socket.destroy(); sockets.clear(); };

const admin = async (text) => {
  const client = new pg.Client({ connectionString: databaseUrl.toString() });
  await client.connect();
  try { await client.query(text); } finally { await client.end(); }
};
await admin(`create schema ${schema}`);

const viaProxy = new URL(databaseUrl);
viaProxy.port = String(proxyPort);
viaProxy.searchParams.set('options', `-c search_path=${schema}`);
const node = spawn(process.execPath, ['dist/main.js'], {
  env: { PATH: process.env.PATH, ATRIUM_PORT: String(atriumPort), ATRIUM_ACCESS_LOG: 'false', ATRIUM_DATABASE_URL: viaProxy.toString(), ATRIUM_BOOTSTRAP_API_KEY: key },
  stdio: ['ignore', 'ignore', 'inherit'],
});

const request = async () => {
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${atriumPort}/api/rest/v1/workspaces`, { headers: { 'X-ServiceAPI-Key': key } });
  return { status: response.status, ms: Math.round(performance.now() - started) };
};
const untilOk = async () => {
  const started = performance.now();
  for (;;) {
    const result = await request().catch(() => ({ status: 0 }));
    if (result.status === 200) return Math.round(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const report = (label, results) => console.log(`${label.padEnd(40)} ${results.map((r) => `${r.status} in ${r.ms} ms`).join(', ')}`);

try {
  await untilOk();
  report('healthy', [await request(), await request()]);

  dropAll();
  await new Promise((resolve) => proxy.close(resolve));
  report('database stopped (refused)', [await request(), await request(), await request()]);
  proxy = net.createServer(accept);
  await new Promise((resolve) => proxy.listen(proxyPort, '127.0.0.1', resolve));
  console.log(`${'recovered after the database returned'.padEnd(40)} ${await untilOk()} ms`);

  forwarding = false;
  dropAll();
  report('database unreachable (blackholed)', [await request(), await request(), await request()]);
  forwarding = true;
  console.log(`${'recovered after the database returned'.padEnd(40)} ${await untilOk()} ms`);
} finally {
  node.kill('SIGTERM');
  proxy.close();
  dropAll();
  await admin(`drop schema if exists ${schema} cascade`);
}
