import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { buildSite, type SiteFixture } from '../support/site-fixture.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { encodePath, PUBLIC, unzip, visit, type Visitor } from './public-link-support.js';

const MAX_UPLOAD = 64 * 1024;

/**
 * Uploads and deletions through a share link (docs/sharing.md#visiting-a-link): into a folder of
 * each visit's own unless the link says otherwise, a taken name renamed unless the link is full,
 * the upload limit, and the records.
 */
describe.each(testDatabaseTargets())('uploading through a share link [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  let sharer: { user: { id: number }; key: string };
  /** A time as the default submission folder's name writes it (UTC). */
  const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ').replaceAll(':', '-');

  beforeAll(async () => {
    t = await startTestApp(target, { maxUploadBytes: MAX_UPLOAD });
    // The submission folders' names come from the test clock: 2026-03-04 05:06:07 UTC.
    t.clock.advance(Date.UTC(2026, 2, 4, 5, 6, 7) - t.clock.now());
    s = await buildSite(t);
    sharer = s.member1;
    for (const folder of ['Inbox', 'Open', 'Flat', 'Files', 'Whole']) expect((await t.api.post(`/folders/${folder}`, {}, { key: s.admin1.key })).status).toBe(201);
    expect((await t.api.post('/permissions', { path: '', user_id: sharer.user.id, permission: 'admin' }, { key: s.admin1.key })).status).toBe(201);
  });
  afterAll(() => t.close());

  const makeLink = async (body: Record<string, unknown>): Promise<{ id: number; code: string }> => {
    const response = await t.api.post('/bundles', body, { key: sharer.key });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body;
  };
  const upload = (visitor: Visitor, code: string, path: string, words = 'dropped words') => visit(t, visitor, 'PUT', `${PUBLIC}/${code}/files/${encodePath(path)}`, { raw: words });
  const contents = async (path: string) => (await t.api.get(`/files/${encodePath(path)}`, { key: s.admin1.key })).body;
  const stored = async (path: string) => {
    const response = await fetch(`${t.baseUrl}/api/rest/v1/files/${encodePath(path)}`, { headers: { 'X-ServiceAPI-Key': s.admin1.key } });
    const entry = (await response.json()) as { download_uri?: string };
    return entry.download_uri === undefined ? undefined : (await fetch(entry.download_uri)).text();
  };

  it('puts each visit\'s files into a folder of its own, named once per visit, and renames a taken name', async () => {
    const link = await makeLink({ paths: ['Inbox'], permissions: 'write' });
    const first: Visitor = {};
    expect((await visit(t, first, 'GET', `${PUBLIC}/${link.code}`)).body.can).toEqual({ list: false, download: false, preview: false, upload: true, delete: false });
    const folder = `Inbox/upload ${stamp(t.clock.now())}`;
    expect(folder).toBe('Inbox/upload 2026-03-04 05-06-07');
    const one = await upload(first, link.code, 'Inbox/report.txt', 'first');
    expect([one.status, one.body]).toEqual([201, { path: `${folder}/report.txt`, name: 'report.txt', size: 5 }]);
    // Another visit in the same second gets a folder of its own.
    const second: Visitor = {};
    expect((await upload(second, link.code, 'Inbox/report.txt', 'other')).body.path).toBe(`${folder} (1)/report.txt`);
    t.clock.advance(5000);
    const again = await upload(first, link.code, 'Inbox/report.txt', 'second');
    expect(again.body).toEqual({ path: `${folder}/report (1).txt`, name: 'report (1).txt', size: 6 });
    const nested = await upload(first, link.code, 'Inbox/photos/summer/a.jpg', 'jpeg');
    expect(nested.body.path).toBe(`${folder}/photos/summer/a.jpg`);
    expect(await stored(`${folder}/report.txt`)).toBe('first');
    expect(await stored(`${folder}/report (1).txt`)).toBe('second');
    expect(await stored(`${folder} (1)/report.txt`)).toBe('other');
    // A write-only visitor reads nothing, and is shown nobody's submission folder, its own neither.
    expect((await visit(t, first, 'GET', `${PUBLIC}/${link.code}/entries`)).body.entries.map((e: { path: string }) => e.path)).toEqual(['Inbox']);
    expect((await visit(t, first, 'GET', `${PUBLIC}/${link.code}/entries?path=Inbox`)).body).toEqual({ entries: [] });
    expect((await visit(t, second, 'GET', `${PUBLIC}/${link.code}/entries?path=${encodeURIComponent(`${folder}`)}`)).body).toEqual({ entries: [] });
    const read = await visit(t, first, 'GET', `${PUBLIC}/${link.code}/files/${encodePath(one.body.path)}`);
    expect([read.status, read.body.type]).toEqual([403, 'not-authorized/read-permission-required']);
    expect(Object.fromEntries(await unzip((await visit(t, first, 'GET', `${PUBLIC}/${link.code}/zip`)).bytes))).toEqual({});

    const actions = await t.api.get(`/bundle_actions?bundle_id=${link.id}`, { key: sharer.key });
    expect(actions.body.map((a: { action: string; path: string }) => [a.action, a.path])).toEqual([
      ['create', folder], ['create', `${folder}/report.txt`], ['create', `${folder} (1)`], ['create', `${folder} (1)/report.txt`],
      ['create', `${folder}/report (1).txt`], ['create', `${folder}/photos/summer/a.jpg`],
    ]);
    const created = await t.database.db.selectFrom('history').selectAll().where('action', '=', 'create').where('path', '=', `_/Workspaces/${s.ws1}/${folder}/report.txt`).execute();
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ interface: 'web', user_id: sharer.user.id });
    expect(JSON.parse(created[0]?.targets ?? '{}').bundle).toMatchObject({ id: link.id, code: link.code });
  });

  it('names the folder from the link\'s path template, in its time zone, with what the visitor registered', async () => {
    const link = await makeLink({
      paths: ['Open'], permissions: 'read_write', require_registration: true, skip_company: true, path_template: '{{name}} {{date}} {{time}} {{unknown}}',
      path_template_time_zone: 'Tokyo',
    });
    const visitor: Visitor = {};
    expect((await visit(t, visitor, 'POST', `${PUBLIC}/${link.code}/visits`, { json: { name: 'Ann/../Lee', email: 'ann@example.com' } })).status).toBe(201);
    const made = await upload(visitor, link.code, 'Open/notes.txt');
    // Tokyo is 9 hours ahead of UTC; an unknown token stands for nothing, a separator becomes '-'.
    const name = `Ann-..-Lee ${stamp(t.clock.now() + 9 * 3600_000)}`;
    expect(made.body.path).toBe(`Open/${name}/notes.txt`);
    expect((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/entries?path=Open`)).body.entries.map((e: { name: string }) => e.name)).toEqual([name]);
  });

  it('uploads straight into the shared folder when asked, files only when asked, and replaces on a full link', async () => {
    const flat = await makeLink({ paths: ['Flat'], permissions: 'read_write', dont_separate_submissions_by_folder: true });
    const visitor: Visitor = {};
    expect((await upload(visitor, flat.code, 'Flat/x.txt', 'one')).body.path).toBe('Flat/x.txt');
    expect((await upload(visitor, flat.code, 'Flat/x.txt', 'two')).body.path).toBe('Flat/x (1).txt');
    expect((await upload(visitor, flat.code, 'Flat/.hidden', 'dot')).body.path).toBe('Flat/.hidden');
    expect((await upload(visitor, flat.code, 'Flat/.hidden', 'dot')).body.path).toBe('Flat/.hidden (1)');

    const filesOnly = await makeLink({ paths: ['Files'], permissions: 'write', dont_allow_folders_in_uploads: true });
    const dropper: Visitor = {};
    expect((await visit(t, dropper, 'GET', `${PUBLIC}/${filesOnly.code}`)).body.dont_allow_folders_in_uploads).toBe(true);
    const refused = await upload(dropper, filesOnly.code, 'Files/dir/x.txt');
    expect([refused.status, refused.body.type, Object.keys(refused.body.model_errors)]).toEqual([400, 'bad-request/request-params-invalid', ['path']]);
    expect((await upload(dropper, filesOnly.code, 'Files/x.txt')).status).toBe(201);

    const whole = await makeLink({ paths: ['Whole'], permissions: 'full', dont_separate_submissions_by_folder: true });
    const owner: Visitor = {};
    expect((await upload(owner, whole.code, 'Whole/y.txt', 'old')).body.path).toBe('Whole/y.txt');
    expect((await upload(owner, whole.code, 'Whole/y.txt', 'new')).body).toEqual({ path: 'Whole/y.txt', name: 'y.txt', size: 3 });
    expect(await stored('Whole/y.txt')).toBe('new');
    expect((await visit(t, owner, 'DELETE', `${PUBLIC}/${whole.code}/files/Whole/y.txt`)).status).toBe(204);
    expect((await t.api.get('/files/Whole/y.txt', { key: s.admin1.key })).status).toBe(404);
    // Never the shared folder itself.
    expect((await visit(t, owner, 'DELETE', `${PUBLIC}/${whole.code}/files/Whole`)).status).toBe(403);
    const actions = await t.api.get(`/bundle_actions?bundle_id=${whole.id}`, { key: sharer.key });
    expect(actions.body.map((a: { action: string }) => a.action)).toEqual(['create', 'update', 'destroy']);
    // Not on a read-write link.
    expect((await visit(t, visitor, 'DELETE', `${PUBLIC}/${flat.code}/files/Flat/x.txt`)).status).toBe(403);
    expect(await contents('Flat/x.txt')).toMatchObject({ path: 'Flat/x.txt' });
  });

  it('refuses a file larger than the server takes, as the REST API does, and a path that names no file', async () => {
    const link = await makeLink({ paths: ['Flat'], permissions: 'write', dont_separate_submissions_by_folder: true });
    const visitor: Visitor = {};
    const big = await visit(t, visitor, 'PUT', `${PUBLIC}/${link.code}/files/Flat/big.bin`, { raw: Buffer.alloc(MAX_UPLOAD + 1) });
    const rest = await t.api.call('PUT', '/files/Flat/big.bin', { key: s.admin1.key, rawBody: 'x'.repeat(MAX_UPLOAD + 1), headers: { 'content-type': 'application/octet-stream' } });
    expect([big.status, big.body.type]).toEqual([rest.status, rest.body.type]);
    expect(big.body.type).toBe('bad-request/request-body-too-large');
    // The link's top, and a shared folder itself, are no file.
    expect((await visit(t, visitor, 'PUT', `${PUBLIC}/${link.code}/files/`, { raw: 'x' })).status).toBe(404);
    expect((await visit(t, visitor, 'PUT', `${PUBLIC}/${link.code}/files/Flat`, { raw: 'x' })).body.type).toBe('bad-request/invalid-path');
    expect((await visit(t, visitor, 'PUT', `${PUBLIC}/${link.code}/files/Elsewhere/x.txt`, { raw: 'x' })).status).toBe(404);
  });
});
