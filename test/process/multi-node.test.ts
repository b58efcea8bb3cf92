import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminQuery, POSTGRES_TEST_URL } from '../support/postgres-server.js';
import { startServer, type ServerProcess } from '../support/server-process.js';

const KEY = 'multi-node-bootstrap-key-0123456789abcdef';
const PASSWORD = 'a long enough password';
const serverMode = inject('postgresMode') === 'server';
if (!serverMode) process.stderr.write('\nSKIPPED: the multi-node tests need a PostgreSQL server (none reachable).\n\n');

/**
 * Three Atrium processes on one PostgreSQL, as behind a load balancer. Every check alternates
 * nodes between requests: whatever one node changes, the next request on another node sees.
 */
describe.skipIf(!serverMode)('several nodes on one PostgreSQL [postgres]', () => {
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
    const env = { ATRIUM_DATABASE_URL: url, ATRIUM_BOOTSTRAP_API_KEY: KEY, ATRIUM_DATA_DIR: '/tmp/atrium-unused', ATRIUM_ACCESS_LOG: 'false' };
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
});
