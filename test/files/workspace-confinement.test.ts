import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { downloadText, enc, expectError, listedPaths, memberOf, newWorkspace, putFile, rawRequest, seed, type Member } from './files-support.js';

const API = '/api/rest/v1';

describe.each(testDatabaseTargets())('a Workspace user cannot reach outside its root [$name]', (target) => {
  let t: TestApp;
  let ws1: number;
  let ws2: number;
  let admin1: Member;
  beforeAll(async () => {
    t = await startTestApp(target);
    ws1 = await newWorkspace(t);
    ws2 = await newWorkspace(t);
    await seed(t, {
      'Top/secret.txt': 'workspace 0 secret',
      [`_/Workspaces/${ws2}/Private/secret.txt`]: 'workspace 2 secret',
      [`_/Workspaces/${ws1}/mine.txt`]: 'mine',
    });
    // The strongest authority inside Workspace 1: its administrator.
    admin1 = await memberOf(t, { workspaceId: ws1, workspaceAdmin: true });
  });
  afterAll(async () => {
    // Whatever was tried, the other Workspaces' files are as they were.
    expect(await downloadText(t, 'Top/secret.txt', { key: BOOTSTRAP_KEY })).toBe('workspace 0 secret');
    expect(await downloadText(t, `_/Workspaces/${ws2}/Private/secret.txt`, { key: BOOTSTRAP_KEY })).toBe('workspace 2 secret');
    await t.close();
  });

  const climbing = () => [
    '..', '../..', '../../Top', '..%2F..%2FTop', '%2e%2e', '%2E%2E%2F%2E%2E%2FTop', 'a/../../Top', '.%2F..', './Top',
    `..%2F${ws2}%2FPrivate`, `%2e%2e/%2e%2e/%2e%2e/_/Workspaces/${ws2}`, 'Top%00', 'mine.txt%2F..%2F..',
  ];

  it('refuses every climbing spelling, on every file route', async () => {
    for (const spelling of climbing()) {
      for (const [method, prefix] of [['GET', 'folders'], ['GET', 'files'], ['GET', 'file_actions/metadata'], ['DELETE', 'files'], ['POST', 'folders']] as const) {
        const response = await rawRequest(t, method, `${API}/${prefix}/${spelling}`, { key: admin1.key }, method === 'POST' ? '{}' : undefined);
        expect({ spelling, method, prefix, status: response.status, type: response.body?.type }).toEqual({
          spelling, method, prefix, status: 400, type: 'bad-request/invalid-path',
        });
      }
    }
  });

  it('reads qualified-looking and differently cased paths as paths inside its own Workspace', async () => {
    for (const spelling of [
      `_/Workspaces/${ws2}`, `_/workspaces/${ws2}/private/secret.txt`, `_%2FWorkspaces%2F${ws2}%2FPrivate`, `%2F_%2FWorkspaces%2F${ws2}`,
      `_/WORKSPACES/${ws2}/PRIVATE`, 'Top', 'TOP/SECRET.TXT', `_/Workspaces/${ws1}/mine.txt`, '_', '%5C..%5CTop',
    ]) {
      for (const prefix of ['folders', 'files', 'file_actions/metadata']) {
        const response = await rawRequest(t, 'GET', `${API}/${prefix}/${spelling}`, { key: admin1.key });
        expect({ spelling, prefix, status: response.status, type: response.body?.type }).toEqual({ spelling, prefix, status: 404, type: 'not-found/file-not-found' });
      }
    }
    expect(await listedPaths(t, '', { key: admin1.key })).toEqual(['mine.txt']);
  });

  it('cannot select another context', async () => {
    for (const workspace of [0, ws2]) {
      expectError(await t.api.get('/folders/', { key: admin1.key, workspace }), 400, 'bad-request/invalid-workspace-id-header');
    }
  });

  it('writes only inside its own root, whatever the path says', async () => {
    const put = await putFile(t, `_/Workspaces/${ws2}/Private/secret.txt`, 'planted', { key: admin1.key });
    expect(put.status).toBe(201);
    expect(put.body.path).toBe(`_/Workspaces/${ws2}/Private/secret.txt`);
    // Seen from context 0, that file lies inside Workspace 1.
    expect(await downloadText(t, `_/Workspaces/${ws1}/_/Workspaces/${ws2}/Private/secret.txt`, { key: BOOTSTRAP_KEY })).toBe('planted');
    for (const destination of ['../../Top/x.txt', '..', `../${ws2}/Private/x.txt`, '/../x']) {
      expectError(await t.api.post('/file_actions/move/mine.txt', { destination }, { key: admin1.key }), 400, 'bad-request/invalid-path');
      expectError(await t.api.post('/file_actions/copy/mine.txt', { destination }, { key: admin1.key }), 400, 'bad-request/invalid-path');
    }
    expectError(await t.api.post(`/file_actions/copy/${enc('../../Top/secret.txt')}`, { destination: 'stolen.txt' }, { key: admin1.key }), 400, 'bad-request/invalid-path');
    expectError(await t.api.post(`/file_actions/copy/${enc('Top/secret.txt')}`, { destination: 'stolen.txt' }, { key: admin1.key }), 404, 'not-found/file-not-found');
    // Deleting by that name removes its own folder of that name, nothing of Workspace 2 (afterAll checks).
    expect((await t.api.delete(`/files/${enc(`_/Workspaces/${ws2}/Private`)}?recursive=true`, { key: admin1.key })).status).toBe(204);
    expectError(await t.api.delete(`/files/${enc(`_/Workspaces/${ws2}/Private`)}?recursive=true`, { key: admin1.key }), 404, 'not-found/file-not-found');
  });

  it('cannot reach other files through an upload ref or a signed link of its own', async () => {
    const begun = await t.api.post('/files/mine2.txt', { action: 'put' }, { key: admin1.key });
    expectError(await t.api.post(`/files/${enc('../Top/x.txt')}`, { action: 'end', ref: begun.body.ref }, { key: admin1.key }), 400, 'bad-request/invalid-path');
    expectError(await t.api.post('/files/Top%2Fsecret.txt', { action: 'end', ref: begun.body.ref }, { key: admin1.key }), 404, 'not-found/file-upload-not-found');
    const link = (await t.api.get('/files/mine.txt', { key: admin1.key })).body.download_uri as string;
    const token = link.slice(link.lastIndexOf('/') + 1);
    for (let id = 1; id <= 12; id += 1) {
      const forged = token.replace(/^d\.\d+\./, `d.${id}.`);
      if (forged === token) continue;
      expect((await fetch(`${t.baseUrl}${API}/downloads/${forged}`)).status).toBe(404);
    }
  });
});
