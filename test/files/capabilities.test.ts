import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createSession, createUser } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { downloadText, enc, expectError, grantAsSite, listedPaths, memberOf, putFile, seed, type Member } from './files-support.js';

// Every gate of contract 5.1, proved with the member's own credential (product document: a
// Site Administrator succeeding proves nothing about a member's access).
describe.each(testDatabaseTargets())('file capabilities from a member\'s own credential [$name]', (target) => {
  let t: TestApp;
  const m: Record<'lister' | 'reader' | 'writer' | 'full' | 'listWriter', Member> = {} as never;
  beforeAll(async () => {
    t = await startTestApp(target);
    await seed(t, { 'area/doc.txt': 'the document', 'area/sub/inner.txt': 'inner' });
    for (const [name, level] of [['lister', 'list'], ['reader', 'readonly'], ['writer', 'writeonly'], ['full', 'full']] as const) {
      m[name] = await memberOf(t);
      await grantAsSite(t, { path: 'area', user_id: m[name].id, permission: level });
    }
    m.listWriter = await memberOf(t);
    await grantAsSite(t, { path: 'area', user_id: m.listWriter.id, permission: 'list' });
    await grantAsSite(t, { path: 'area', user_id: m.listWriter.id, permission: 'writeonly' });
  });
  afterAll(() => t.close());

  const as = (member: Member) => ({ key: member.key });

  it('list: sees entries but may not download them', async () => {
    expect(await listedPaths(t, 'area', as(m.lister))).toEqual(['area/sub', 'area/doc.txt']);
    const meta = await t.api.get(`/file_actions/metadata/${enc('area/doc.txt')}`, as(m.lister));
    expect(meta.body).toMatchObject({ permissions: 'l' });
    expect(meta.body.download_uri).toBeUndefined();
    expectError(await t.api.get(`/files/${enc('area/doc.txt')}`, as(m.lister)), 403, 'not-authorized/read-permission-required');
  });

  it('read: downloads', async () => {
    expect(await downloadText(t, 'area/doc.txt', as(m.reader))).toBe('the document');
    expect(await downloadText(t, 'area/sub/inner.txt', as(m.reader))).toBe('inner');
  });

  it('write: uploads new files and creates folders, and nothing more', async () => {
    expect((await putFile(t, 'area/from-writer.txt', 'w', as(m.writer))).status).toBe(201);
    expect((await t.api.post('/folders/area%2Fwriter-folder', {}, as(m.writer))).status).toBe(201);
    // A writer without list sees no file, its own upload included, and cannot read.
    expect(await listedPaths(t, 'area', as(m.writer))).toEqual(['area/sub', 'area/writer-folder']);
    expectError(await t.api.get(`/files/${enc('area/from-writer.txt')}`, as(m.writer)), 404, 'not-found/file-not-found');
    // Overwriting needs delete: a writer who cannot see the file learns only that the name is taken.
    expectError(await putFile(t, 'area/doc.txt', 'overwritten', as(m.writer)), 422, 'processing-failure/destination-exists');
    expectError(await t.api.delete(`/files/${enc('area/from-writer.txt')}`, as(m.writer)), 404, 'not-found/file-not-found');
  });

  it('no write: reader, lister and outsider may not upload or create', async () => {
    for (const member of [m.reader, m.lister]) {
      expectError(await putFile(t, 'area/nope.txt', 'x', as(member)), 403, 'not-authorized/write-permission-required');
      expectError(await t.api.post('/folders/area%2Fnope', {}, as(member)), 403, 'not-authorized/write-permission-required');
      expectError(await t.api.post('/files/area%2Fnope.txt', { action: 'put' }, as(member)), 403, 'not-authorized/write-permission-required');
    }
    const outsider = await memberOf(t);
    // A folder the outsider cannot see is one it would have to make at the root, as where nothing is.
    expectError(await putFile(t, 'area/nope.txt', 'x', as(outsider)), 403, 'not-authorized/write-permission-required');
    expectError(await putFile(t, 'nowhere/nope.txt', 'x', as(outsider)), 403, 'not-authorized/write-permission-required');
    expectError(await putFile(t, 'area/nope.txt', 'x', as(outsider), '?mkdir_parents=false'), 404, 'not-found/file-not-found');
    expectError(await putFile(t, 'nowhere/nope.txt', 'x', as(outsider), '?mkdir_parents=false'), 404, 'not-found/file-not-found');
    expectError(await t.api.get(`/files/${enc('area/doc.txt')}`, as(outsider)), 404, 'not-found/file-not-found');
  });

  it('delete: only with full; a visible file without it is full-permission-required', async () => {
    await seed(t, { 'area/doomed.txt': 'bye', 'area/kept.txt': 'stay' });
    for (const member of [m.reader, m.lister, m.listWriter]) {
      expectError(await t.api.delete(`/files/${enc('area/kept.txt')}`, as(member)), 403, 'not-authorized/full-permission-required');
      expectError(await t.api.post('/file_actions/move/area%2Fkept.txt', { destination: 'area/moved.txt' }, as(member)), 403, 'not-authorized/full-permission-required');
    }
    // Seeing a file and writing beside it is not enough to replace it.
    expectError(await putFile(t, 'area/kept.txt', 'replaced', as(m.listWriter)), 403, 'not-authorized/full-permission-required');
    expect((await t.api.delete(`/files/${enc('area/doomed.txt')}`, as(m.full))).status).toBe(204);
    expect((await putFile(t, 'area/kept.txt', 'replaced', as(m.full))).status).toBe(201);
    expect(await downloadText(t, 'area/kept.txt', as(m.reader))).toBe('replaced');
  });

  it('follows a grant change at once', async () => {
    const late = await memberOf(t);
    expectError(await t.api.get(`/files/${enc('area/doc.txt')}`, as(late)), 404, 'not-found/file-not-found');
    const grant = await grantAsSite(t, { path: 'area/doc.txt', user_id: late.id, permission: 'readonly' });
    expect(await downloadText(t, 'area/doc.txt', as(late))).toBe('the document');
    expect(await listedPaths(t, 'area', as(late))).toEqual(['area/doc.txt']);
    await t.api.delete(`/permissions/${grant}`, { key: BOOTSTRAP_KEY });
    expectError(await t.api.get(`/files/${enc('area/doc.txt')}`, as(late)), 404, 'not-found/file-not-found');
  });

  it('serves files_only keys and sessions alike', async () => {
    const user = await createUser(t.database.db);
    await grantAsSite(t, { path: 'area', user_id: user.id, permission: 'full' });
    const filesOnly = await createApiKey(t.database.db, { userId: user.id, permissionSet: 'files_only' });
    expect((await putFile(t, 'area/by-key.txt', 'k', { key: filesOnly })).status).toBe(201);
    expect(await downloadText(t, 'area/by-key.txt', { key: filesOnly })).toBe('k');
    expectError(await t.api.get('/users', { key: filesOnly }), 403, 'not-authorized/api-key-is-files-only');
    const session = await createSession(t.database.db, user.id, t.clock.now());
    const listed = await t.api.get('/folders/area', { session });
    expect(listed.status).toBe(200);
    expect(listed.body.map((e: { path: string }) => e.path)).toContain('area/by-key.txt');
  });

  it('asks for a credential on every file route but the signed links', async () => {
    for (const [method, url] of [['GET', '/folders/'], ['GET', '/files/area%2Fdoc.txt'], ['POST', '/folders/x'], ['DELETE', '/files/x'], ['PUT', '/files/x'], ['GET', '/file_actions/metadata/x']]) {
      const response = await t.api.call(method as string, url as string);
      expectError(response, 401, 'not-authenticated/authentication-required');
    }
  });
});
