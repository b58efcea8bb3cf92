import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantAsSite, memberOf, newWorkspace, putFile } from '../files/files-support.js';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Who may undo a deletion or an overwrite (access/recovery-authority.ts), through the API: never
 * anyone who could not have done it. Purging a deleted folder for good, or reading the names it
 * held, takes what deleting it took: `delete` on all of it (a non-recursive grant covers only the
 * folder's own files). Restoring a file's version (POST /file_versions/<id>/restore) is an
 * overwrite, so it takes what a PUT over the file takes: `delete` on it (docs/permissions.md). A
 * version is named by its id alone, and ids are counted up, so a writer who may only add files
 * (list and writeonly) must not be able to replace a file's content by naming one.
 */
describe.each(testDatabaseTargets())('recovering takes what the deletion or overwrite took [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  it('shows and purges a deleted folder only for whoever could delete all of it now', async () => {
    const workspace = await newWorkspace(t);
    const site = { key: BOOTSTRAP_KEY, workspace };
    for (const path of ['deep/top.txt', 'deep/sub/secret.txt', 'flat/a.txt', 'flat/b.txt']) expect((await putFile(t, path, 'words', site)).status).toBe(201);
    // A non-recursive grant on each folder: it covers the folder and its own files, not its subfolders.
    const holder = await memberOf(t, { workspaceId: workspace });
    for (const path of ['deep', 'flat']) await grantAsSite(t, { path, user_id: holder.id, permission: 'full', recursive: false }, workspace);
    const asHolder = { key: holder.key };
    const refused = await t.api.call('DELETE', '/files/deep?recursive=true', asHolder);
    expect([refused.status, refused.body.type]).toEqual([403, 'not-authorized/full-permission-required']);
    expect((await t.api.call('DELETE', '/files/deep?recursive=true', site)).status).toBe(204);
    expect((await t.api.call('DELETE', '/files/flat?recursive=true', site)).status).toBe(204);
    const trash = (await t.api.get('/trash', site)).body as { id: number; path: string }[];
    const idOf = (path: string) => trash.find((entry) => entry.path === path)!.id;

    // The folder with a subfolder: its holder could not delete it, so it sees nothing of it and purges nothing.
    expect(((await t.api.get('/trash', asHolder)).body as { path: string }[]).map((entry) => entry.path)).toEqual(['flat']);
    for (const answer of [await t.api.get(`/trash/${idOf('deep')}`, asHolder), await t.api.delete(`/trash/${idOf('deep')}`, asHolder)]) {
      expect([answer.status, answer.body.type]).toEqual([404, 'not-found/trashed-entry-not-found']);
    }
    expect((await t.api.get(`/trash/${idOf('deep')}`, site)).status).toBe(200);
    // The folder of files only: the grant covers all of it, as deleting it would have needed.
    expect((await t.api.delete(`/trash/${idOf('flat')}`, asHolder)).status).toBe(204);
  });

  it('refuses a writer who may not overwrite the file, as its PUT is refused, and lets one who may', async () => {
    const workspace = await newWorkspace(t);
    const site = { key: BOOTSTRAP_KEY, workspace };
    expect((await putFile(t, 'drop/report.txt', 'first', site)).status).toBe(201);
    expect((await putFile(t, 'drop/report.txt', 'second', site)).status).toBeLessThan(300);
    const [version] = (await t.api.get(`/file_versions?path=${encodeURIComponent('drop/report.txt')}`, site)).body as { id: number }[];
    const read = async () => (await t.api.get(`/files/${encodeURIComponent('drop/report.txt')}?action=stream`, site)).text;

    const adder = await memberOf(t, { workspaceId: workspace });
    await grantAsSite(t, { path: 'drop', user_id: adder.id, permission: 'list' }, workspace);
    await grantAsSite(t, { path: 'drop', user_id: adder.id, permission: 'writeonly' }, workspace);
    const put = await t.api.call('PUT', `/files/${encodeURIComponent('drop/report.txt')}`, { key: adder.key, rawBody: 'mine', headers: { 'content-type': 'application/octet-stream' } });
    expect([put.status, put.body.type]).toEqual([403, 'not-authorized/full-permission-required']);
    const restore = await t.api.post(`/file_versions/${version!.id}/restore`, {}, { key: adder.key });
    expect([restore.status, restore.body.type]).toEqual([403, 'not-authorized/full-permission-required']);
    expect(await read()).toBe('second');

    const owner = await memberOf(t, { workspaceId: workspace });
    await grantAsSite(t, { path: 'drop', user_id: owner.id, permission: 'full' }, workspace);
    expect((await t.api.post(`/file_versions/${version!.id}/restore`, {}, { key: owner.key })).status).toBe(200);
    expect(await read()).toBe('first');
  });
});
