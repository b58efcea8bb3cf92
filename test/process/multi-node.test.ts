import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminQuery, adminRows, POSTGRES_TEST_URL } from '../support/postgres-server.js';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { temporaryFolders } from '../support/temp-dirs.js';

const KEY = 'multi-node-bootstrap-key-0123456789abcdef';
const PASSWORD = 'a long enough password';
const serverMode = inject('postgresMode') === 'server';
if (!serverMode) process.stderr.write('\nSKIPPED: the multi-node tests need a PostgreSQL server (none reachable).\n\n');

/**
 * Three Atrium processes on one PostgreSQL, as behind a load balancer. Every check alternates
 * nodes between requests: whatever one node changes, the next request on another node sees.
 */
describe.skipIf(!serverMode)('several nodes on one PostgreSQL [postgres]', () => {
  // The nodes' shared file storage (their runs import files into it), removed after the last test.
  const temporaryFolder = temporaryFolders();
  const schema = `atrium_nodes_${randomBytes(4).toString('hex')}`;
  const url = `${POSTGRES_TEST_URL}${POSTGRES_TEST_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
  let nodes: ServerProcess[] = [];
  let turn = 0;
  /** The next node, round robin. */
  const next = () => nodes[turn++ % nodes.length] as ServerProcess;

  const call = async (node: ServerProcess, method: string, path: string, options: { key?: string; session?: string; workspace?: number; body?: unknown } = {}) => {
    const headers: Record<string, string> = {};
    if (options.key !== undefined) headers['X-ServiceAPI-Key'] = options.key;
    if (options.session !== undefined) headers['X-ServiceAPI-Auth'] = options.session;
    if (options.workspace !== undefined) headers['X-Service-Workspace-Id'] = String(options.workspace);
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${node.baseUrl}/api/rest/v1${path}`, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  const admin = (method: string, path: string, body?: unknown) => call(next(), method, path, { key: KEY, ...(body === undefined ? {} : { body }) });
  const newUser = async (fields: Record<string, unknown> = {}) => {
    const created = await admin('POST', '/users', { username: `u-${randomBytes(4).toString('hex')}`, password: PASSWORD, ...fields });
    expect(created.status).toBe(201);
    return created.body as { id: number; username: string };
  };
  const login = async (username: string) => {
    const response = await call(next(), 'POST', '/sessions', { body: { username, password: PASSWORD } });
    expect(response.status).toBe(201);
    return response.body.id as string;
  };

  beforeAll(async () => {
    await adminQuery(`create schema ${schema}`);
    // A short job lease, so that a killed node's automation run passes to another in seconds.
    const env = { ATRIUM_DATABASE_URL: url, ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_DATA_DIR: temporaryFolder('atrium-nodes-'), ATRIUM_ACCESS_LOG: 'false', ATRIUM_JOB_LEASE: '3s' };
    nodes = await Promise.all([startServer(env), startServer(env), startServer(env)]);
  });
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop('SIGKILL')));
    await adminQuery(`drop schema if exists ${schema} cascade`);
  });

  it('accepts a session created on one node on every other node, and refuses it everywhere once ended on one', async () => {
    const user = await newUser();
    const session = await login(user.username);
    for (let i = 0; i < nodes.length; i += 1) expect((await call(next(), 'GET', '/users', { session })).status).toBe(200);
    expect((await call(next(), 'DELETE', '/sessions', { session })).status).toBe(200);
    for (let i = 0; i < nodes.length; i += 1) {
      const refused = await call(next(), 'GET', '/users', { session });
      expect(refused.status).toBe(401);
      expect(refused.body.type).toBe('not-authenticated/invalid-session');
    }
  });

  it('denies on every node, on the very next request, once a grant is deleted or a member removed on one', async () => {
    const workspace = (await admin('POST', '/workspaces', { name: 'Scale' })).body as { id: number };
    const group = (await admin('POST', '/groups', { name: `g-${randomBytes(3).toString('hex')}` })).body as { id: number };
    const user = await newUser();
    const membership = (await admin('POST', '/group_users', { group_id: group.id, user_id: user.id })).body as { id: number };
    const key = (await call(next(), 'POST', '/api_keys', { key: KEY, body: { name: 'member key', user_id: user.id } })).body.key as string;
    const grant = await admin('POST', '/permissions', { path: `_/Workspaces/${workspace.id}`, group_id: group.id, permission: 'admin', recursive: true });
    expect(grant.status).toBe(201);

    // Workspace Administrator through the group: sees the Workspace's users (none yet, but may create).
    const canCreate = async (node: ServerProcess) =>
      (await call(node, 'POST', '/groups', { key, workspace: workspace.id, body: { name: `probe-${randomBytes(3).toString('hex')}` } })).status;
    for (let i = 0; i < nodes.length; i += 1) expect(await canCreate(next())).toBe(201);

    expect((await admin('DELETE', `/group_users/${membership.id}`)).status).toBe(204);
    for (let i = 0; i < nodes.length; i += 1) expect(await canCreate(next())).toBe(403);

    await admin('POST', '/group_users', { group_id: group.id, user_id: user.id });
    for (let i = 0; i < nodes.length; i += 1) expect(await canCreate(next())).toBe(201);

    const deleted = await admin('DELETE', `/permissions/${grant.body.id}`);
    expect(deleted.status).toBeLessThan(300);
    for (let i = 0; i < nodes.length; i += 1) expect(await canCreate(next())).toBe(403);
  });

  it('ends and restores access on every node, on the very next request, when SCIM removes or adds a member on one', async () => {
    const workspace = (await admin('POST', '/workspaces', { name: 'Provisioned' })).body as { id: number };
    const group = (await admin('POST', '/groups', { name: `scim-${randomBytes(3).toString('hex')}` })).body as { id: number };
    const user = await newUser();
    const key = (await call(next(), 'POST', '/api_keys', { key: KEY, body: { name: 'member key', user_id: user.id } })).body.key as string;
    expect((await admin('POST', '/permissions', { path: `_/Workspaces/${workspace.id}`, group_id: group.id, permission: 'admin', recursive: true })).status).toBe(201);
    const scimPatch = async (operation: Record<string, unknown>) => {
      const response = await fetch(`${next().baseUrl}/scim/v2/Groups/${group.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/scim+json' },
        body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [operation] }),
      });
      expect(response.status).toBeLessThan(300);
    };
    const canCreate = async (node: ServerProcess) =>
      (await call(node, 'POST', '/groups', { key, workspace: workspace.id, body: { name: `probe-${randomBytes(3).toString('hex')}` } })).status;

    await scimPatch({ op: 'add', path: 'members', value: [{ value: String(user.id) }] });
    for (let i = 0; i < nodes.length; i += 1) expect(await canCreate(next())).toBe(201);
    await scimPatch({ op: 'remove', path: `members[value eq "${user.id}"]` });
    for (let i = 0; i < nodes.length; i += 1) expect(await canCreate(next())).toBe(403);
  });

  it('locks an account out after failures spread across the nodes', async () => {
    const user = await newUser();
    for (let i = 0; i < 5; i += 1) {
      const failed = await call(next(), 'POST', '/sessions', { body: { username: user.username, password: 'wrong password!' } });
      expect(failed.body.type).toBe('not-authenticated/invalid-username-or-password');
    }
    for (let i = 0; i < nodes.length; i += 1) {
      const locked = await call(next(), 'POST', '/sessions', { body: { username: user.username, password: PASSWORD } });
      expect(locked.status).toBe(401);
      expect(locked.body.type).toBe('not-authenticated/locked-out');
    }
  });

  it('refuses a key on every node once it is revoked on one', async () => {
    const user = await newUser();
    const created = await call(next(), 'POST', '/api_keys', { key: KEY, body: { name: 'to revoke', user_id: user.id } });
    expect(created.status).toBe(201);
    for (let i = 0; i < nodes.length; i += 1) expect((await call(next(), 'GET', '/users', { key: created.body.key })).status).toBe(200);
    expect((await admin('DELETE', `/api_keys/${created.body.id}`)).status).toBeLessThan(300);
    for (let i = 0; i < nodes.length; i += 1) {
      const refused = await call(next(), 'GET', '/users', { key: created.body.key });
      expect(refused.status).toBe(401);
      expect(refused.body.type).toBe('not-authenticated/invalid-credentials');
    }
  });

  it('lists a folder on every node as it is now, right after a change on one: entries, letters and visibility', async () => {
    const user = await newUser();
    const key = (await call(next(), 'POST', '/api_keys', { key: KEY, body: { name: 'lister', user_id: user.id } })).body.key as string;
    const folder = `listed-${randomBytes(3).toString('hex')}`;
    expect((await admin('POST', `/folders/${folder}/a`, { mkdir_parents: true })).status).toBe(201);
    const grant = await admin('POST', '/permissions', { path: folder, user_id: user.id, permission: 'readonly' });
    expect(grant.status).toBe(201);
    const listing = (node: ServerProcess) => call(node, 'GET', `/folders/${folder}`, { key });
    // Every node has answered (and may keep) the listing before each change.
    for (let i = 0; i < nodes.length; i += 1) expect((await listing(next())).body).toMatchObject([{ path: `${folder}/a`, permissions: 'lr' }]);

    expect((await admin('POST', `/folders/${folder}/b`)).status).toBe(201);
    for (let i = 0; i < nodes.length; i += 1) expect((await listing(next())).body.map((e: { path: string }) => e.path)).toEqual([`${folder}/a`, `${folder}/b`]);

    expect((await admin('POST', '/permissions', { path: folder, user_id: user.id, permission: 'full' })).status).toBe(201);
    for (let i = 0; i < nodes.length; i += 1) expect((await listing(next())).body[0].permissions).toBe('lrwd');

    const grants = (await admin('GET', `/permissions?user_id=${user.id}`)).body as { id: number }[];
    for (const { id } of grants) expect((await admin('DELETE', `/permissions/${id}`)).status).toBeLessThan(300);
    for (let i = 0; i < nodes.length; i += 1) {
      const refused = await listing(next());
      expect(refused.status).toBe(404);
      expect(refused.body.type).toBe('not-found/file-not-found');
    }
  });

  describe('automation runs', () => {
    /** A loopback server an import_file automation fetches from: each request answered by `answer`, counted. */
    let requests = 0;
    let answer: (response: http.ServerResponse) => void = (response) => response.end('fetched');
    const source = http.createServer((_request, response) => {
      requests += 1;
      answer(response);
    });
    let sourceUrl = '';
    beforeAll(async () => {
      await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
      sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/report.csv`;
      expect((await admin('PATCH', '/site', { automation_import_private_addresses: true })).status).toBe(200);
    });
    afterAll(async () => {
      source.closeAllConnections();
      await new Promise((resolve) => source.close(resolve));
    });
    const newImport = async () => {
      const folder = `imports-${randomBytes(3).toString('hex')}`;
      const made = await admin('POST', '/automations', {
        automation: 'import_file', destinations: [`${folder}/`], overwrite_files: true, import_urls: [{ url: sourceUrl, method: 'get' }],
      });
      expect(made.status).toBe(201);
      return { id: made.body.id as number, folder };
    };
    const runsOf = async (id: number) => (await admin('GET', `/automation_runs?automation_id=${id}`)).body as { id: number; status: string }[];
    /** Waits (the nodes poll every 5 s) until `done` holds; the test's own timeout bounds it. */
    const until = async (done: () => Promise<boolean>) => {
      while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 200));
    };
    const jobsOf = (runIds: number[]) => adminRows(`select payload, status, attempts, locked_by from ${schema}.jobs where kind = 'automation_run'`)
      .then((rows) => rows.filter((row) => runIds.includes((JSON.parse(row.payload as string) as { runId: number }).runId)));

    it('takes each queued run on exactly one of the nodes', async () => {
      requests = 0;
      answer = (response) => response.end('fetched');
      const { id } = await newImport();
      for (let i = 0; i < 12; i += 1) expect((await admin('POST', `/automations/${id}/manual_run`)).status).toBe(204);
      await until(async () => (await runsOf(id)).every((run) => run.status === 'success'));
      const runs = await runsOf(id);
      expect(runs).toHaveLength(12);
      // Each run fetched once: no node ran one that another had taken.
      expect(requests).toBe(12);
      const jobs = await jobsOf(runs.map((run) => run.id));
      expect(jobs.map((job) => [job.status, job.attempts])).toEqual(Array.from({ length: 12 }, () => ['done', 1]));
    }, 90_000);

    it('finishes on another node a run cut by killing the node that ran it', async () => {
      requests = 0;
      const stalled: http.ServerResponse[] = [];
      // The first fetch hangs until its node is killed; the next one is answered.
      answer = (response) => {
        if (requests === 1) stalled.push(response);
        else response.end('fetched after the crash');
      };
      const { id, folder } = await newImport();
      expect((await admin('POST', `/automations/${id}/manual_run`)).status).toBe(204);
      await until(async () => stalled.length === 1);
      const [run] = await runsOf(id);
      expect(run?.status).toBe('running');
      const [job] = await jobsOf([run!.id]);
      const holder = nodes.find((node) => String(job?.locked_by).includes(`:${node.child.pid}:`));
      expect(holder).toBeDefined();
      await holder!.stop('SIGKILL');
      nodes = nodes.filter((node) => node !== holder);
      await until(async () => (await runsOf(id))[0]?.status === 'success');
      expect(requests).toBe(2);
      const [after] = await jobsOf([run!.id]);
      expect(after).toMatchObject({ status: 'done', attempts: 2 });
      expect(after?.locked_by).not.toBe(job?.locked_by);
      const listed = await admin('GET', `/folders/${folder}`);
      expect(listed.body.map((entry: { path: string }) => entry.path)).toEqual([`${folder}/report.csv`]);
    }, 90_000);
  });
});
