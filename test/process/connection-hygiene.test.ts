import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { temporaryFolders } from '../support/temp-dirs.js';

/** Removed after the file's last test. */
const temporaryFolder = temporaryFolders();

const KEY = 'hygiene-test-bootstrap-key-0123456789abcdef';

/** A raw connection that records what the server sent and when it closed the connection. */
interface HeldConnection {
  socket: net.Socket;
  received(): string;
  closed: Promise<void>;
}

function connect(port: number, firstBytes: string, localAddress = '127.0.0.1'): Promise<HeldConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress }, () => {
      socket.write(firstBytes);
      resolve({ socket, received: () => received, closed });
    });
    let received = '';
    socket.on('data', (chunk) => { received += chunk.toString(); });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('error', () => undefined);
    socket.once('error', reject);
  });
}

async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition never held');
}

const health = (server: ServerProcess) => fetch(`${server.baseUrl}/health`).then((r) => r.status, () => 0);

describe('connection hygiene (a real server process)', () => {
  const running: ServerProcess[] = [];
  const held: net.Socket[] = [];
  afterEach(async () => {
    for (const socket of held.splice(0)) socket.destroy();
    await Promise.all(running.splice(0).map((s) => s.stop('SIGKILL')));
  });
  const start = async (env: Record<string, string>) => {
    const server = await startServer({ ATRIUM_DATA_DIR: temporaryFolder('atrium-hygiene-'), ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_ACCESS_LOG: 'false', ...env });
    running.push(server);
    return server;
  };

  it('closes 1,000 stalled request bodies (and stalled headers) after the idle timeout, answering /health throughout', async () => {
    // The per-client cap is raised: every connection of this test comes from one address.
    const server = await start({ ATRIUM_IDLE_TIMEOUT: '2s', ATRIUM_MAX_CONNECTIONS_PER_CLIENT: '2000' });
    const stalledBody = 'POST /api/rest/v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"username":';
    const stalledHeaders = 'POST /api/rest/v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty';
    const firstBytes = [...Array.from({ length: 1000 }, () => stalledBody), ...Array.from({ length: 100 }, () => stalledHeaders)];
    const connections = await Promise.all(firstBytes.map((bytes) => connect(server.port, bytes)));
    held.push(...connections.map((c) => c.socket));
    let allClosed = false;
    const closedAll = Promise.all(connections.map((c) => c.closed)).then(() => { allClosed = true; });

    // While they are held, and until the last is closed, the server keeps answering.
    const healthStatuses: number[] = [];
    while (!allClosed) {
      healthStatuses.push(await health(server));
      await Promise.race([closedAll, new Promise((resolve) => setTimeout(resolve, 100))]);
    }
    expect(healthStatuses.length).toBeGreaterThan(0);
    expect(healthStatuses.every((status) => status === 200), healthStatuses.join(',')).toBe(true);
    // Closed without an answer: nothing was ever going to complete these requests.
    expect(connections.filter((c) => c.received() !== '').length).toBe(0);
    expect(await health(server)).toBe(200);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);

  it('lets a slow but moving upload finish although it takes longer than the idle timeout', async () => {
    const server = await start({ ATRIUM_IDLE_TIMEOUT: '1s' });
    const chunks = 12;
    const chunk = 'x'.repeat(1000);
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === chunks) return controller.close();
        // Each pause is well inside the idle timeout; all of them together are three times it.
        await new Promise((resolve) => setTimeout(resolve, 250));
        controller.enqueue(new TextEncoder().encode(chunk));
        sent += 1;
      },
    });
    let sent = 0;
    const response = await fetch(`${server.baseUrl}/api/rest/v1/files/slow.txt`, {
      method: 'PUT', headers: { 'X-ServiceAPI-Key': KEY }, body, duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ path: 'slow.txt', size: chunks * chunk.length });
  }, 30_000);

  it('closes an idle keep-alive connection after the keep-alive timeout, and says so in the response', async () => {
    const server = await start({ ATRIUM_KEEP_ALIVE_TIMEOUT: '1s' });
    const connection = await connect(server.port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    held.push(connection.socket);
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(connection.received()).toMatch(/\r\nKeep-Alive: timeout=1\r\n/i);
  });

  /** A keep-alive connection that is proven accepted by its answer, or undefined when the server closed it unanswered. */
  const tryHold = async (server: ServerProcess, localAddress: string): Promise<HeldConnection | undefined> => {
    const connection = await connect(server.port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', localAddress);
    held.push(connection.socket);
    await Promise.race([connection.closed, new Promise<void>((resolve) => connection.socket.once('data', () => resolve()))]);
    return connection.received().startsWith('HTTP/1.1 200 ') ? connection : undefined;
  };

  // The test's clients connect from 127.0.0.2: the start-up checks' keep-alive connections come from
  // 127.0.0.1 and count for the total cap only, so the per-client count is exactly the test's own.
  it.each<{ limit: string; env: Record<string, string>; exact: boolean }>([
    { limit: 'ATRIUM_MAX_CONNECTIONS_PER_CLIENT', env: { ATRIUM_MAX_CONNECTIONS_PER_CLIENT: '3' }, exact: true },
    { limit: 'ATRIUM_MAX_CONNECTIONS', env: { ATRIUM_MAX_CONNECTIONS: '3', ATRIUM_MAX_CONNECTIONS_PER_CLIENT: '0' }, exact: false },
  ])('refuses connections over $limit and accepts again once one closes', async ({ env, exact }) => {
    const server = await start(env);
    const holders: HeldConnection[] = [];
    for (;;) {
      const connection = await tryHold(server, '127.0.0.2');
      if (connection === undefined) break;
      holders.push(connection);
      expect(holders.length).toBeLessThanOrEqual(3);
    }
    if (exact) expect(holders.length).toBe(3);
    else expect(holders.length).toBeGreaterThan(0);
    // The accepted ones are still open and still served.
    expect(holders.every((c) => !c.socket.destroyed)).toBe(true);

    const first = holders.shift() as HeldConnection;
    first.socket.destroy();
    await first.closed;
    await eventually(async () => {
      const again = await tryHold(server, '127.0.0.2');
      return again !== undefined;
    });
  });
});
