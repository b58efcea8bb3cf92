import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantAsSite, memberOf, newWorkspace, putFile } from '../files/files-support.js';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Restoring a file's version (POST /file_versions/<id>/restore) is an overwrite
 * (access/recovery-authority.ts), so it takes what a PUT over the file takes: `delete` on it
 * (docs/permissions.md). A version is named by its id alone, and ids are counted up, so a writer
 * who may only add files (list and writeonly) must not be able to replace a file's content by
 * naming one.
 */
describe.each(testDatabaseTargets())('restoring a version takes what an overwrite takes [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

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
