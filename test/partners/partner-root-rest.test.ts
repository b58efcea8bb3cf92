import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, unique } from '../support/factories.js';
import { buildSite, type SiteFixture } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { buildPartnerRoot, PARTNER_PASSWORD } from './partner-root-site.js';

/**
 * The `partner_root` layout over the REST API (docs/partners.md, "The Partner root"): a Partner
 * user names and is shown every path relative to its Partner's root folder, can name nothing
 * outside it, cannot delete, move or replace it, and follows it when the Partner's root folder
 * changes.
 */
describe.each(testDatabaseTargets())('the Partner root over REST [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  beforeAll(async () => {
    t = await startTestApp(target);
    s = await buildSite(t);
  });
  afterAll(() => t.close());

  const put = (path: string, text: string, key: string) =>
    t.api.call('PUT', `/files/${path}`, { key, rawBody: text, headers: { 'content-type': 'application/octet-stream' } });
  const siteEntry = (path: string) => t.database.db.selectFrom('entries').select(['path', 'type']).where('path_key', '=', path.toLowerCase()).executeTakeFirst();

  const partnerSite = (grant: string | null = 'full') => buildPartnerRoot(t, s, grant);

  it('shows the Partner root as `/`: its children listed, read and written by paths relative to it', async () => {
    const p = await partnerSite();
    const listed = await t.api.get('/folders/', { key: p.key });
    expect(listed.status).toBe(200);
    expect(listed.body.map((entry: { path: string }) => entry.path).sort()).toEqual(['docs', 'hello.txt']);
    const stat = await t.api.get('/files/hello.txt', { key: p.key });
    expect(stat.status).toBe(200);
    expect(stat.body).toMatchObject({ path: 'hello.txt', type: 'file', size: 5 });
    expect((await t.api.get('/files/hello.txt?action=stream', { key: p.key })).text).toBe('hello');
    expect((await t.api.get('/folders/docs', { key: p.key })).body.map((entry: { path: string }) => entry.path)).toEqual(['docs/a.txt']);
    // A session answers the same as the user's API key.
    const signedIn = await t.api.post('/sessions', { username: p.username, password: PARTNER_PASSWORD });
    expect(signedIn.status).toBe(201);
    const bySession = await t.api.get('/folders/', { session: signedIn.body.id });
    expect(bySession.body.map((entry: { path: string }) => entry.path).sort()).toEqual(['docs', 'hello.txt']);

    const written = await put('docs/new.txt', 'new', p.key);
    expect(written.status).toBe(201);
    expect(written.body.path).toBe('docs/new.txt');
    expect(await siteEntry(`${p.site}/docs/new.txt`)).toEqual({ path: `${p.site}/docs/new.txt`, type: 'file' });
    const folder = await t.api.post('/folders/made', {}, { key: p.key });
    expect(folder.status).toBe(201);
    expect(folder.body.path).toBe('made');
    expect(await siteEntry(`${p.site}/made`)).toMatchObject({ type: 'directory' });

    // A search of the whole root, and an upload's parts, are relative to it too.
    const searched = await t.api.get('/folders/?search_all=true&search=a.txt', { key: p.key });
    expect(searched.status).toBe(200);
    expect(searched.body.map((entry: { path: string }) => entry.path)).toEqual(['docs/a.txt']);
    const begun = await t.api.post('/file_actions/begin_upload/docs/big.bin', { size: 3 }, { key: p.key });
    expect(begun.status).toBe(200);
    expect(begun.body[0].path).toBe('docs/big.bin');
  });

  it('names nothing outside the root: `..` is refused, a sibling\'s name is a folder inside the root that is not there', async () => {
    const p = await partnerSite();
    for (const path of ['..%2Fx', `..%2F${encodeURIComponent(p.name)}-other%2Fsecret.txt`, 'docs%2F..%2F..%2Fx']) {
      const response = await t.api.get(`/files/${path}`, { key: p.key });
      expect(response.status, path).toBe(400);
      expect(response.body.type).toBe('bad-request/invalid-path');
    }
    const sibling = await t.api.get(`/folders/${encodeURIComponent(`${p.name}-other`)}`, { key: p.key });
    expect(sibling.status).toBe(404);
    expect(sibling.body.type).toBe('not-found/file-not-found');
    // Qualified paths are folders inside the root too.
    for (const path of [`_/Workspaces/${s.ws1}/${p.root}-other/secret.txt`, `${p.root}-other/secret.txt`, `Partners/${p.name}/hello.txt`]) {
      expect((await t.api.get(`/files/${path}`, { key: p.key })).status, path).toBe(404);
    }
    const escape = await t.api.post('/file_actions/copy/hello.txt', { destination: '../escaped.txt' }, { key: p.key });
    expect(escape.status).toBe(400);
    expect(escape.body.type).toBe('bad-request/invalid-path');
    // Writing a sibling's name makes a folder inside the root, never reaches the sibling.
    expect((await put(`${encodeURIComponent(`${p.name}-other`)}/secret.txt?mkdir_parents=true`, 'mine', p.key)).status).toBe(201);
    expect(await siteEntry(`${p.site}/${p.name}-other/secret.txt`)).toMatchObject({ type: 'file' });
    expect((await t.api.get(`/files/${p.root}-other/secret.txt?action=stream`, { key: s.admin1.key })).text).toBe('s');
  });

  it('cannot delete, move or replace its root', async () => {
    const p = await partnerSite();
    const refusals = [
      await t.api.delete('/files/?recursive=true', { key: p.key }),
      await t.api.post('/file_actions/move/docs', { destination: '' }, { key: p.key }),
      await t.api.post('/file_actions/copy/docs', { destination: '' }, { key: p.key }),
      await t.api.post('/folders/', {}, { key: p.key }),
    ];
    for (const refused of refusals) {
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.type).toBe('bad-request/invalid-path');
    }
    expect(await siteEntry(p.site)).toMatchObject({ type: 'directory' });
    expect((await t.api.get('/folders/', { key: p.key })).body.map((entry: { path: string }) => entry.path).sort()).toEqual(['docs', 'hello.txt']);
  });

  it('shows moves, copies, locks and its History relative to the root', async () => {
    const p = await partnerSite();
    expect((await t.api.post('/file_actions/move/docs/a.txt', { destination: 'moved/a.txt' }, { key: p.key })).status).toBe(201);
    expect((await t.api.post('/file_actions/copy/hello.txt', { destination: 'docs/copy.txt' }, { key: p.key })).status).toBe(201);
    expect(await siteEntry(`${p.site}/moved/a.txt`)).toMatchObject({ type: 'file' });
    const locked = await t.api.post('/locks/hello.txt', {}, { key: p.key });
    expect(locked.status).toBe(201);
    expect(locked.body.path).toBe('hello.txt');
    expect((await t.api.get('/locks/hello.txt', { key: p.key })).body.map((lock: { path: string }) => lock.path)).toEqual(['hello.txt']);

    const history = await t.api.get(`/history/users/${p.userId}`, { key: p.key });
    expect(history.status).toBe(200);
    const move = history.body.find((row: { action: string }) => row.action === 'move');
    expect(move).toMatchObject({ path: 'docs/a.txt', source: 'docs/a.txt', destination: 'moved/a.txt' });
    const copy = history.body.find((row: { action: string }) => row.action === 'copy');
    expect(copy).toMatchObject({ path: 'hello.txt', destination: 'docs/copy.txt' });
    // A file's History is asked for by its path in the root, and filters name paths in it.
    const ofFile = await t.api.get('/history/files/moved/a.txt', { key: p.key });
    expect(ofFile.body).toEqual([expect.objectContaining({ action: 'move', path: 'docs/a.txt', destination: 'moved/a.txt' })]);
    const filtered = await t.api.get('/history?filter[path]=docs/copy.txt', { key: p.key });
    expect(filtered.status).toBe(200);
    expect(filtered.body.map((row: { action: string }) => row.action)).toEqual(['copy']);
    const prefixed = await t.api.get('/history?filter_prefix[path]=mov', { key: p.key });
    // The folder the move made on its way (a prefix matches the recorded path as text).
    expect(prefixed.body.map((row: { action: string; path: string }) => `${row.action} ${row.path}`)).toEqual(['create moved']);
    // The Workspace's administrator sees the same records by their Workspace paths.
    const asAdmin = await t.api.get(`/history/users/${p.userId}`, { key: s.admin1.key });
    expect(asAdmin.body.find((row: { action: string }) => row.action === 'move')).toMatchObject({ destination: `${p.root}/moved/a.txt` });
  });

  it('follows its Partner\'s root folder: after a PATCH the next request is framed at the new one', async () => {
    const p = await partnerSite();
    // The first listing is kept in the read cache, under the frame it was made in.
    expect((await t.api.get('/folders/', { key: p.key })).body.map((entry: { path: string }) => entry.path).sort()).toEqual(['docs', 'hello.txt']);
    const moved = await t.api.patch(`/partners/${p.partnerId}`, { root_folder: 'Partners' }, { key: s.admin1.key });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    // The grant on the old root lies inside the new one: the old root is a folder on the way to it.
    const listed = await t.api.get('/folders/', { key: p.key });
    expect(listed.status).toBe(200);
    expect(listed.body.map((entry: { path: string }) => entry.path)).toEqual([p.name]);
    expect((await t.api.get(`/files/${p.name}/hello.txt?action=stream`, { key: p.key })).text).toBe('hello');
    expect((await t.api.get('/files/hello.txt', { key: p.key })).status).toBe(404);
    // The sibling lies in the new root but outside the grant: not seen.
    expect((await t.api.get(`/files/${p.name}-other/secret.txt`, { key: p.key })).status).toBe(404);
  });

  it('sees nothing without a Partner grant, and shows `partner_root` as its layout', async () => {
    const p = await partnerSite(null);
    const listed = await t.api.get('/folders/', { key: p.key });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([]);
    expect((await t.api.get('/files/hello.txt', { key: p.key })).status).toBe(404);

    const shown = await t.api.get(`/users/${p.userId}`, { key: s.admin1.key });
    expect(shown.body).toMatchObject({ filesystem_layout: 'partner_root', partner_id: p.partnerId });
    expect((await t.api.get(`/users/${s.member1.user.id}`, { key: s.admin1.key })).body.filesystem_layout).toBe('workspace_root');
    expect((await t.api.get(`/users/${s.delegate.user.id}`, { key: BOOTSTRAP_KEY })).body.filesystem_layout).toBe('site_root');
    // Sent back as it is, no change; another value is refused, naming the field.
    expect((await t.api.patch(`/users/${p.userId}`, { filesystem_layout: 'partner_root', name: 'Pat' }, { key: s.admin1.key })).status).toBe(200);
    const refused = await t.api.patch(`/users/${p.userId}`, { filesystem_layout: 'site_root' }, { key: s.admin1.key });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ type: 'processing-failure/model-save-error', model_errors: { filesystem_layout: [expect.any(String)] } });
    const created = await t.api.post('/users', { username: unique('pu'), partner_id: p.partnerId, filesystem_layout: 'workspace_root' }, { key: s.admin1.key });
    expect(created.status).toBe(422);
    expect(created.body.model_errors).toHaveProperty('filesystem_layout');
    expect((await t.api.post('/users', { username: unique('pu'), partner_id: p.partnerId, filesystem_layout: 'partner_root' }, { key: s.admin1.key })).status).toBe(201);
  });

  it('keeps a Partner user of Workspace 0 in its Partner\'s Workspace', async () => {
    const name = unique('Zero');
    const partner = await t.api.post('/partners', { name, root_folder: `Partners/${name}`, workspace_id: 0 }, { key: BOOTSTRAP_KEY });
    expect(partner.status).toBe(201);
    const user = await t.api.post('/users', { username: unique('pu'), partner_id: partner.body.id }, { key: BOOTSTRAP_KEY });
    expect(user.status).toBe(201);
    const key = await createApiKey(t.database.db, { userId: user.body.id, workspaceId: 0 });
    const selected = await t.api.get('/folders/', { key, workspace: s.ws1 });
    expect(selected.status).toBe(400);
    expect(selected.body.type).toBe('bad-request/invalid-workspace-id-header');
    // In its own Workspace, the reserved folder's name is a folder inside its root like any other.
    const reserved = await t.api.get(`/folders/_/Workspaces/${s.ws1}`, { key });
    expect(reserved.status).toBe(404);
    expect((await t.api.get('/folders/', { key })).status).toBe(200);
  });
});
