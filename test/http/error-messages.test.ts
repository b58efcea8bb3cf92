import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const PASSWORD = 'a perfectly good passphrase';

describe.each(testDatabaseTargets())('error messages name real headers and formats [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target, { brands: ['Service', 'Files'] }); });
  afterAll(() => t.close());

  async function session(): Promise<string> {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const response = await t.api.post('/sessions', { username: user.username, password: PASSWORD });
    expect(response.status).toBe(201);
    return response.body.id as string;
  }

  it('names the reauthentication header of every configured brand, never a placeholder', async () => {
    const response = await t.api.post('/api_keys', { name: 'needs reauthentication' }, { session: await session() });
    expect(response.status).toBe(403);
    expect(response.body.type).toBe('not-authorized/reauthentication-needed-action');
    expect(response.body.error).toBe(
      'This action needs your password again (reauthentication). Send the X-Service-Reauthentication or X-Files-Reauthentication header with the value password:<your password>.',
    );
    expect(await t.database.db.selectFrom('api_keys').select('id').where('name', '=', 'needs reauthentication').execute()).toEqual([]);
  });

  it('names the Workspace header when its value is not a Workspace id, or no such Workspace exists', async () => {
    const notANumber = await t.api.get('/folders', { key: BOOTSTRAP_KEY, workspace: 'abc' });
    expect(notANumber.status).toBe(400);
    expect(notANumber.body.type).toBe('bad-request/invalid-workspace-id-header');
    expect(notANumber.body.error).toMatch(/^A Workspace id is a whole number, 0 or more\. The Workspace is chosen with the X-Service-Workspace-Id or X-Files-Workspace-Id header/);
    const missing = await t.api.get('/folders', { key: BOOTSTRAP_KEY, workspace: 999_999 });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^Workspace 999999 does not exist\. The Workspace is chosen with the X-Service-Workspace-Id/);
  });

  it('says which Workspace a confined credential belongs to when it selects another', async () => {
    const ws = await createWorkspace(t.database.db);
    const other = await createWorkspace(t.database.db);
    const user = await createUser(t.database.db, { workspaceId: ws, password: PASSWORD });
    const login = await t.api.post('/sessions', { username: user.username, password: PASSWORD });
    const response = await t.api.get('/folders', { session: login.body.id, workspace: other });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(new RegExp(`^This credential is confined to its own Workspace \\(${ws}\\) and cannot select Workspace ${other}\\. `));
  });

  it('points a grant whose workspace_id does not match the request\'s Workspace to the Workspace header', async () => {
    const ws = await createWorkspace(t.database.db);
    const user = await createUser(t.database.db, { workspaceId: ws });
    const response = await t.api.post('/permissions', { path: 'Plans', user_id: user.id, permission: 'readonly', workspace_id: ws }, { key: BOOTSTRAP_KEY });
    expect(response.status).toBe(403);
    expect(response.body.type).toBe('not-authorized/insufficient-permission-for-params');
    expect(response.body.error).toBe(
      `workspace_id ${ws} does not match Workspace 0, where the path lies. ` +
        'The Workspace is chosen with the X-Service-Workspace-Id or X-Files-Workspace-Id header; without it, a request works in the Workspace of its credential.',
    );
    expect(await t.database.db.selectFrom('permissions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it.each([
    ['no content type', undefined],
    ['a form content type', 'application/x-www-form-urlencoded'],
    ['a multipart content type', 'multipart/form-data; boundary=x'],
    ['plain text', 'text/plain'],
  ])('tells a body sent with %s to send application/json, and creates nothing', async (_name, contentType) => {
    // node:http, not fetch: fetch adds text/plain to a string body that has no content type.
    const headers: Record<string, string> = { 'X-ServiceAPI-Key': BOOTSTRAP_KEY };
    if (contentType !== undefined) headers['content-type'] = contentType;
    const response = await rawPost(`${t.baseUrl}/api/rest/v1/workspaces`, headers, 'name=Not+JSON');
    const body = JSON.parse(response.text);
    expect(response.status, JSON.stringify(body)).toBe(400);
    expect(body.type).toBe('bad-request/unsupported-media-type');
    expect(body.error).toBe(
      `${contentType === undefined ? 'The request body has no Content-Type' : `Content-Type "${contentType}" is not accepted`}: ` +
        'send the body as JSON with Content-Type: application/json (form and multipart bodies are not read).',
    );
    expect(await t.database.db.selectFrom('workspaces').select('id').where('name', 'in', ['Not JSON', 'Not+JSON']).execute()).toEqual([]);
  });
});

function rawPost(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => { text += chunk; });
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
