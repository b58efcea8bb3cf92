import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

describe.each(testDatabaseTargets())('Workspaces [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  const create = async (name: string) => {
    const response = await t.api.post('/workspaces', { name }, { key: BOOTSTRAP_KEY });
    expect(response.status).toBe(201);
    return response.body as { id: number; name: string; created_at: string };
  };

  it('creates a Custom Workspace with its root folder _/Workspaces/<id>', async () => {
    const workspace = await create('Engineering');
    expect(workspace).toEqual({ id: expect.any(Number), name: 'Engineering', created_at: expect.stringMatching(/Z$/) });
    expect(workspace.id).toBeGreaterThanOrEqual(1);
    const root = await t.database.db.selectFrom('entries').selectAll().where('path_key', '=', `_/workspaces/${workspace.id}`).executeTakeFirst();
    expect(root).toMatchObject({ path: `_/Workspaces/${workspace.id}`, type: 'directory' });
    const shown = await t.api.get(`/workspaces/${workspace.id}`, { key: BOOTSTRAP_KEY });
    expect(shown.body).toEqual(workspace);
  });

  it('lets only a Site Administrator create, rename and delete Workspaces', async () => {
    const workspace = await create('Sales');
    const regular = await createUser(t.database.db);
    const key = await createApiKey(t.database.db, { userId: regular.id });
    const created = await t.api.post('/workspaces', { name: 'Mine' }, { key });
    expect(created.status).toBe(403);
    expect(created.body.type).toBe('not-authorized/site-admin-required');
    // A Workspace the caller cannot see is not found, not forbidden.
    const renamed = await t.api.patch(`/workspaces/${workspace.id}`, { name: 'Nope' }, { key });
    expect(renamed.status).toBe(404);
    expect(renamed.body.type).toBe('not-found/workspace-not-found');
    const deleted = await t.api.delete(`/workspaces/${workspace.id}`, { key });
    expect(deleted.body.type).toBe('not-found/workspace-not-found');
    const own = await t.api.patch('/workspaces/0', { name: 'Mine' }, { key });
    expect(own.status).toBe(403);
    expect(own.body.type).toBe('not-authorized/site-admin-required');
  });

  it('renames with PUT and PATCH alike', async () => {
    const workspace = await create('Legal');
    const patched = await t.api.patch(`/workspaces/${workspace.id}`, { name: 'Legal EU' }, { key: BOOTSTRAP_KEY });
    expect(patched.body.name).toBe('Legal EU');
    const put = await t.api.put(`/workspaces/${workspace.id}.json`, { name: 'Legal US', id: 999 }, { key: BOOTSTRAP_KEY });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: workspace.id, name: 'Legal US' });
  });

  it('deletes an empty Workspace and its root folder, and refuses a non-empty one or Workspace 0', async () => {
    const empty = await create('Temporary');
    const deleted = await t.api.delete(`/workspaces/${empty.id}`, { key: BOOTSTRAP_KEY });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(deleted.headers.get('content-type')).toBeNull();
    expect((await t.api.get(`/workspaces/${empty.id}`, { key: BOOTSTRAP_KEY })).body.type).toBe('not-found/workspace-not-found');
    const root = await t.database.db.selectFrom('entries').select('id').where('path_key', '=', `_/workspaces/${empty.id}`).executeTakeFirst();
    expect(root).toBeUndefined();

    const busy = await create('Busy');
    await createUser(t.database.db, { workspaceId: busy.id });
    const refused = await t.api.delete(`/workspaces/${busy.id}`, { key: BOOTSTRAP_KEY });
    expect(refused.status).toBe(422);
    expect(refused.body.type).toBe('processing-failure/model-save-error');
    expect((await t.api.get(`/workspaces/${busy.id}`, { key: BOOTSTRAP_KEY })).status).toBe(200);

    const zero = await t.api.delete('/workspaces/0', { key: BOOTSTRAP_KEY });
    expect(zero.body.type).toBe('processing-failure/model-save-error');
  });

  it('refuses a blank name and ignores unknown fields', async () => {
    const blank = await t.api.post('/workspaces', { name: '   ' }, { key: BOOTSTRAP_KEY });
    expect(blank.status).toBe(422);
    expect(blank.body.model_errors).toEqual({ name: ["can't be blank"] });
    const missing = await t.api.post('/workspaces', {}, { key: BOOTSTRAP_KEY });
    expect(missing.body.type).toBe('bad-request/request-params-required');
    const extra = await t.api.post('/workspaces', { name: 'Extra', id: 0, created_at: 'x' }, { key: BOOTSTRAP_KEY });
    expect(extra.status).toBe(201);
    expect(extra.body.id).not.toBe(0);
  });

  it('shows a Workspace to its members and nobody else', async () => {
    const workspace = await create('Members');
    const member = await createUser(t.database.db, { workspaceId: workspace.id });
    const memberKey = await createApiKey(t.database.db, { userId: member.id, workspaceId: workspace.id });
    expect((await t.api.get(`/workspaces/${workspace.id}`, { key: memberKey })).status).toBe(200);
    const outsider = await createUser(t.database.db);
    const outsiderKey = await createApiKey(t.database.db, { userId: outsider.id });
    expect((await t.api.get(`/workspaces/${workspace.id}`, { key: outsiderKey })).body.type).toBe('not-found/workspace-not-found');
    expect((await t.api.get('/workspaces/987654', { key: BOOTSTRAP_KEY })).body.type).toBe('not-found/workspace-not-found');
  });
});
