import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/** GET /site/usage (docs/files.md): what the site stores, in all and per Workspace. */
describe.each(testDatabaseTargets())('site usage [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  const admin = { key: BOOTSTRAP_KEY };
  const upload = async (path: string, content: string, workspace?: number) => {
    const answer = await t.api.call('PUT', `/files/${path}`, { ...admin, ...(workspace === undefined ? {} : { workspace }), rawBody: content, headers: { 'content-type': 'application/octet-stream' } });
    expect(answer.status, path).toBe(201);
  };
  const usage = async () => {
    const answer = await t.api.get('/site/usage', admin);
    expect(answer.status).toBe(200);
    return answer.body;
  };

  it('counts the files and bytes stored, in all and per Workspace, and follows changes', async () => {
    const before = await usage();
    const ws = await createWorkspace(t.database.db);
    const empty = await createWorkspace(t.database.db);
    await upload('usage-root.txt', 'x'.repeat(1000));
    expect((await t.api.post('/folders/usage-dir', {}, admin)).status).toBe(201);
    await upload('usage-dir%2Fnested.txt', 'y'.repeat(500));
    await upload('in-workspace.txt', 'z'.repeat(250), ws);

    const after = await usage();
    expect(after).toMatchObject({
      bytes_stored: before.bytes_stored + 1750,
      files_count: before.files_count + 3,
      current_storage: (before.bytes_stored + 1750) / 1e9,
      deleted_files_storage: before.deleted_files_storage,
    });
    expect(after.start_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(after.end_at).toBe(after.start_at);
    const of = (id: number) => after.usage_by_workspace.find((w: any) => w.workspace_id === id);
    expect(after.usage_by_workspace[0]).toMatchObject({ workspace_id: 0, workspace_name: 'Default' });
    expect(of(0).bytes_stored).toBe((before.usage_by_workspace[0]?.bytes_stored ?? 0) + 1500);
    expect(after.root_storage).toBe(of(0).bytes_stored / 1e9);
    expect(of(ws)).toEqual({
      workspace_id: ws, workspace_name: expect.any(String), bytes_stored: 250, files_count: 1, trash_bytes: 0, trash_files_count: 0, version_bytes: 0, versions_count: 0,
    });
    expect(of(empty)).toMatchObject({ bytes_stored: 0, files_count: 0 });
    const sum = after.usage_by_workspace.reduce((all: number, w: any) => all + w.bytes_stored, 0);
    expect(sum).toBe(after.bytes_stored);

    // A change is seen by the next request: a deleted file leaves the files for the trash, and counts there.
    expect((await t.api.call('DELETE', '/files/in-workspace.txt', { ...admin, workspace: ws })).status).toBe(204);
    const deleted = await usage();
    expect(deleted.usage_by_workspace.find((w: any) => w.workspace_id === ws)).toMatchObject({ bytes_stored: 0, files_count: 0, trash_bytes: 250, trash_files_count: 1 });
    expect(deleted.bytes_stored).toBe(after.bytes_stored - 250);
    expect(deleted.trash_bytes).toBe(after.trash_bytes + 250);
    expect(deleted.deleted_files_storage).toBe((after.trash_bytes + after.version_bytes + 250) / 1e9);
  });

  it('counts a file deep in a Workspace\'s folders in that Workspace, whose id may begin another\'s', async () => {
    // Workspaces until one id is the beginning of another's (1 and 10, 2 and 20, ...).
    const ids: number[] = [];
    while (!ids.some((id) => ids.includes(Number(`${id}0`)))) ids.push(await createWorkspace(t.database.db));
    const short = ids.find((id) => ids.includes(Number(`${id}0`)))!;
    const long = Number(`${short}0`);
    const before = await usage();
    expect((await t.api.post('/folders/a%2Fb%2Fc', { mkdir_parents: true }, { ...admin, workspace: long })).status).toBe(201);
    await upload('a%2Fb%2Fc%2Fdeep.txt', 'abcd', long);
    const after = await usage();
    const of = (body: any, id: number) => body.usage_by_workspace.find((w: any) => w.workspace_id === id);
    expect(of(after, long)).toMatchObject({ bytes_stored: 4, files_count: 1 });
    expect(of(after, short)).toEqual(of(before, short));
    expect(after.bytes_stored).toBe(before.bytes_stored + 4);
  });

  it('is for Site Administrators only', async () => {
    const ws = await createWorkspace(t.database.db);
    for (const fields of [{}, { workspaceId: ws, workspaceAdmin: true }]) {
      const user = await createUser(t.database.db, fields);
      const key = await createApiKey(t.database.db, { userId: user.id, workspaceId: fields.workspaceId ?? 0 });
      const refused = await t.api.get('/site/usage', { key });
      expect([refused.status, refused.body.type]).toEqual([403, 'not-authorized/site-admin-required']);
    }
    const siteAdmin = await createUser(t.database.db, { siteAdmin: true });
    const filesOnly = await createApiKey(t.database.db, { userId: siteAdmin.id, permissionSet: 'files_only' });
    expect((await t.api.get('/site/usage', { key: filesOnly })).body.type).toBe('not-authorized/api-key-is-files-only');
    expect((await t.api.get('/site/usage')).status).toBe(401);
  });
});
