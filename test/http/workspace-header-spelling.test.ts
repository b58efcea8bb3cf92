import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const MISSPELLINGS = [
  'X-ServiceAPI-Workspace-Id',
  'X-FilesAPI-Workspace-Id',
  'X-Service-API-Workspace-Id',
  'X-Service-WorkspaceId',
  'X-SERVICE-WORKSPACE_ID',
  'X-Workspace-Id',
  'X-Acme-Workspace-Id',
];

// Headers of another shape pass through untouched: they are never a guess at the Workspace header.
const UNRELATED = ['X-Request-Id', 'X-Workspace-Name', 'X-Acme-Team-Workspace-Id', 'X-Service-Workspace-Ids', 'Workspace-Id'];

describe.each(testDatabaseTargets())('Workspace header spelling [$name]', (target) => {
  describe('with both brands', () => {
    let t: TestApp;
    let ws: number;
    beforeAll(async () => {
      t = await startTestApp(target, { brands: ['Service', 'Files'] });
      ws = await createWorkspace(t.database.db);
    });
    afterAll(() => t.close());

    const entriesNamed = (name: string) =>
      t.database.db.selectFrom('entries').select('path').where('path_key', 'in', [name.toLowerCase(), `_/workspaces/${ws}/${name.toLowerCase()}`]).execute();

    it.each(MISSPELLINGS)('answers %s with 400 naming the headers that work, and creates nothing', async (header) => {
      const folder = `Misspelt ${header}`;
      const response = await t.api.post(`/folders/${encodeURIComponent(folder)}`, {}, { key: BOOTSTRAP_KEY, headers: { [header]: String(ws) } });
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(response.body).toMatchObject({ type: 'bad-request/invalid-workspace-id-header', 'http-code': 400, title: 'Invalid Workspace Id Header' });
      expect(response.body.error).toBe(
        `This server does not read the ${header.toLowerCase()} header. The Workspace is chosen with the X-Service-Workspace-Id or ` +
          'X-Files-Workspace-Id header; without it, a request works in the Workspace of its credential.',
      );
      expect(await entriesNamed(folder)).toEqual([]);
    });

    it('refuses a misspelt header even beside the right one', async () => {
      const response = await t.api.post('/folders/Both', {}, { key: BOOTSTRAP_KEY, workspace: ws, headers: { 'X-ServiceAPI-Workspace-Id': String(ws) } });
      expect(response.status).toBe(400);
      expect(response.body.type).toBe('bad-request/invalid-workspace-id-header');
      expect(await entriesNamed('Both')).toEqual([]);
    });

    it('refuses a misspelt header on a read too, before anything is answered', async () => {
      const response = await t.api.get('/folders', { key: BOOTSTRAP_KEY, headers: { 'X-FilesAPI-Workspace-Id': String(ws) } });
      expect(response.status).toBe(400);
      expect(response.body.type).toBe('bad-request/invalid-workspace-id-header');
    });

    it('reads the accepted spellings whatever their case', async () => {
      for (const [header, folder] of [['x-SERVICE-workspace-ID', 'Upper Service'], ['X-FILES-WORKSPACE-ID', 'Upper Files']] as const) {
        const response = await t.api.post(`/folders/${encodeURIComponent(folder)}`, {}, { key: BOOTSTRAP_KEY, headers: { [header]: String(ws) } });
        expect(response.status, JSON.stringify(response.body)).toBe(201);
        expect(await entriesNamed(folder)).toEqual([{ path: `_/Workspaces/${ws}/${folder}` }]);
      }
    });

    it.each(UNRELATED)('leaves the unrelated header %s alone', async (header) => {
      const folder = `Unrelated ${header}`;
      const response = await t.api.post(`/folders/${encodeURIComponent(folder)}`, {}, { key: BOOTSTRAP_KEY, workspace: ws, headers: { [header]: '7' } });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(await entriesNamed(folder)).toEqual([{ path: `_/Workspaces/${ws}/${folder}` }]);
    });

    it('authenticates first: a misspelt header without a credential is still a 401', async () => {
      const response = await t.api.get('/folders', { headers: { 'X-ServiceAPI-Workspace-Id': String(ws) } });
      expect(response.status).toBe(401);
    });
  });

  describe('with ATRIUM_HEADER_BRANDS=Service', () => {
    let t: TestApp;
    let ws: number;
    beforeAll(async () => {
      t = await startTestApp(target, { brands: ['Service'] });
      ws = await createWorkspace(t.database.db);
    });
    afterAll(() => t.close());

    it('answers the Files spelling with 400 naming only the Service header, and creates nothing', async () => {
      const response = await t.api.post('/folders/Files%20Spelling', {}, { key: BOOTSTRAP_KEY, headers: { 'X-Files-Workspace-Id': String(ws) } });
      expect(response.status).toBe(400);
      expect(response.body.type).toBe('bad-request/invalid-workspace-id-header');
      expect(response.body.error).toContain('does not read the x-files-workspace-id header');
      expect(response.body.error).toContain('chosen with the X-Service-Workspace-Id header');
      expect(response.body.error).not.toContain('X-Files-Workspace-Id');
      const stored = await t.database.db.selectFrom('entries').select('path').where('path_key', 'like', '%files spelling').execute();
      expect(stored).toEqual([]);
    });
  });
});
