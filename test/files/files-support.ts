import http from 'node:http';
import { expect } from 'vitest';
import { BOOTSTRAP_KEY, type TestApp } from '../support/test-app.js';

export { expectError, grantAsSite, memberOf, type Member } from '../grants/grants-support.js';

/** Options of a file request: the credential and the request context. */
export interface As {
  key: string;
  workspace?: number;
}

const API = '/api/rest/v1';

/** A path for a URL as the JavaScript SDK writes it: one percent-encoded segment, slashes and all. */
export function enc(path: string): string {
  return encodeURIComponent(path);
}

function headersFor(as: As): Record<string, string> {
  return { 'X-ServiceAPI-Key': as.key, ...(as.workspace === undefined ? {} : { 'X-Service-Workspace-Id': String(as.workspace) }) };
}

/** A Custom Workspace made through the API, so that its root folder exists as in production. */
export async function newWorkspace(t: TestApp, name = `ws-${Math.random().toString(36).slice(2, 8)}`): Promise<number> {
  const response = await t.api.post('/workspaces', { name }, { key: BOOTSTRAP_KEY });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as number;
}

export async function mkdir(t: TestApp, path: string, as: As = { key: BOOTSTRAP_KEY }) {
  return t.api.post(`/folders/${enc(path)}`, { mkdir_parents: true }, as);
}

/** PUT /files/<path> with the raw bytes: the one-request upload. */
export async function putFile(t: TestApp, path: string, content: string | Uint8Array, as: As = { key: BOOTSTRAP_KEY }, query = '') {
  const response = await fetch(`${t.baseUrl}${API}/files/${enc(path)}${query}`, { method: 'PUT', headers: headersFor(as), body: content });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text), headers: response.headers };
}

/** Creates files (and their folders) with the site-wide key, in context 0. */
export async function seed(t: TestApp, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const response = path.endsWith('/') ? await mkdir(t, path) : await putFile(t, path, content);
    expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(201);
  }
}

export async function list(t: TestApp, path: string, as: As) {
  return t.api.get(`/folders/${enc(path)}`, as);
}

/** The paths a listing shows, in order. */
export async function listedPaths(t: TestApp, path: string, as: As): Promise<string[]> {
  const response = await list(t, path, as);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as { path: string }[]).map((entry) => entry.path);
}

/** The bytes of a file through GET /files/<path> and its signed download_uri. */
export async function downloadText(t: TestApp, path: string, as: As): Promise<string> {
  const meta = await t.api.get(`/files/${enc(path)}`, as);
  expect(meta.status, JSON.stringify(meta.body)).toBe(200);
  const response = await fetch(meta.body.download_uri as string);
  expect(response.status).toBe(200);
  return response.text();
}

/**
 * An HTTP request with the path exactly as given: fetch and URL would resolve `..` and `.`
 * segments before sending, which is not what a hostile client does.
 */
export function rawRequest(t: TestApp, method: string, rawPath: string, as: As, body?: string): Promise<{ status: number; body: any }> {
  const url = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      ...headersFor(as),
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }),
    };
    // A connection of its own: a refused upload's connection is closed by the server.
    const request = http.request({ host: url.hostname, port: url.port, method, path: rawPath, headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** Inserts a grant straight into the database (for shapes the API would refuse to an ordinary caller). */
export async function insertGrant(
  t: TestApp,
  grant: { path: string; userId?: number; groupId?: number; permission: string; recursive?: boolean },
): Promise<void> {
  const workspace = /^_\/workspaces\/(\d+)(\/|$)/i.exec(grant.path);
  await t.database.db
    .insertInto('permissions')
    .values({
      workspace_id: workspace === null ? 0 : Number(workspace[1]),
      path: grant.path,
      path_key: grant.path.toLowerCase(),
      user_id: grant.userId ?? null,
      group_id: grant.groupId ?? null,
      permission: grant.permission,
      recursive: grant.recursive ?? true,
      created_at: 0,
    })
    .execute();
}
