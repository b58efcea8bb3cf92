import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { enc, expectError, grantAsSite, listedPaths, memberOf, newWorkspace, seed, type Member } from './files-support.js';

describe.each(testDatabaseTargets())('folder creation [$name]', (target) => {
  let t: TestApp;
  let writer: Member;
  let reader: Member;
  let nobody: Member;
  let ws: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    ws = await newWorkspace(t);
    await seed(t, { 'drop/': '', 'Shared/a.txt': 'a' });
    [writer, reader, nobody] = await Promise.all([memberOf(t), memberOf(t), memberOf(t)]);
    await grantAsSite(t, { path: 'drop', user_id: writer.id, permission: 'writeonly' });
    await grantAsSite(t, { path: 'shared', user_id: reader.id, permission: 'readonly' });
  });
  afterAll(() => t.close());

  const create = (path: string, key: string, body: Record<string, unknown> = {}, workspace?: number) =>
    t.api.post(`/folders/${enc(path)}`, { path, ...body }, { key, ...(workspace === undefined ? {} : { workspace }) });

  it('creates a folder with write on its parent, answering 201 with the entry', async () => {
    const response = await create('drop/New Folder', writer.key);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ path: 'drop/New Folder', display_name: 'New Folder', type: 'directory', size: null, permissions: 'w' });
    expect(await listedPaths(t, 'drop', { key: writer.key })).toEqual(['drop/New Folder']);
  });

  it('creates missing parents only with mkdir_parents, each level needing write', async () => {
    expectError(await create('drop/x/y/z', writer.key), 422, 'processing-failure/destination-parent-does-not-exist');
    expect((await create('drop/x/y/z', writer.key, { mkdir_parents: true })).status).toBe(201);
    expect((await t.api.post('/folders/drop/q/r?mkdir_parents=true', undefined, { key: writer.key })).status).toBe(201);
    expect(await listedPaths(t, 'drop/x/y', { key: writer.key })).toEqual(['drop/x/y/z']);
  });

  it('answers destination-exists for an existing path, whatever its case or type', async () => {
    expectError(await create('DROP/new folder', writer.key), 422, 'processing-failure/destination-exists');
    expectError(await create('Shared/a.txt', BOOTSTRAP_KEY), 422, 'processing-failure/destination-exists');
    expectError(await create('Shared/A.TXT/inner', BOOTSTRAP_KEY, { mkdir_parents: true }), 422, 'processing-failure/destination-parent-conflict');
  });

  it('refuses without write: write-permission-required where the caller sees, not-found where it does not', async () => {
    expectError(await create('shared/mine', reader.key), 403, 'not-authorized/write-permission-required');
    expectError(await create('shared/mine', nobody.key), 404, 'not-found/file-not-found');
    expectError(await create('missing/mine', nobody.key), 404, 'not-found/file-not-found');
    // The root is always visible, so there the answer names what is missing.
    expectError(await create('elsewhere', nobody.key), 403, 'not-authorized/write-permission-required');
    // With mkdir_parents a folder the caller cannot see is one it would have to make at the root:
    // the same answer as where nothing is, so the answer tells nothing of what is there.
    expectError(await create('drop/a/b', nobody.key, { mkdir_parents: true }), 403, 'not-authorized/write-permission-required');
    expectError(await create('missing/a/b', nobody.key, { mkdir_parents: true }), 403, 'not-authorized/write-permission-required');
  });

  it('protects the reserved folder "_" and the Workspace roots in context 0, even from a Site Administrator', async () => {
    for (const path of ['_', '_/x', '_/Workspaces', '_/Workspaces/9999', `_/Workspaces/${ws}`, '_/workspaces/0/x', '/']) {
      expectError(await create(path, BOOTSTRAP_KEY), 400, 'bad-request/invalid-path');
    }
    expect((await create(`_/Workspaces/${ws}/Inside`, BOOTSTRAP_KEY)).status).toBe(201);
    expectError(await create('_/Workspaces/9999/x', BOOTSTRAP_KEY), 404, 'not-found/file-not-found');
    // Inside a Workspace, "_" is an ordinary name below its root.
    const inside = await create('_', BOOTSTRAP_KEY, {}, ws);
    expect(inside.status).toBe(201);
    expect(inside.body.path).toBe('_');
    expect(await listedPaths(t, `_/Workspaces/${ws}`, { key: BOOTSTRAP_KEY })).toEqual([`_/Workspaces/${ws}/_`, `_/Workspaces/${ws}/Inside`]);
  });

  it('refuses path spellings that are not canonical', async () => {
    for (const url of ['/folders/a%2F..%2Fb', '/folders/a%00b', '/folders/%C3', '/folders/a%2', '/folders/%2e%2e%2Fx', `/folders/${'n'.repeat(256)}`]) {
      expectError(await t.api.post(url, {}, { key: BOOTSTRAP_KEY }), 400, 'bad-request/invalid-path');
    }
  });

  it('creates a folder once when many requests race for it', async () => {
    const responses = await Promise.all(Array.from({ length: 6 }, () => create('race', BOOTSTRAP_KEY)));
    expect(responses.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
  });

  it('ignores what the SDK repeats and rejects a wrong flag type', async () => {
    expect((await create('sdk-made', BOOTSTRAP_KEY, { mkdir_parents: 'true', provided_mtime: '2020-01-01T00:00:00Z' })).status).toBe(201);
    expectError(await create('bad-flag', BOOTSTRAP_KEY, { mkdir_parents: 7 }), 400, 'bad-request/request-params-invalid');
  });
});
