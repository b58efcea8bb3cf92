import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const basic = (key: string) => `Basic ${Buffer.from(`${key}:x`).toString('base64')}`;

describe.each(testDatabaseTargets())('header brands [$name]', (target) => {
  describe('with no ATRIUM_HEADER_BRANDS setting', () => {
    let t: TestApp;
    let ws: number;
    beforeAll(async () => {
      t = await startTestApp(target, { brands: loadConfig({}, []).headerBrands });
      ws = await createWorkspace(t.database.db);
    });
    afterAll(() => t.close());

    it('accepts both Service and Files credential headers, and HTTP Basic', async () => {
      const ways: Record<string, string>[] = [{ 'X-ServiceAPI-Key': BOOTSTRAP_KEY }, { 'X-FilesAPI-Key': BOOTSTRAP_KEY }, { authorization: basic(BOOTSTRAP_KEY) }];
      for (const headers of ways) {
        const response = await t.api.get('/workspaces', { headers });
        expect(response.status, JSON.stringify(headers)).toBe(200);
      }
    });

    it('works in the Workspace the Files SDK selects with X-Files-Workspace-Id', async () => {
      const created = await t.api.post('/folders/From%20the%20SDK', {}, { headers: { 'X-FilesAPI-Key': BOOTSTRAP_KEY, 'X-Files-Workspace-Id': String(ws) } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const stored = await t.database.db.selectFrom('entries').select('path').where('path_key', '=', `_/workspaces/${ws}/from the sdk`).execute();
      expect(stored).toEqual([{ path: `_/Workspaces/${ws}/From the SDK` }]);
      const listed = await t.api.get('/folders', { headers: { 'X-ServiceAPI-Key': BOOTSTRAP_KEY, 'X-Service-Workspace-Id': String(ws) } });
      expect(listed.body.map((entry: { path: string }) => entry.path)).toContain('From the SDK');
    });

    it('reports errors in the error-class header of both brands', async () => {
      const response = await t.api.get('/workspaces', { headers: { 'X-FilesAPI-Key': 'not-a-key' } });
      expect(response.status).toBe(401);
      expect(response.headers.get('x-service-error-class')).toBe('not-authenticated/invalid-credentials');
      expect(response.headers.get('x-files-error-class')).toBe('not-authenticated/invalid-credentials');
    });

    it('names the headers of both brands when no credential is sent', async () => {
      const response = await t.api.get('/workspaces');
      expect(response.status).toBe(401);
      expect(response.body.type).toBe('not-authenticated/authentication-required');
      expect(response.body.error).toContain('X-ServiceAPI-Key or X-FilesAPI-Key');
      expect(response.body.error).toContain('X-ServiceAPI-Auth or X-FilesAPI-Auth');
    });
  });

  describe('with ATRIUM_HEADER_BRANDS=Service', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(target, { brands: loadConfig({ ATRIUM_HEADER_BRANDS: 'Service' }, []).headerBrands });
    });
    afterAll(() => t.close());

    it('refuses a credential in a Files header with a 401 that says which brand is configured', async () => {
      for (const header of ['X-FilesAPI-Key', 'X-FilesAPI-Auth', 'x-otherapi-key']) {
        const response = await t.api.get('/workspaces', { headers: { [header]: BOOTSTRAP_KEY } });
        expect(response.status, header).toBe(401);
        expect(response.body.type).toBe('not-authenticated/authentication-required');
        expect(response.body.error).toContain(`The ${header.toLowerCase()} header is not read here`);
        expect(response.body.error).toContain('header brand Service (ATRIUM_HEADER_BRANDS)');
        expect(response.body.error).toContain('X-ServiceAPI-Key');
        expect(response.body.error).toContain('X-ServiceAPI-Auth');
        expect(response.body.error).not.toContain('X-FilesAPI');
      }
    });

    it('ignores a foreign-brand header beside a credential it reads', async () => {
      const response = await t.api.get('/workspaces', { headers: { 'X-ServiceAPI-Key': BOOTSTRAP_KEY, 'X-FilesAPI-Key': 'anything' } });
      expect(response.status).toBe(200);
    });

    it('keeps a plain 401 for a request without any credential header', async () => {
      const response = await t.api.get('/workspaces');
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('Authentication required. Send an API key as X-ServiceAPI-Key (or as the user name of HTTP Basic authentication), or a session id as X-ServiceAPI-Auth.');
    });
  });

  describe('with ATRIUM_HEADER_BRANDS=Files', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(target, { brands: loadConfig({ ATRIUM_HEADER_BRANDS: 'Files' }, []).headerBrands });
    });
    afterAll(() => t.close());

    it('accepts only the Files headers and says so to a Service header', async () => {
      expect((await t.api.get('/workspaces', { headers: { 'X-FilesAPI-Key': BOOTSTRAP_KEY } })).status).toBe(200);
      const refused = await t.api.get('/workspaces', { headers: { 'X-ServiceAPI-Key': BOOTSTRAP_KEY } });
      expect(refused.status).toBe(401);
      expect(refused.body.error).toContain('header brand Files (ATRIUM_HEADER_BRANDS)');
      expect(refused.body.error).toContain('X-FilesAPI-Key');
    });
  });
});
