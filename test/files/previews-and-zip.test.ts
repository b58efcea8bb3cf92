import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzip } from '../bundles/public-link-support.js';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { enc, expectError, grantAsSite, memberOf, rawRequest, seed, type Member } from './files-support.js';

const admin = { key: BOOTSTRAP_KEY };
const API = '/api/rest/v1';

/** The signed download_uri of a file, as the caller `key` is issued it. */
async function downloadUri(t: TestApp, path: string, key = BOOTSTRAP_KEY): Promise<string> {
  const meta = await t.api.get(`/files/${enc(path)}`, { key });
  expect(meta.status, JSON.stringify(meta.body)).toBe(200);
  return meta.body.download_uri as string;
}

/** POST /file_actions/zip as `key`, the answer's bytes kept whole. */
async function zipOf(t: TestApp, paths: unknown, key = BOOTSTRAP_KEY) {
  const response = await fetch(`${t.baseUrl}${API}/file_actions/zip`, {
    method: 'POST', headers: { 'X-ServiceAPI-Key': key, 'content-type': 'application/json' }, body: JSON.stringify({ paths }),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, body: () => JSON.parse(bytes.toString('utf8')) };
}

describe.each(testDatabaseTargets())('previews and ZIP downloads [$name]', (target) => {
  let t: TestApp;
  let reader: Member;
  let lister: Member;
  beforeAll(async () => {
    t = await startTestApp(target);
    await seed(t, {
      'media/photo.png': 'not really a png',
      'media/paper.pdf': '%PDF-1.4 paper',
      'media/notes.txt': 'line one\nline two\n',
      'media/page.html': '<script>alert(1)</script>',
      'media/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'media/song.mp3': 'ID3 pretend audio',
      'team/open/a.txt': 'alpha',
      'team/open/deep/b.txt': 'bravo',
      'team/closed/c.txt': 'charlie',
      'team/top.txt': 'top',
      'drop/d.txt': 'delta',
    });
    reader = await memberOf(t);
    await grantAsSite(t, { path: 'team/open', user_id: reader.id, permission: 'readonly' });
    lister = await memberOf(t);
    await grantAsSite(t, { path: 'drop', user_id: lister.id, permission: 'list' });
  });
  afterAll(() => t.close());

  it('serves a previewable type inline, as itself, sandboxed and never sniffed, when the signed link asks for it', async () => {
    for (const [path, type] of [['media/photo.png', 'image/png'], ['media/paper.pdf', 'application/pdf'], ['media/notes.txt', 'text/plain'], ['media/song.mp3', 'audio/mpeg']]) {
      const response = await fetch(`${await downloadUri(t, path!)}?disposition=inline`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe(type);
      expect(response.headers.get('content-disposition'), path).toMatch(/^inline; filename="/);
      expect(response.headers.get('content-security-policy')).toBe('sandbox');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      await response.arrayBuffer();
    }
  });

  it('serves HTML, SVG and every download without the inline mode as an opaque, sandboxed attachment', async () => {
    for (const [path, query] of [['media/page.html', '?disposition=inline'], ['media/logo.svg', '?disposition=inline'], ['media/photo.png', ''], ['media/photo.png', '?disposition=attachment']]) {
      const response = await fetch(`${await downloadUri(t, path!)}${query}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), `${path}${query}`).toBe('application/octet-stream');
      expect(response.headers.get('content-disposition'), `${path}${query}`).toMatch(/^attachment; filename="/);
      expect(response.headers.get('content-security-policy')).toBe('sandbox');
      await response.arrayBuffer();
    }
    const odd = await fetch(`${await downloadUri(t, 'media/photo.png')}?disposition=show`);
    expect(odd.status).toBe(400);
    expect(((await odd.json()) as { type: string }).type).toBe('bad-request/request-params-invalid');
  });

  it('streams a preview in ranges, as a player asks', async () => {
    const response = await fetch(`${await downloadUri(t, 'media/song.mp3')}?disposition=inline`, { headers: { Range: 'bytes=4-10' } });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 4-10/17');
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(await response.text()).toBe('pretend');
  });

  it('zips the selected files and folders by their names below the folder they share, each file with its bytes', async () => {
    const response = await zipOf(t, ['team/open', 'team/top.txt', 'team/open/a.txt']);
    expect(response.status, response.bytes.toString()).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="team.zip"; filename*=UTF-8\'\'team.zip');
    // A file inside a selected folder comes once, with its folder.
    expect(Object.fromEntries(await unzip(response.bytes))).toEqual({
      'open/': '', 'open/a.txt': 'alpha', 'open/deep/': '', 'open/deep/b.txt': 'bravo', 'top.txt': 'top',
    });
    const apart = await zipOf(t, ['team/closed/c.txt', 'drop/d.txt']);
    expect(apart.headers.get('content-disposition')).toMatch(/^attachment; filename="files.zip"/);
    expect(Object.fromEntries(await unzip(apart.bytes))).toEqual({ 'team/closed/c.txt': 'charlie', 'drop/d.txt': 'delta' });
  });

  it('holds only what the caller may read: below a folder what they reach, and a path they cannot see refused', async () => {
    const team = await zipOf(t, ['team'], reader.key);
    expect(team.status, team.bytes.toString()).toBe(200);
    expect(Object.fromEntries(await unzip(team.bytes))).toEqual({
      'team/': '', 'team/open/': '', 'team/open/a.txt': 'alpha', 'team/open/deep/': '', 'team/open/deep/b.txt': 'bravo',
    });
    const hidden = await zipOf(t, ['team/open/a.txt', 'team/closed/c.txt'], reader.key);
    expect(hidden.status).toBe(404);
    expect(hidden.body().type).toBe('not-found/file-not-found');
    // Below a folder, a file the caller sees but may not read is left out, not sent broken.
    const listed = await zipOf(t, ['drop'], lister.key);
    expect(listed.status, listed.bytes.toString()).toBe(200);
    expect(Object.fromEntries(await unzip(listed.bytes))).toEqual({ 'drop/': '' });
    // Named on its own, such a file is refused, not left out in silence.
    const dropped = await zipOf(t, ['drop/d.txt'], lister.key);
    expect(dropped.status).toBe(403);
    expect(dropped.body().type).toBe('not-authorized/read-permission-required');
  });

  it('refuses paths that climb out, the root, and an empty or malformed selection, in the API\'s errors', async () => {
    for (const paths of [['../team/top.txt'], ['team/../drop/d.txt'], ['team/./top.txt']]) {
      const response = await zipOf(t, paths);
      expect(response.status, JSON.stringify(paths)).toBe(400);
      expect(response.body().type, JSON.stringify(paths)).toBe('bad-request/invalid-path');
    }
    expectError(await rawRequest(t, 'POST', `${API}/file_actions/zip`, admin, JSON.stringify({ paths: [''] })), 400, 'bad-request/request-params-invalid');
    expectError(await rawRequest(t, 'POST', `${API}/file_actions/zip`, admin, JSON.stringify({ paths: [] })), 400, 'bad-request/request-params-invalid');
    expectError(await rawRequest(t, 'POST', `${API}/file_actions/zip`, admin, JSON.stringify({ paths: 'team' })), 400, 'bad-request/request-params-invalid');
    expectError(await rawRequest(t, 'POST', `${API}/file_actions/zip`, admin, JSON.stringify({})), 400, 'bad-request/request-params-required');
  });
});
