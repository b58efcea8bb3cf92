import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { connectSftp } from '../sftp/sftp-fixture.js';
import { adminQuery, POSTGRES_TEST_URL } from '../support/postgres-server.js';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { parsePrometheusText, sampleValue, type Sample } from './prometheus-text.js';
import { temporaryFolders } from '../support/temp-dirs.js';

/** Removed after the file's last test. */
const temporaryFolder = temporaryFolders();

const KEY = 'metrics-test-bootstrap-key-0123456789abcdef';
const TOKEN = randomBytes(24).toString('hex');
const ADMIN = { username: 'metrics-admin', password: 'metrics admin password 1' };
const API = '/api/rest/v1';
const METRICS_TOKEN_REQUIRED = 'Metrics are read with the metrics token (ATRIUM_METRICS_TOKEN), sent as Authorization: Bearer <token>.';
const serverMode = inject('postgresMode') === 'server';

/** Where each server's data lives: SQLite in a fresh data directory, or a fresh PostgreSQL schema. */
const databases: { name: string; env: () => Promise<Record<string, string>> }[] = [
  { name: 'sqlite', env: async () => ({ ATRIUM_DATA_DIR: temporaryFolder('atrium-metrics-') }) },
  ...(serverMode
    ? [{
        name: 'postgres',
        env: async () => {
          const schema = `atrium_metrics_${randomBytes(4).toString('hex')}`;
          schemas.push(schema);
          await adminQuery(`create schema ${schema}`);
          const url = new URL(POSTGRES_TEST_URL);
          url.searchParams.set('options', `-c search_path=${schema}`);
          return { ATRIUM_DATABASE_URL: url.toString(), ATRIUM_DATA_DIR: temporaryFolder('atrium-metrics-') };
        },
      }]
    : []),
];
const schemas: string[] = [];

describe.each(databases)('metrics [$name]', (database) => {
  const running: ServerProcess[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop('SIGKILL')));
  });
  afterAll(async () => {
    for (const schema of schemas.splice(0)) await adminQuery(`drop schema if exists ${schema} cascade`);
  });

  const start = async (extra: Record<string, string>) => {
    const server = await startServer({
      ...(await database.env()),
      ATRIUM_BOOTSTRAP_API_KEY: KEY,
      ATRIUM_ADMIN_USERNAME: ADMIN.username,
      ATRIUM_ADMIN_PASSWORD: ADMIN.password,
      ...extra,
    });
    running.push(server);
    return server;
  };
  const scrape = async (url: string, token: string | undefined = TOKEN): Promise<Sample[]> => {
    const response = await fetch(url, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(await response.text());
  };
  /** A request's status, once its answer is read to the end: the server counts a request when it has sent the answer. */
  const answered = async (url: string, init?: RequestInit): Promise<number> => {
    const response = await fetch(url, init);
    await response.arrayBuffer();
    return response.status;
  };
  /** Scrapes until `done` holds: for what the server counts after an event only it sees (a connection's close). */
  const scrapeUntil = async (url: string, done: (samples: Sample[]) => boolean): Promise<Sample[]> => {
    for (;;) {
      const samples = await scrape(url);
      if (done(samples)) return samples;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const signIn = (server: ServerProcess, password: string) =>
    fetch(`${server.baseUrl}${API}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: ADMIN.username, password }) });

  it('is off unless asked for: no /metrics on the public port', async () => {
    const server = await start({});
    const response = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(404);
    expect(server.output()).not.toMatch(/Metrics listening/);
  });

  it('with a token, refuses a missing or wrong one and counts requests, sign-ins, lockouts, sessions and bytes', async () => {
    const server = await start({ ATRIUM_METRICS_TOKEN: TOKEN });
    const metricsUrl = `${server.baseUrl}/metrics`;

    for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      const refused = await fetch(metricsUrl, { headers: authorization === undefined ? {} : { authorization } });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer');
      // The answer names what /metrics asks for, not the API's credentials.
      expect(await refused.json()).toMatchObject({ type: 'not-authenticated/authentication-required', 'http-code': 401, error: METRICS_TOKEN_REQUIRED });
    }

    const before = await scrape(metricsUrl);
    expect(sampleValue(before, 'atrium_logins_total', { outcome: 'succeeded' })).toBe(0);
    expect(sampleValue(before, 'atrium_sessions_active')).toBe(0);
    expect(before.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(before.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
    expect(sampleValue(before, 'atrium_database_up')).toBe(1);
    expect(sampleValue(before, 'atrium_database_ping_seconds')).toBeGreaterThan(0);
    // The background jobs by status, the queue's depth among them: on a new site, only the trash
    // purge of this hour, queued at start (docs/background-jobs.md), done or on its way.
    const jobs = new Map(before.filter((s) => s.name === 'atrium_jobs').map((s) => [s.labels.status, s.value]));
    expect([...jobs.keys()].sort()).toEqual(['canceled', 'done', 'failed', 'queued', 'running']);
    expect([jobs.get('canceled'), jobs.get('failed'), (jobs.get('done') ?? 0) + (jobs.get('queued') ?? 0) + (jobs.get('running') ?? 0)]).toEqual([0, 0, 1]);
    // The automation runs by status, likewise none yet.
    const runs = before.filter((s) => s.name === 'atrium_automation_runs');
    expect(runs.map((s) => [s.labels.status, s.value]).sort()).toEqual([
      ['canceled', 0], ['failure', 0], ['partial_failure', 0], ['queued', 0], ['running', 0], ['skipped', 0], ['success', 0],
    ]);

    // Requests are labelled by route pattern: the raw path (a file name) never reaches the metrics.
    const content = 'forty-two bytes of a file, give or take.!!';
    const put = await fetch(`${server.baseUrl}${API}/files/secret-name-${'x'.repeat(8)}.txt`, { method: 'PUT', headers: { 'X-ServiceAPI-Key': KEY }, body: content });
    expect(put.status).toBe(201);
    const meta = await fetch(`${server.baseUrl}${API}/files/secret-name-${'x'.repeat(8)}.txt`, { headers: { 'X-ServiceAPI-Key': KEY } });
    expect(meta.status).toBe(200);
    const download = await fetch(((await meta.json()) as { download_uri: string }).download_uri);
    expect(await download.text()).toBe(content);
    expect((await fetch(`${server.baseUrl}/api/rest/v1/no/such/route`)).status).toBe(404);

    expect((await signIn(server, ADMIN.password)).status).toBe(201);
    expect((await signIn(server, 'not the password')).status).toBe(401);

    const after = await scrape(metricsUrl);
    const requests = after.filter((s) => s.name === 'atrium_http_request_duration_seconds_count');
    expect(requests.some((s) => s.labels.route?.includes('secret-name'))).toBe(false);
    expect(requests.map((s) => s.labels)).toEqual(expect.arrayContaining([
      { method: 'PUT', route: `${API}/files/*`, status: '201' },
      { method: 'GET', route: `${API}/files/*`, status: '200' },
      { method: 'GET', route: 'unmatched', status: '404' },
      { method: 'POST', route: `${API}/sessions`, status: '201' },
      { method: 'POST', route: `${API}/sessions`, status: '401' },
      { method: 'GET', route: '/metrics', status: '401' },
    ]));
    expect(sampleValue(after, 'atrium_http_request_duration_seconds_count', { method: 'GET', route: '/metrics', status: '401' })).toBe(5);
    expect(sampleValue(after, 'atrium_http_request_duration_seconds_bucket', { method: 'POST', route: `${API}/sessions`, status: '201', le: '+Inf' })).toBe(1);
    expect(sampleValue(after, 'atrium_logins_total', { outcome: 'succeeded' })).toBe(1);
    expect(sampleValue(after, 'atrium_logins_total', { outcome: 'failed' })).toBe(1);
    expect(sampleValue(after, 'atrium_sessions_active')).toBe(1);
    expect(sampleValue(after, 'atrium_uploaded_bytes_total')).toBe(content.length);
    expect(sampleValue(after, 'atrium_downloaded_bytes_total')).toBe(content.length);
    expect(sampleValue(after, 'atrium_lockouts_total')).toBe(0);
    // What the site stores, by kind: the file; once overwritten and deleted, its two contents are
    // the trash's and the versions' (docs/files.md#trash-and-versions).
    expect(['files', 'trash', 'versions'].map((kind) => sampleValue(after, 'atrium_stored_bytes', { kind }))).toEqual([content.length, 0, 0]);
    const fileUrl = `${server.baseUrl}${API}/files/secret-name-${'x'.repeat(8)}.txt`;
    expect((await fetch(fileUrl, { method: 'PUT', headers: { 'X-ServiceAPI-Key': KEY }, body: 'newer' })).status).toBe(201);
    expect((await fetch(fileUrl, { method: 'DELETE', headers: { 'X-ServiceAPI-Key': KEY } })).status).toBe(204);
    const kept = await scrape(metricsUrl);
    expect(['files', 'trash', 'versions'].map((kind) => sampleValue(kept, 'atrium_stored_bytes', { kind }))).toEqual([0, 'newer'.length, content.length]);
    expect(['files', 'trash', 'versions'].map((kind) => sampleValue(kept, 'atrium_stored_files', { kind }))).toEqual([0, 1, 1]);
    // Every statement is timed: the upload, the sign-ins and the scrape's own count ran some.
    const statements = (samples: readonly Sample[]) => sampleValue(samples, 'atrium_database_query_duration_seconds_count', { outcome: 'ok' });
    expect(statements(after)).toBeGreaterThan(statements(before));
    const pool = after.filter((s) => s.name === 'atrium_database_pool_connections');
    if (database.name === 'postgres') {
      expect(pool.map((s) => s.labels.state).sort()).toEqual(['idle', 'in_use', 'waiting']);
      expect(pool.every((s) => s.value >= 0)).toBe(true);
      expect(sampleValue(after, 'atrium_database_pool_connections', { state: 'idle' }) + sampleValue(after, 'atrium_database_pool_connections', { state: 'in_use' })).toBeGreaterThan(0);
    } else {
      // One SQLite connection: no pool to report.
      expect(pool).toEqual([]);
    }

    // The site's default locks a username after 5 failures within the window: one more than counted so far.
    for (let attempt = 0; attempt < 4; attempt += 1) expect((await signIn(server, 'still not the password')).status).toBe(401);
    const lockedOut = await signIn(server, ADMIN.password);
    expect(await lockedOut.json()).toMatchObject({ type: 'not-authenticated/locked-out' });
    const locked = await scrape(metricsUrl);
    expect(sampleValue(locked, 'atrium_lockouts_total')).toBe(1);
    expect(sampleValue(locked, 'atrium_logins_total', { outcome: 'failed' })).toBe(5);
  });

  it('counts SFTP sessions and WebDAV requests, and the console\'s assets under one route', async () => {
    const server = await start({ ATRIUM_METRICS_TOKEN: TOKEN, ATRIUM_SFTP_PORT: '0' });
    const metricsUrl = `${server.baseUrl}/metrics`;
    const sftpPort = Number(/SFTP listening at sftp:\/\/127\.0\.0\.1:(\d+)/.exec(server.output())?.[1]);
    const before = await scrape(metricsUrl);
    expect(sampleValue(before, 'atrium_sftp_sessions_open')).toBe(0);
    expect(sampleValue(before, 'atrium_sftp_sessions_total', { outcome: 'started' })).toBe(0);
    expect(sampleValue(before, 'atrium_sftp_sessions_total', { outcome: 'refused' })).toBe(0);

    // SFTP: one session signed in and open, one connection refused for a wrong password.
    const session = await connectSftp({ host: '127.0.0.1', port: sftpPort, username: ADMIN.username, password: ADMIN.password });
    const open = await scrape(metricsUrl);
    expect(sampleValue(open, 'atrium_sftp_sessions_open')).toBe(1);
    expect(sampleValue(open, 'atrium_sftp_sessions_total', { outcome: 'started' })).toBe(1);
    const wrong = await connectSftp({ host: '127.0.0.1', port: sftpPort, username: ADMIN.username, password: 'not the password' }).then(() => 'signed in', (error: Error) => error.message);
    expect(wrong).toMatch(/authentication methods failed/);
    session.close();
    // The server hears of both closes after the clients do: read until it has.
    const closed = await scrapeUntil(metricsUrl, (samples) => sampleValue(samples, 'atrium_sftp_sessions_open') === 0 && sampleValue(samples, 'atrium_sftp_sessions_total', { outcome: 'refused' }) === 1);
    expect(sampleValue(closed, 'atrium_sftp_sessions_total', { outcome: 'started' })).toBe(1);

    // WebDAV: by method and status class, with the REST requests' buckets.
    const basic = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;
    const dav = (method: string, url: string, headers: Record<string, string> = {}, body?: string) => answered(`${server.baseUrl}/dav${url}`, { method, headers, body });
    expect(await dav('PUT', '/report.txt', { authorization: basic }, 'dav bytes')).toBe(201);
    expect(await dav('PROPFIND', '/', { authorization: basic, depth: '1' })).toBe(207);
    expect(await dav('PROPFIND', '/', { authorization: basic, depth: '0' })).toBe(207);
    expect(await dav('GET', '/missing.txt', { authorization: basic })).toBe(404);
    expect(await dav('PROPFIND', '/', { depth: '0' })).toBe(401);

    // The console: its page names the built assets, whose names change with each build.
    const page = await (await fetch(`${server.baseUrl}/`)).text();
    const assets = [...new Set([...page.matchAll(/"(\/assets\/[^"]+)"/g)].map((match) => match[1] as string))];
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect(await answered(`${server.baseUrl}${asset}`)).toBe(200);

    const after = await scrape(metricsUrl);
    const webdav = (method: string, statusClass: string) => sampleValue(after, 'atrium_webdav_request_duration_seconds_count', { method, status_class: statusClass });
    expect({ put: webdav('PUT', '2xx'), propfind: webdav('PROPFIND', '2xx'), get: webdav('GET', '4xx'), refused: webdav('PROPFIND', '4xx') }).toEqual({ put: 1, propfind: 2, get: 1, refused: 1 });
    expect(sampleValue(after, 'atrium_webdav_request_duration_seconds_bucket', { method: 'PROPFIND', status_class: '2xx', le: '10' })).toBe(2);
    const routes = new Set(after.filter((s) => s.name === 'atrium_http_request_duration_seconds_count').map((s) => s.labels.route));
    expect([...routes].filter((route) => route?.startsWith('/assets/'))).toEqual(['/assets/*']);
    expect(sampleValue(after, 'atrium_http_request_duration_seconds_count', { method: 'GET', route: '/assets/*', status: '200' })).toBe(assets.length);
  });

  it('with a metrics port, serves them on 127.0.0.1 only and never on the public port', async () => {
    const server = await start({ ATRIUM_METRICS_PORT: '0' });
    const port = Number(/Metrics listening at http:\/\/127\.0\.0\.1:(\d+)\/metrics/.exec(server.output())?.[1]);
    expect(port).toBeGreaterThan(0);
    expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
    const samples = await scrape(`http://127.0.0.1:${port}/metrics`, undefined);
    expect(sampleValue(samples, 'atrium_http_request_duration_seconds_count', { method: 'GET', route: '/health', status: '200' })).toBeGreaterThanOrEqual(2);
    const external = Object.values(os.networkInterfaces()).flat().find((address) => address?.family === 'IPv4' && !address.internal);
    if (external !== undefined) {
      const refused = await fetch(`http://${external.address}:${port}/metrics`).then(() => 'answered', () => 'refused');
      expect(refused).toBe('refused');
    }
  });

  it('with both a port and a token, asks the token on the metrics port too', async () => {
    const server = await start({ ATRIUM_METRICS_PORT: '0', ATRIUM_METRICS_TOKEN: TOKEN });
    const port = Number(/Metrics listening at http:\/\/127\.0\.0\.1:(\d+)\/metrics/.exec(server.output())?.[1]);
    const refused = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(refused.status).toBe(401);
    expect(await refused.text()).toBe(`${METRICS_TOKEN_REQUIRED}\n`);
    expect((await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    await scrape(`http://127.0.0.1:${port}/metrics`);
  });
});
