import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_PASSWORD_FAILURES_PER_HOUR, LINK_PASSWORD_FAILURES_PER_HOUR } from '../../src/bundles/index.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, unique } from '../support/factories.js';
import { buildSite, type SiteFixture } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { encodePath, PUBLIC, rawGet, unzip, visit, type Visitor } from './public-link-support.js';

const NOT_FOUND = { type: 'not-found/bundle-not-found', 'http-code': 404, title: 'Bundle Not Found', error: 'This link does not exist or is no longer available.' };

/**
 * The public share-link API (docs/sharing.md#visiting-a-link) through HTTP, as a visitor without
 * an account: what a link shows, its password and registration, its files through the link's
 * reach only, ZIPs, and what is recorded.
 */
describe.each(testDatabaseTargets())('visiting a share link [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  /** Folder Admin of `Shared` (so it may share it, and write there). */
  let sharer: { user: { id: number; username: string }; key: string };

  beforeAll(async () => {
    t = await startTestApp(target, { trustProxy: true });
    s = await buildSite(t);
    sharer = s.member1;
    const admin = { key: s.admin1.key };
    for (const folder of ['Shared/sub', 'Shared/Drop', 'Other', 'Shared-beside']) expect((await t.api.post(`/folders/${folder}`, { mkdir_parents: true }, admin)).status).toBe(201);
    for (const [path, words] of [
      ['Shared/a.txt', 'alpha'], ['Shared/sub/b.txt', 'beta'], ['Shared/page.html', '<script>alert(1)</script>'], ['Shared/pic.png', 'not really a png'],
      ['Other/secret.txt', 'secret words'], ['Shared-beside/x.txt', 'beside words'], ['Other/report.txt', 'other report'],
    ]) await putFile(path as string, words as string);
    expect((await t.api.post('/permissions', { path: 'Shared', user_id: sharer.user.id, permission: 'admin' }, admin)).status).toBe(201);
    expect((await t.api.post('/permissions', { path: 'Other/report.txt', user_id: sharer.user.id, permission: 'bundle' }, admin)).status).toBe(201);
  });
  afterAll(() => t.close());
  afterEach(async () => {
    await t.api.patch('/site', { sharing_enabled: true, bundle_not_found_message: '', revoke_bundle_access_on_disable_or_delete: true }, { key: BOOTSTRAP_KEY });
  });

  async function putFile(path: string, words: string): Promise<void> {
    const response = await t.api.call('PUT', `/files/${encodePath(path)}`, { key: s.admin1.key, rawBody: words, headers: { 'content-type': 'application/octet-stream' } });
    expect(response.status).toBe(201);
  }
  const makeLink = async (body: Record<string, unknown>, key = sharer.key): Promise<{ id: number; code: string }> => {
    const response = await t.api.post('/bundles', body, { key });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body;
  };
  const history = (action: string) => t.database.db.selectFrom('history').selectAll().where('action', '=', action).orderBy('id').execute();
  const targets = (row: { targets: string | null } | undefined) => JSON.parse(row?.targets ?? 'null');
  const errorOf = (answer: { body: any }) => ({ ...answer.body, instance: undefined });

  it('shows an open link and lists, downloads and previews what it shares, through its reach only', async () => {
    const link = await makeLink({ paths: ['Shared', 'Other/report.txt'], description: 'For you' });
    const visitor: Visitor = {};
    const facts = await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}`);
    expect(facts.status).toBe(200);
    expect(facts.body).toEqual({
      code: link.code, description: 'For you', permissions: 'read', expires_at: null, password_protected: false, require_registration: false, unlocked: true,
      can: { list: true, download: true, preview: true, upload: false, delete: false }, dont_allow_folders_in_uploads: false, max_upload_bytes: expect.any(Number),
    });
    expect(visitor.cookie).toBeUndefined();

    const top = await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/entries`);
    expect(top.status).toBe(200);
    expect(top.body.entries.map((e: { path: string; type: string }) => [e.path, e.type])).toEqual([['Shared', 'directory'], ['report.txt', 'file']]);
    expect(visitor.cookie).toMatch(/^atrium_link=[A-Za-z0-9_-]{43}$/);
    const shared = await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/entries?path=Shared`);
    expect(shared.body.entries).toEqual([
      { path: 'Shared/Drop', name: 'Drop', type: 'directory', size: null, modified_at: expect.any(String), mime_type: null, previewable: false },
      { path: 'Shared/sub', name: 'sub', type: 'directory', size: null, modified_at: expect.any(String), mime_type: null, previewable: false },
      { path: 'Shared/a.txt', name: 'a.txt', type: 'file', size: 5, modified_at: expect.any(String), mime_type: 'text/plain', previewable: true },
      { path: 'Shared/page.html', name: 'page.html', type: 'file', size: 25, modified_at: expect.any(String), mime_type: 'text/html', previewable: false },
      { path: 'Shared/pic.png', name: 'pic.png', type: 'file', size: 16, modified_at: expect.any(String), mime_type: 'image/png', previewable: true },
    ]);

    const download = await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/files/Shared/sub/b.txt`);
    expect(download.status).toBe(200);
    expect(download.bytes.toString()).toBe('beta');
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="b.txt"; filename*=UTF-8\'\'b.txt');
    expect(download.headers.get('content-security-policy')).toBe('sandbox');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    const shown = await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/files/Shared/a.txt?disposition=inline`);
    expect([shown.status, shown.headers.get('content-type'), shown.headers.get('content-disposition')?.split(';')[0]]).toEqual([200, 'text/plain', 'inline']);
    // HTML is never shown in the page, whatever is asked.
    const html = await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/files/Shared/page.html?disposition=inline`);
    expect([html.headers.get('content-type'), html.headers.get('content-disposition')?.split(';')[0]]).toEqual(['application/octet-stream', 'attachment']);
    const part = await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/files/report.txt`, { headers: { range: 'bytes=6-' } });
    expect([part.status, part.bytes.toString(), part.headers.get('content-range')]).toEqual([206, 'report', 'bytes 6-11/12']);

    // The records: downloads as BundleDownloads, the preview as a BundleAction, History naming the link.
    const downloads = await t.api.get(`/bundle_downloads?bundle_id=${link.id}`, { key: sharer.key });
    expect(downloads.body.map((d: { download_method: string; path: string }) => [d.download_method, d.path])).toEqual([
      ['file', 'Shared/sub/b.txt'], ['file', 'Shared/page.html'],
    ]);
    const actions = await t.api.get(`/bundle_actions?bundle_id=${link.id}`, { key: sharer.key });
    expect(actions.body.map((a: { action: string; path: string }) => [a.action, a.path])).toEqual([['read', 'Shared/a.txt']]);
    const read = (await history('read')).filter((row) => row.path === `_/Workspaces/${s.ws1}/Shared/sub/b.txt`).at(-1);
    expect(read).toMatchObject({ interface: 'web', user_id: sharer.user.id, ip: '127.0.0.1' });
    expect(targets(read).bundle).toEqual({ id: link.id, code: link.code, registration_id: null });

    // Beside the link: nothing.
    expect((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/files/Other/secret.txt`)).status).toBe(404);
    expect((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/entries?path=Other`)).body.type).toBe('not-found/file-not-found');
    // A read link uploads and deletes nothing: the session refuses.
    expect((await visit(t, visitor, 'PUT', `${PUBLIC}/${link.code}/files/Shared/new.txt`, { raw: 'x' })).status).toBe(403);
    expect((await visit(t, visitor, 'DELETE', `${PUBLIC}/${link.code}/files/Shared/a.txt`)).status).toBe(403);
    expect((await t.api.get('/files/Shared/a.txt', { key: s.admin1.key })).status).toBe(200);
  });

  it('answers the same 404 for a link that is unknown, expired, not started, used up, deleted, ended with its creator, or while sharing is off', async () => {
    const now = t.clock.now();
    const closed: { code: string; path: string }[] = [];
    const entriesOf = (code: string) => visit(t, {}, 'GET', `${PUBLIC}/${code}/entries`);
    const expectNotFound = async (code: string, why: string) => {
      for (const path of [`${PUBLIC}/${code}`, `${PUBLIC}/${code}/entries`, `${PUBLIC}/${code}/files/Shared/a.txt`, `${PUBLIC}/${code}/zip`]) {
        const answer = await visit(t, {}, 'GET', path);
        expect([answer.status, errorOf(answer)], `${why}: ${path}`).toEqual([404, { ...NOT_FOUND, instance: undefined }]);
      }
      expect((await visit(t, {}, 'POST', `${PUBLIC}/${code}/visits`, { json: {} })).status, why).toBe(404);
      expect((await visit(t, {}, 'PUT', `${PUBLIC}/${code}/files/Shared/x.txt`, { raw: 'x' })).status, why).toBe(404);
      closed.push({ code, path: why });
    };
    await expectNotFound('noSuchLinkCode1234567', 'unknown');

    const expiring = await makeLink({ paths: ['Shared'], expires_at: new Date(now + 60_000).toISOString() });
    expect((await entriesOf(expiring.code)).status).toBe(200);
    const later = await makeLink({ paths: ['Shared'], start_access_on_date: new Date(now + 60_000).toISOString() });
    await expectNotFound(later.code, 'not started');
    t.clock.advance(61_000);
    await expectNotFound(expiring.code, 'expired');
    expect((await entriesOf(later.code)).status).toBe(200);

    const once = await makeLink({ paths: ['Shared'], max_uses: 1 });
    const first: Visitor = {};
    expect((await visit(t, first, 'GET', `${PUBLIC}/${once.code}/entries`)).status).toBe(200);
    // The visitor who used it goes on; nobody else comes in.
    expect((await visit(t, first, 'GET', `${PUBLIC}/${once.code}`)).status).toBe(200);
    expect((await visit(t, first, 'GET', `${PUBLIC}/${once.code}/files/Shared/a.txt`)).status).toBe(200);
    await expectNotFound(once.code, 'used up');

    const deleted = await makeLink({ paths: ['Shared'] });
    expect((await t.api.delete(`/bundles/${deleted.id}`, { key: sharer.key })).status).toBe(204);
    await expectNotFound(deleted.code, 'deleted');

    const leaver = await createUser(t.database.db, { workspaceId: s.ws1, username: unique('leaver') });
    const leaverKey = await createApiKey(t.database.db, { userId: leaver.id, workspaceId: s.ws1 });
    expect((await t.api.post('/permissions', { path: 'Shared/sub', user_id: leaver.id, permission: 'bundle' }, { key: s.admin1.key })).status).toBe(201);
    const disabledsLink = await makeLink({ paths: ['Shared/sub'] }, leaverKey);
    expect((await t.api.patch(`/users/${leaver.id}`, { disabled: true }, { key: s.admin1.key })).status).toBe(200);
    await expectNotFound(disabledsLink.code, 'creator disabled');
    expect((await t.api.patch(`/users/${leaver.id}`, { disabled: false }, { key: s.admin1.key })).status).toBe(200);
    expect((await entriesOf(disabledsLink.code)).status).toBe(200);
    expect((await t.api.delete(`/users/${leaver.id}`, { key: s.admin1.key })).status).toBe(204);
    await expectNotFound(disabledsLink.code, 'creator deleted');

    const open = await makeLink({ paths: ['Shared'] });
    expect((await t.api.patch('/site', { sharing_enabled: false }, { key: BOOTSTRAP_KEY })).status).toBe(200);
    await expectNotFound(open.code, 'sharing off');
    expect((await t.api.patch('/site', { sharing_enabled: true, bundle_not_found_message: 'Ask us for a new link.' }, { key: BOOTSTRAP_KEY })).status).toBe(200);
    expect((await entriesOf(open.code)).status).toBe(200);
    // In the site's own words, for every link still closed (the one not started then has started, sharing is on again).
    for (const { code, path } of closed.filter((c) => c.path !== 'not started' && c.path !== 'sharing off')) expect((await visit(t, {}, 'GET', `${PUBLIC}/${code}`)).body?.error, path).toBe('Ask us for a new link.');
  });

  it('asks for the password before anything else, records each wrong one, and limits them per address and per link', async () => {
    const password = unique('link password');
    const link = await makeLink({ paths: ['Shared'], password });
    const visitor: Visitor = { address: '203.0.113.1' };
    expect((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}`)).body).toMatchObject({ password_protected: true, unlocked: false });
    for (const path of [`/entries`, `/files/Shared/a.txt`, `/zip`]) {
      const refused = await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}${path}`);
      expect([refused.status, refused.body.type]).toEqual([401, 'not-authenticated/bundle-visit-required']);
    }
    const before = (await history('bundle_password_failed')).length;
    const wrong = await visit(t, visitor, 'POST', `${PUBLIC}/${link.code}/visits`, { json: { password: 'not it' } });
    expect([wrong.status, wrong.body.type, visitor.cookie]).toEqual([401, 'not-authenticated/bundle-password-incorrect', undefined]);
    const recorded = (await history('bundle_password_failed')).slice(before);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ interface: 'web', ip: '203.0.113.1', workspace_id: s.ws1, user_id: null, failure_type: 'password_mismatch' });
    expect(targets(recorded[0]).bundle).toEqual({ id: link.id, code: link.code, registration_id: null });
    expect(JSON.stringify(recorded)).not.toContain('not it');

    const right = await visit(t, visitor, 'POST', `${PUBLIC}/${link.code}/visits`, { json: { password } });
    expect([right.status, right.body]).toEqual([201, { unlocked: true }]);
    const cookie = right.headers.get('set-cookie') as string;
    expect(cookie).toMatch(new RegExp(`^atrium_link=[A-Za-z0-9_-]{43}; Path=/api/public/bundles/${link.code}; HttpOnly; SameSite=Strict$`));
    const token = (visitor.cookie as string).split('=')[1] as string;
    const stored = await t.database.db.selectFrom('bundle_visits').select('token_hash').where('bundle_id', '=', link.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0]?.token_hash).not.toContain(token);
    expect((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}`)).body.unlocked).toBe(true);
    expect((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/files/Shared/a.txt`)).bytes.toString()).toBe('alpha');
    // A made-up cookie, or this link's cookie on another link, opens nothing.
    expect((await visit(t, { cookie: 'atrium_link=' + 'A'.repeat(43) }, 'GET', `${PUBLIC}/${link.code}/entries`)).status).toBe(401);
    const other = await makeLink({ paths: ['Shared'], password });
    expect((await visit(t, { cookie: visitor.cookie as string }, 'GET', `${PUBLIC}/${other.code}/entries`)).status).toBe(401);

    // Per address: after the limit, even the right password waits; another address does not.
    const guesser: Visitor = { address: '198.51.100.7' };
    for (let i = 1; i < CLIENT_PASSWORD_FAILURES_PER_HOUR; i += 1) expect((await visit(t, guesser, 'POST', `${PUBLIC}/${other.code}/visits`, { json: { password: `guess ${i}` } })).status).toBe(401);
    expect((await visit(t, guesser, 'POST', `${PUBLIC}/${link.code}/visits`, { json: { password: 'guess' } })).status).toBe(401);
    const limited = await visit(t, guesser, 'POST', `${PUBLIC}/${link.code}/visits`, { json: { password } });
    expect([limited.status, limited.body.type]).toEqual([429, 'rate-limited/too-many-bundle-password-attempts']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await visit(t, { address: '198.51.100.8' }, 'POST', `${PUBLIC}/${link.code}/visits`, { json: { password } })).status).toBe(201);
    t.clock.advanceMinutes(61);
    expect((await visit(t, guesser, 'POST', `${PUBLIC}/${link.code}/visits`, { json: { password } })).status).toBe(201);

    // Per link: many addresses guessing one link stop it for everyone, for a while.
    const target = await makeLink({ paths: ['Shared'], password });
    for (let i = 0; i < LINK_PASSWORD_FAILURES_PER_HOUR; i += 1) {
      expect((await visit(t, { address: `192.0.2.${i + 1}` }, 'POST', `${PUBLIC}/${target.code}/visits`, { json: { password: 'guess' } })).status).toBe(401);
    }
    expect((await visit(t, { address: '192.0.2.200' }, 'POST', `${PUBLIC}/${target.code}/visits`, { json: { password } })).status).toBe(429);
    expect((await visit(t, { address: '192.0.2.200' }, 'POST', `${PUBLIC}/${link.code}/visits`, { json: { password } })).status).toBe(201);
  }, 120_000);

  it('registers its visitors when asked: each field unless skipped, recorded with what they do', async () => {
    const link = await makeLink({ paths: ['Shared'], require_registration: true, skip_company: true });
    expect((await t.api.post(`/bundles/${link.id}/share`, { to: ['Ann@Example.com'] }, { key: sharer.key })).status).toBe(204);
    const visitor: Visitor = {};
    expect((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}`)).body).toMatchObject({ require_registration: true, unlocked: false });
    expect((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/entries`)).body.type).toBe('not-authenticated/bundle-visit-required');
    for (const [body, field] of [[{ email: 'ann@example.com' }, 'name'], [{ name: 'Ann' }, 'email'], [{ name: 'Ann', email: 'not an address' }, 'email']] as const) {
      const refused = await visit(t, visitor, 'POST', `${PUBLIC}/${link.code}/visits`, { json: body });
      expect([refused.status, refused.body.type, Object.keys(refused.body.model_errors ?? {})]).toEqual([400, 'bad-request/request-params-invalid', [field]]);
    }
    expect((await visit(t, visitor, 'POST', `${PUBLIC}/${link.code}/visits`, { json: { name: 'Ann', email: 'ann@example.com' } })).status).toBe(201);
    expect((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/files/Shared/a.txt`)).status).toBe(200);
    const registrations = await t.api.get(`/bundle_registrations?bundle_id=${link.id}`, { key: sharer.key });
    expect(registrations.body).toEqual([expect.objectContaining({ name: 'Ann', email: 'ann@example.com', company: null, ip: '127.0.0.1', bundle_code: link.code })]);
    const registrationId = registrations.body[0].id;
    const actions = await t.api.get(`/bundle_actions?bundle_id=${link.id}`, { key: sharer.key });
    expect(actions.body.map((a: { action: string }) => a.action)).toEqual(['registration']);
    const downloads = await t.api.get(`/bundle_downloads?bundle_id=${link.id}`, { key: sharer.key });
    expect(downloads.body).toEqual([expect.objectContaining({ download_method: 'file', bundle_registration: expect.objectContaining({ id: registrationId }) })]);
    const recipients = await t.api.get(`/bundle_recipients?bundle_id=${link.id}&filter[has_registrations]=true`, { key: sharer.key });
    expect(recipients.body.map((r: { recipient: string }) => r.recipient)).toEqual(['Ann@Example.com']);
    const read = (await history('read')).at(-1);
    expect(targets(read).bundle).toEqual({ id: link.id, code: link.code, registration_id: registrationId });
  });

  it('streams a folder, or all it shares, as a ZIP that holds exactly its files; a preview-only link shows and never downloads', async () => {
    const link = await makeLink({ paths: ['Shared/sub', 'Shared/a.txt', 'Other/report.txt'] });
    const visitor: Visitor = {};
    const all = await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/zip`);
    expect([all.status, all.headers.get('content-type'), all.headers.get('content-disposition')]).toEqual([
      200, 'application/zip', 'attachment; filename="shared-files.zip"; filename*=UTF-8\'\'shared-files.zip',
    ]);
    expect(Object.fromEntries(await unzip(all.bytes))).toEqual({ 'sub/': '', 'sub/b.txt': 'beta', 'a.txt': 'alpha', 'report.txt': 'other report' });
    const folder = await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/zip?path=sub`);
    expect(folder.headers.get('content-disposition')).toContain('filename="sub.zip"');
    expect(Object.fromEntries(await unzip(folder.bytes))).toEqual({ 'b.txt': 'beta' });
    const downloads = await t.api.get(`/bundle_downloads?bundle_id=${link.id}`, { key: sharer.key });
    expect(downloads.body.map((d: { download_method: string; path: string | null }) => [d.download_method, d.path])).toEqual([
      ['full_zip', null], ['full_zip', 'Shared/sub'],
    ]);

    const preview = await makeLink({ paths: ['Shared'], permissions: 'preview_only' });
    const looker: Visitor = {};
    expect((await visit(t, looker, 'GET', `${PUBLIC}/${preview.code}`)).body.can).toEqual({ list: true, download: false, preview: true, upload: false, delete: false });
    for (const path of ['/zip', '/files/Shared/a.txt', '/files/Shared/a.txt?disposition=attachment', '/files/Shared/page.html?disposition=inline']) {
      const refused = await visit(t, looker, 'GET', `${PUBLIC}/${preview.code}${path}`);
      expect([refused.status, refused.body.type], path).toEqual([422, 'processing-failure/bundle-only-allows-previews']);
    }
    const picture = await visit(t, looker, 'GET', `${PUBLIC}/${preview.code}/files/Shared/pic.png?disposition=inline`);
    expect([picture.status, picture.headers.get('content-type'), picture.headers.get('content-security-policy')]).toEqual([200, 'image/png', 'sandbox']);
  });

  it('names two shared paths of the same name apart at the link\'s top', async () => {
    expect((await t.api.post('/folders/Shared/Drop/sub', {}, { key: s.admin1.key })).status).toBe(201);
    await putFile('Shared/Drop/sub/c.txt', 'gamma');
    const link = await makeLink({ paths: ['Shared/sub', 'Shared/Drop/sub'] });
    const visitor: Visitor = {};
    expect((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/entries`)).body.entries.map((e: { path: string }) => e.path)).toEqual(['sub', 'sub (2)']);
    expect((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/entries?path=${encodeURIComponent('sub (2)')}`)).body.entries.map((e: { path: string }) => e.path)).toEqual(['sub (2)/c.txt']);
    expect((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/files/${encodePath('sub (2)/c.txt')}`)).bytes.toString()).toBe('gamma');
    expect(Object.fromEntries(await unzip((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/zip`)).bytes))).toEqual({
      'sub/': '', 'sub/b.txt': 'beta', 'sub (2)/': '', 'sub (2)/c.txt': 'gamma',
    });
  });

  it('ends the link\'s reach with its creator\'s: a grant deleted empties its top and hides its files', async () => {
    const creator = await createUser(t.database.db, { workspaceId: s.ws1, username: unique('creator') });
    const key = await createApiKey(t.database.db, { userId: creator.id, workspaceId: s.ws1 });
    const grant = await t.api.post('/permissions', { path: 'Shared/sub', user_id: creator.id, permission: 'bundle' }, { key: s.admin1.key });
    const link = await makeLink({ paths: ['Shared/sub'] }, key);
    const visitor: Visitor = {};
    expect((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/entries`)).body.entries.map((e: { path: string }) => e.path)).toEqual(['sub']);
    expect((await t.api.delete(`/permissions/${grant.body.id}`, { key: s.admin1.key })).status).toBe(204);
    expect((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/entries`)).body).toEqual({ entries: [] });
    const file = await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/files/sub/b.txt`);
    expect([file.status, file.body.type]).toEqual([404, 'not-found/file-not-found']);
    expect(Object.fromEntries(await unzip((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/zip`)).bytes))).toEqual({});
  });

  it('never reaches outside the link, however a path is spelled', async () => {
    const link = await makeLink({ paths: ['Shared/sub'] });
    const visitor: Visitor = {};
    expect((await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/entries`)).status).toBe(200);
    const cookie = visitor.cookie as string;
    const ws = s.ws1;
    const spellings = [
      '..', '../..', '../Other/secret.txt', 'sub/..', 'sub/../a.txt', 'sub/../../Other/secret.txt', '%2e%2e', '%2E%2E%2FOther%2Fsecret.txt', 'sub%2F..%2F..%2FOther%2Fsecret.txt',
      'sub/%2e%2e/a.txt', '/Other/secret.txt', '%2FOther%2Fsecret.txt', 'Other/secret.txt', 'a.txt', 'Shared/a.txt', 'Shared-beside/x.txt', 'sub/../../Shared-beside/x.txt',
      `_/Workspaces/${ws}/Other/secret.txt`, `%2F_%2FWorkspaces%2F${ws}%2FOther%2Fsecret.txt`, 'sub/b.txt%00', '%5C..%5COther%5Csecret.txt', 'sub/.', './sub/b.txt', 'sub//b.txt',
    ];
    for (const spelling of spellings) {
      for (const path of [`${PUBLIC}/${link.code}/files/${spelling}`, `${PUBLIC}/${link.code}/entries?path=${spelling}`, `${PUBLIC}/${link.code}/zip?path=${spelling}`]) {
        const answer = await rawGet(t, path, cookie);
        expect([400, 404], `${path}: ${answer.status} ${answer.body.slice(0, 200)}`).toContain(answer.status);
        for (const words of ['secret words', 'beside words', 'alpha']) expect(answer.body, path).not.toContain(words);
      }
    }
    expect((await rawGet(t, `${PUBLIC}/${link.code}/files/sub/b.txt`, cookie)).body).toBe('beta');
  });

  it('answers bad input with the documented error, never a 500', async () => {
    const link = await makeLink({ paths: ['Shared'], password: 'a link password' });
    const visitor: Visitor = {};
    const cases: [string, string, { json?: unknown; raw?: string; headers?: Record<string, string> }, number][] = [
      ['POST', '/visits', { json: { password: 12 } }, 400],
      // Fields the API does not know are dropped, as everywhere in the API.
      ['POST', '/visits', { json: { password: 'x', extra: 'field' } }, 401],
      ['POST', '/visits', { raw: '{not json', headers: { 'content-type': 'application/json' } }, 400],
      ['POST', '/visits', { json: { password: 'x'.repeat(5000) } }, 401],
    ];
    for (const [method, path, options, status] of cases) {
      const answer = await visit(t, visitor, method, `${PUBLIC}/${link.code}${path}`, options);
      expect([answer.status, typeof answer.body?.type], `${method} ${path} ${JSON.stringify(options).slice(0, 80)}`).toEqual([status, 'string']);
    }
    expect((await visit(t, visitor, 'POST', `${PUBLIC}/${link.code}/visits`, { json: { password: 'a link password' } })).status).toBe(201);
    const asked: [string, number][] = [
      ['/entries?path=Shared%2Fa.txt%01', 400], ['/entries?path=Shared/a.txt', 200], ['/zip?path=Shared/a.txt', 400], ['/files/Shared', 400],
      ['/files/Shared/%C3', 400], ['/files/Shared/a.txt?disposition=sideways', 400], ['/entries?path=Shared/nothing', 404],
    ];
    for (const [path, status] of asked) {
      const answer = await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}${path}`);
      expect([answer.status, typeof answer.body?.type], path).toEqual([status, status === 200 ? 'undefined' : 'string']);
    }
    const head = await visit(t, visitor, 'HEAD', `${PUBLIC}/${link.code}/files/Shared/a.txt`);
    expect([head.status, head.headers.get('content-length'), head.bytes.length]).toEqual([200, '5', 0]);
    const beyond = await visit(t, visitor, 'GET', `${PUBLIC}/${link.code}/files/Shared/a.txt`, { headers: { range: 'bytes=100-200' } });
    expect(beyond.status).toBeLessThan(500);
    // A visit's cookie that is no token at all is no visit.
    expect((await visit(t, { cookie: 'atrium_link=%00%01' }, 'GET', `${PUBLIC}/${link.code}/entries`)).status).toBe(401);
  });
});
