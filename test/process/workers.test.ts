import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectSftp, call as sftpCall } from '../sftp/sftp-fixture.js';
import { httpsRequest, startHttpsServer } from '../support/https-server-process.js';
import { adminQuery, POSTGRES_TEST_URL } from '../support/postgres-server.js';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { makeTestCertificateAuthority } from '../support/tls-certificates.js';
import { callFresh, onEveryWorker, pidsOf, waitFor, type Answer } from '../support/worker-server.js';
import { parsePrometheusText } from './prometheus-text.js';

const KEY = 'workers-test-bootstrap-key-0123456789abcdef';
const PASSWORD = 'a long enough password';
const METRICS_TOKEN = randomBytes(24).toString('hex');
const serverMode = inject('postgresMode') === 'server';
if (!serverMode) process.stderr.write('\nSKIPPED: the PostgreSQL half of the workers tests needs a PostgreSQL server (none reachable).\n\n');

const dataDirs: string[] = [];
const schemas: string[] = [];
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-workers-'));
  dataDirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  for (const schema of schemas.splice(0)) await adminQuery(`drop schema if exists ${schema} cascade`);
});

/** SQLite: one WAL file shared by the workers. PostgreSQL: a fresh schema. */
const databases: { name: string; env: () => Promise<Record<string, string>> }[] = [
  { name: 'sqlite', env: async () => ({ ATRIUM_DATA_DIR: dataDir() }) },
  ...(serverMode
    ? [{
        name: 'postgres',
        env: async () => {
          const schema = `atrium_workers_${randomBytes(4).toString('hex')}`;
          schemas.push(schema);
          await adminQuery(`create schema ${schema}`);
          const url = new URL(POSTGRES_TEST_URL);
          url.searchParams.set('options', `-c search_path=${schema}`);
          return { ATRIUM_DATABASE_URL: url.toString(), ATRIUM_DATA_DIR: dataDir() };
        },
      }]
    : []),
];

/** The server with two workers, once both serve. */
async function startWorkers(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer({ ATRIUM_WORKERS: '2', ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_ACCESS_LOG: 'true', ...env });
  await waitFor(() => server.stdout().includes('"msg":"2 workers serving"'));
  return server;
}

/**
 * The multi-node guarantees (multi-node.test.ts) between the workers of one server: whatever a
 * request changes on one worker, the next request sees on the other. Every check is made on fresh
 * connections, which the primary hands to the workers in turn, and asserts that both answered.
 */
describe.each(databases)('two workers of one server [$name]', (database) => {
  let server: ServerProcess;
  let metricsPort: number;
  let sftpPort: number;
  const api = (method: string, route: string, options: { key?: string; session?: string; workspace?: number; body?: unknown } = {}) => {
    const headers: Record<string, string> = {};
    if (options.key !== undefined) headers['X-ServiceAPI-Key'] = options.key;
    if (options.session !== undefined) headers['X-ServiceAPI-Auth'] = options.session;
    if (options.workspace !== undefined) headers['X-Service-Workspace-Id'] = String(options.workspace);
    return callFresh(server.baseUrl, method, `/api/rest/v1${route}`, { headers, body: options.body });
  };
  const admin = (method: string, route: string, body?: unknown) => api(method, route, { key: KEY, body });
  const newUser = async () => {
    const created = await admin('POST', '/users', { username: `u-${randomBytes(4).toString('hex')}`, password: PASSWORD });
    expect(created.status).toBe(201);
    return created.body as { id: number; username: string };
  };
  const statuses = (answers: Answer[]) => answers.map((answer) => answer.status);

  beforeAll(async () => {
    server = await startWorkers({ ...(await database.env()), ATRIUM_SFTP_PORT: '0', ATRIUM_METRICS_PORT: '0' });
    metricsPort = Number(/Metrics listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(server.stdout())?.[1]);
    sftpPort = Number(/SFTP listening at sftp:\/\/127\.0\.0\.1:(\d+)/.exec(server.stdout())?.[1]);
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('refuses a session on every worker once it is ended on one', async () => {
    const user = await newUser();
    const login = await api('POST', '/sessions', { body: { username: user.username, password: PASSWORD } });
    expect(login.status).toBe(201);
    const session = login.body.id as string;
    expect(statuses(await onEveryWorker(server, () => api('GET', '/users', { session })))).toEqual(Array(6).fill(200));
    expect((await api('DELETE', '/sessions', { session })).status).toBe(200);
    for (const refused of await onEveryWorker(server, () => api('GET', '/users', { session }))) {
      expect(refused.status).toBe(401);
      expect(refused.body.type).toBe('not-authenticated/invalid-session');
    }
  });

  it('denies on every worker, on the very next request, once a member is removed or a grant deleted on one', async () => {
    const workspace = (await admin('POST', '/workspaces', { name: 'Workers' })).body as { id: number };
    const group = (await admin('POST', '/groups', { name: `g-${randomBytes(3).toString('hex')}` })).body as { id: number };
    const user = await newUser();
    const membership = (await admin('POST', '/group_users', { group_id: group.id, user_id: user.id })).body as { id: number };
    const key = (await admin('POST', '/api_keys', { name: 'member key', user_id: user.id })).body.key as string;
    const grant = await admin('POST', '/permissions', { path: `_/Workspaces/${workspace.id}`, group_id: group.id, permission: 'admin', recursive: true });
    expect(grant.status).toBe(201);
    const canCreate = () => api('POST', '/groups', { key, workspace: workspace.id, body: { name: `probe-${randomBytes(3).toString('hex')}` } });

    expect(statuses(await onEveryWorker(server, canCreate))).toEqual(Array(6).fill(201));
    expect((await admin('DELETE', `/group_users/${membership.id}`)).status).toBe(204);
    expect(statuses(await onEveryWorker(server, canCreate))).toEqual(Array(6).fill(403));

    expect((await admin('POST', '/group_users', { group_id: group.id, user_id: user.id })).status).toBe(201);
    expect(statuses(await onEveryWorker(server, canCreate))).toEqual(Array(6).fill(201));
    expect((await admin('DELETE', `/permissions/${grant.body.id}`)).status).toBeLessThan(300);
    expect(statuses(await onEveryWorker(server, canCreate))).toEqual(Array(6).fill(403));
  });

  it('refuses a key on every worker once it is revoked on one', async () => {
    const user = await newUser();
    const created = await admin('POST', '/api_keys', { name: 'to revoke', user_id: user.id });
    expect(created.status).toBe(201);
    expect(statuses(await onEveryWorker(server, () => api('GET', '/users', { key: created.body.key })))).toEqual(Array(6).fill(200));
    expect((await admin('DELETE', `/api_keys/${created.body.id}`)).status).toBeLessThan(300);
    for (const refused of await onEveryWorker(server, () => api('GET', '/users', { key: created.body.key }))) {
      expect(refused.status).toBe(401);
      expect(refused.body.type).toBe('not-authenticated/invalid-credentials');
    }
  });

  it('locks an account out after failures spread across the workers', async () => {
    const user = await newUser();
    const failures = [];
    for (let i = 0; i < 5; i += 1) failures.push(await api('POST', '/sessions', { body: { username: user.username, password: 'wrong password!' } }));
    expect(failures.map((failed) => failed.body.type)).toEqual(Array(5).fill('not-authenticated/invalid-username-or-password'));
    expect((await pidsOf(server, failures.map((failed) => failed.requestId))).size).toBe(2);
    for (const locked of await onEveryWorker(server, () => api('POST', '/sessions', { body: { username: user.username, password: PASSWORD } }))) {
      expect(locked.status).toBe(401);
      expect(locked.body.type).toBe('not-authenticated/locked-out');
    }
  });

  it('lists a folder on every worker as it is now, right after a change on one', async () => {
    const user = await newUser();
    const key = (await admin('POST', '/api_keys', { name: 'lister', user_id: user.id })).body.key as string;
    const folder = `listed-${randomBytes(3).toString('hex')}`;
    expect((await admin('POST', `/folders/${folder}/a`, { mkdir_parents: true })).status).toBe(201);
    expect((await admin('POST', '/permissions', { path: folder, user_id: user.id, permission: 'readonly' })).status).toBe(201);
    const listing = () => api('GET', `/folders/${folder}`, { key });
    for (const listed of await onEveryWorker(server, listing)) expect(listed.body.map((e: { path: string }) => e.path)).toEqual([`${folder}/a`]);
    expect((await admin('POST', `/folders/${folder}/b`)).status).toBe(201);
    for (const listed of await onEveryWorker(server, listing)) expect(listed.body.map((e: { path: string }) => e.path)).toEqual([`${folder}/a`, `${folder}/b`]);
  });

  it('takes writes through both workers at once, each one committed (on SQLite, queued on the write lock)', async () => {
    const folder = `busy-${randomBytes(3).toString('hex')}`;
    expect((await admin('POST', `/folders/${folder}`)).status).toBe(201);
    const made = await Promise.all(Array.from({ length: 24 }, (_, i) => admin('POST', `/folders/${folder}/f${i}`)));
    expect(made.map((answer) => answer.status)).toEqual(Array(24).fill(201));
    expect((await pidsOf(server, made.map((answer) => answer.requestId))).size).toBe(2);
    const listed = await admin('GET', `/folders/${folder}?per_page=100`);
    expect(listed.body).toHaveLength(24);
  });

  it('serves SFTP from the workers, each seeing a folder made over the API just before', async () => {
    const user = await newUser();
    const folder = `sftp-${randomBytes(3).toString('hex')}`;
    expect((await admin('POST', `/folders/${folder}`)).status).toBe(201);
    expect((await admin('POST', '/permissions', { path: folder, user_id: user.id, permission: 'full' })).status).toBe(201);
    for (let i = 0; i < 4; i += 1) {
      const connection = await connectSftp({ host: '127.0.0.1', port: sftpPort, username: user.username, password: PASSWORD });
      try {
        const names = await sftpCall<{ filename: string }[]>((done) => connection.sftp.readdir('/', done));
        expect(names.map((entry) => entry.filename)).toContain(folder);
      } finally {
        connection.close();
      }
    }
  });

  it('counts every worker\'s requests on the metrics port, which the primary serves', async () => {
    const count = async () => parsePrometheusText(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text())
      .filter((s) => s.name === 'atrium_http_request_duration_seconds_count' && s.labels.route === '/health')
      .reduce((sum, s) => sum + s.value, 0);
    const before = await count();
    const answers = await onEveryWorker(server, () => callFresh(server.baseUrl, 'GET', '/health'));
    expect(await count()).toBe(before + answers.length);
  });
});

describe('the workers\' life (SQLite)', () => {
  it('restarts a worker that dies, with one line, and finishes requests in flight on SIGTERM, exiting 0', async () => {
    const server = await startWorkers({ ATRIUM_DATA_DIR: dataDir() });
    try {
      const [first] = await onEveryWorker(server, () => callFresh(server.baseUrl, 'GET', '/health'));
      const victim = [...(await pidsOf(server, [(first as Answer).requestId]))][0] as number;
      process.kill(victim, 'SIGKILL');
      await waitFor(() => server.stdout().includes('starting another'));
      const restarted = server.stdout().split('\n').filter((line) => line.includes('starting another'));
      expect(restarted).toHaveLength(1);
      expect(restarted[0]).toContain(`(pid ${victim}) was killed by SIGKILL; starting another`);
      // Both workers serve again, the new one instead of the dead one.
      await waitFor(() => (server.stdout().match(/Server listening at/g) ?? []).length === 3);
      const pids = await pidsOf(server, (await onEveryWorker(server, () => callFresh(server.baseUrl, 'GET', '/health'))).map((a) => a.requestId));
      expect(pids.has(victim)).toBe(false);

      // A request whose body is still arriving when the signal comes is still answered.
      const request = http.request(`${server.baseUrl}/api/rest/v1/no-such-route`, {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': '2', 'X-ServiceAPI-Key': KEY },
      });
      const answered = new Promise<number>((resolve, reject) => {
        request.on('response', (response) => { response.resume(); resolve(response.statusCode ?? 0); });
        request.on('error', reject);
      });
      request.write('{');
      await new Promise((resolve) => setTimeout(resolve, 200));
      // As systemd stops a service: SIGTERM to every process of it at once, the primary passing it on too.
      const stopped = server.stop('SIGTERM');
      for (const pid of pids) process.kill(pid, 'SIGTERM');
      await waitFor(() => (server.stdout().match(/SIGTERM received, shutting down/g) ?? []).length === 3);
      request.end('}');
      expect(await answered).toBe(404);
      expect(await stopped).toBe(0);
    } finally {
      await server.stop('SIGKILL');
    }
  });

  it('serves HTTPS from both workers, and the public /metrics counts both', async () => {
    const authority = makeTestCertificateAuthority(path.join(dataDir(), 'ca'));
    const certificate = authority.issue('server');
    const server = await startHttpsServer({
      ATRIUM_WORKERS: '2', ATRIUM_DATA_DIR: dataDir(), ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_ACCESS_LOG: 'true',
      ATRIUM_TLS_CERT_FILE: certificate.chainFile, ATRIUM_TLS_KEY_FILE: certificate.keyFile, ATRIUM_METRICS_TOKEN: METRICS_TOKEN,
    }, authority.ca);
    try {
      await waitFor(() => server.stdout().includes('"msg":"2 workers serving"'));
      const health = () => httpsRequest(`${server.baseUrl}/health`, { ca: authority.ca });
      const answers = [];
      for (let i = 0; i < 6; i += 1) answers.push(await health());
      expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
      expect((await pidsOf(server, answers.map((answer) => String(answer.headers['x-request-id'])))).size).toBe(2);
      // Whichever worker a scrape reaches, it answers for both.
      for (let i = 0; i < 2; i += 1) {
        const scrape = await httpsRequest(`${server.baseUrl}/metrics`, { ca: authority.ca, headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
        expect(scrape.status).toBe(200);
        const served = parsePrometheusText(scrape.body)
          .filter((s) => s.name === 'atrium_http_request_duration_seconds_count' && s.labels.route === '/health')
          .reduce((sum, s) => sum + s.value, 0);
        expect(served).toBeGreaterThanOrEqual(6);
      }
    } finally {
      await server.stop('SIGKILL');
    }
  });
});
