import { utils } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startSftpTestApp, type SftpConnection, type SftpTestApp } from '../sftp/sftp-fixture.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, createWorkspace, unique } from '../support/factories.js';
import { BOOTSTRAP_KEY } from '../support/test-app.js';
import { DavClient } from '../webdav/dav-client.js';

const { STATUS_CODE } = utils.sftp;
const PASSWORD = 'a perfectly good passphrase';

const lockInfo = (owner: string) =>
  `<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>${owner}</D:owner></D:lockinfo>`;

/**
 * One lock store for every door (docs/files.md, Locks): a lock taken through the REST API
 * (`/locks/<path>`, Files.com's Lock) or WebDAV's LOCK stops the writes of everyone but its
 * holder through the REST API, WebDAV and SFTP; each door sees the other's locks; `is_locked`
 * follows them, timeouts included (on the test clock).
 */
describe.each(testDatabaseTargets())('locks across doors [$name]', (target) => {
  let t: SftpTestApp;
  let alice: { name: string; id: number; key: string; dav: DavClient };
  let bob: { name: string; id: number; key: string; dav: DavClient; sftp: SftpConnection };
  let folder: string;

  beforeAll(async () => {
    t = await startSftpTestApp(target);
    folder = unique('locked');
    expect((await t.api.post(`/folders/${folder}`, {}, { key: BOOTSTRAP_KEY })).status).toBe(201);
    const person = async () => {
      const user = await createUser(t.database.db, { password: PASSWORD });
      expect((await t.api.post('/permissions', { path: folder, user_id: user.id, permission: 'full' }, { key: BOOTSTRAP_KEY })).status).toBe(201);
      return { name: user.username, id: user.id, key: await createApiKey(t.database.db, { userId: user.id }), dav: new DavClient(t.baseUrl, [user.username, PASSWORD]) };
    };
    alice = await person();
    const b = await person();
    bob = { ...b, sftp: await t.connect({ username: b.name, password: PASSWORD }) };
  });
  afterAll(async () => {
    bob.sftp.close();
    await t.close();
  });

  const upload = (path: string, content: string, key: string) =>
    t.api.call('PUT', `/files/${path}`, { key, rawBody: content, headers: { 'content-type': 'application/octet-stream' } });
  const contentOf = async (path: string) => (await t.api.get(`/files/${path}?action=stream`, { key: BOOTSTRAP_KEY })).text;
  const file = async (content = 'original') => {
    const path = `${folder}/${unique('f')}.txt`;
    expect((await upload(path, content, BOOTSTRAP_KEY)).status).toBe(201);
    return path;
  };
  const lockByRest = (path: string, body: Record<string, unknown>, key: string) => t.api.post(`/locks/${path}`, body, { key });
  const lockByDav = (path: string, client: DavClient, owner = 'a WebDAV client') =>
    client.call('LOCK', path, { headers: { 'Content-Type': 'application/xml', Timeout: 'Second-600' }, body: lockInfo(owner) });
  const isLockedInListing = async (path: string) => {
    const listed = await t.api.get(`/folders/${folder}`, { key: BOOTSTRAP_KEY });
    expect(listed.status).toBe(200);
    return (listed.body as { path: string; is_locked: boolean }[]).find((entry) => entry.path === path)?.is_locked;
  };
  const discovery = async (path: string, client: DavClient) =>
    (await client.propfind(path, '0', '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>')).text;

  it('a REST lock: 201 with the Lock fields, 423 to another WebDAV writer, file-locked to another REST writer, the holder writes; is_locked follows', async () => {
    const path = await file();
    expect(await isLockedInListing(path)).toBe(false);
    const taken = await lockByRest(path, { timeout: 600, recursive: false }, alice.key);
    expect(taken.status).toBe(201);
    expect(taken.body).toEqual({
      path, timeout: 600, depth: '0', recursive: false, owner: alice.name, scope: 'exclusive', exclusive: true,
      token: expect.stringMatching(/^urn:x-atrium:/), type: 'write', allow_access_by_any_user: false, user_id: alice.id, username: alice.name,
    });
    const token = taken.body.token as string;

    // WebDAV sees the one store: lockdiscovery shows it, and a write without its token is 423.
    expect(await discovery(path, bob.dav)).toContain(token);
    expect((await bob.dav.put(path, 'by bob over WebDAV')).status).toBe(423);
    // Another REST caller is refused, whatever the write.
    for (const refused of [
      await upload(path, 'by bob over REST', bob.key),
      await t.api.delete(`/files/${path}`, { key: bob.key }),
      await t.api.post(`/file_actions/move/${path}`, { destination: `${path}-moved` }, { key: bob.key }),
      await t.api.patch(`/files/${path}`, { provided_mtime: '2020-01-01T00:00:00Z' }, { key: bob.key }),
    ]) {
      expect(refused.status).toBe(422);
      expect(refused.body.type).toBe('processing-failure/file-locked');
    }
    expect(await contentOf(path)).toBe('original');
    expect((await t.api.get(`/files/${path}`, { key: bob.key })).body.is_locked).toBe(true);
    expect(await isLockedInListing(path)).toBe(true);

    // The holder writes through the REST API without presenting anything: the lock is its own.
    expect((await upload(path, 'by alice', alice.key)).status).toBe(201);
    expect(await contentOf(path)).toBe('by alice');

    // Only the holder (or an administrator) removes it, by its token.
    const byBob = await t.api.delete(`/locks/${path}?token=${encodeURIComponent(token)}`, { key: bob.key });
    expect([byBob.status, byBob.body.type]).toEqual([403, 'not-authorized/site-admin-or-workspace-admin-permission-required']);
    expect((await t.api.delete(`/locks/${path}?token=${encodeURIComponent(token)}`, { key: alice.key })).status).toBe(204);
    expect(await isLockedInListing(path)).toBe(false);
    expect((await bob.dav.put(path, 'by bob over WebDAV')).status).toBe(204);
    expect((await t.database.db.selectFrom('dav_locks').select('token').where('token', '=', token).execute())).toEqual([]);
  });

  it('a WebDAV lock: listed by GET /locks (with include_children below a folder), refused to another REST writer and remover, the holder writes over REST', async () => {
    const path = await file();
    const locked = await lockByDav(path, bob.dav, 'bob at his desk');
    expect(locked.status).toBe(200);
    const token = /^<(.+)>$/.exec(locked.headers.get('lock-token') ?? '')?.[1] as string;

    const listed = await t.api.get(`/locks/${path}`, { key: alice.key });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([{
      path, timeout: 600, depth: 'infinity', recursive: true, owner: 'bob at his desk', scope: 'exclusive', exclusive: true,
      token, type: 'write', allow_access_by_any_user: false, user_id: bob.id, username: bob.name,
    }]);
    expect((await t.api.get(`/locks/${folder}`, { key: alice.key })).body).toEqual([]);
    const children = await t.api.get(`/locks/${folder}?include_children=true`, { key: alice.key });
    expect(children.body.map((lock: { token: string }) => lock.token)).toContain(token);

    const removal = await t.api.delete(`/locks/${path}`, { key: alice.key, body: { token } });
    expect(removal.status).toBe(403);
    const write = await upload(path, 'by alice', alice.key);
    expect([write.status, write.body.type]).toEqual([422, 'processing-failure/file-locked']);
    expect((await upload(path, 'by bob, its holder', bob.key)).status).toBe(201);
    expect(await contentOf(path)).toBe('by bob, its holder');
    expect((await bob.dav.call('UNLOCK', path, { headers: { 'Lock-Token': `<${token}>` } })).status).toBe(204);
    expect((await t.api.get(`/locks/${path}`, { key: alice.key })).body).toEqual([]);
  });

  it('runs out at its timeout (at most an hour): the writes, GET /locks and a cached listing all see it gone', async () => {
    const path = await file();
    const short = await lockByRest(path, { timeout: 60 }, alice.key);
    expect(short.status).toBe(201);
    expect(await isLockedInListing(path)).toBe(true);
    expect((await upload(path, 'too early', bob.key)).status).toBe(422);
    t.clock.advance(61_000);
    expect(await isLockedInListing(path)).toBe(false);
    expect((await t.api.get(`/locks/${path}`, { key: bob.key })).body).toEqual([]);
    expect((await upload(path, 'after it ran out', bob.key)).status).toBe(201);

    const long = await lockByRest(path, { timeout: 86_400 }, alice.key);
    expect(long.body.timeout).toBe(3600);
    t.clock.advance(3_601_000);
    expect((await upload(path, 'an hour later', bob.key)).status).toBe(201);
  });

  it('a recursive folder lock stops writes below it (folder-locked); shared locks page with a cursor; allow_access_by_any_user stops nobody', async () => {
    const sub = `${folder}/${unique('sub')}`;
    expect((await t.api.post(`/folders/${sub}`, {}, { key: alice.key })).status).toBe(201);
    const folderLock = await lockByRest(sub, {}, alice.key);
    expect(folderLock.body).toMatchObject({ depth: 'infinity', recursive: true, exclusive: true });
    const inside = await upload(`${sub}/new.txt`, 'by bob', bob.key);
    expect([inside.status, inside.body.type]).toEqual([422, 'processing-failure/folder-locked']);
    expect((await t.api.post(`/folders/${sub}/inner`, {}, { key: bob.key })).body.type).toBe('processing-failure/folder-locked');
    expect((await upload(`${sub}/new.txt`, 'by alice', alice.key)).status).toBe(201);
    expect((await t.api.get(`/files/${sub}/new.txt`, { key: bob.key })).body.is_locked).toBe(true);
    expect((await t.api.delete(`/locks/${sub}?token=${encodeURIComponent(folderLock.body.token)}`, { key: alice.key })).status).toBe(204);

    const path = await file();
    const first = await lockByRest(path, { exclusive: false }, alice.key);
    t.clock.advance(1000);
    const second = await lockByRest(path, { exclusive: false }, bob.key);
    expect([first.status, second.status]).toEqual([201, 201]);
    const conflict = await lockByRest(path, { exclusive: true }, bob.key);
    expect([conflict.status, conflict.body.type]).toEqual([422, 'processing-failure/resource-locked']);
    // Oldest first, a page at a time.
    const page1 = await t.api.get(`/locks/${path}?per_page=1`, { key: alice.key });
    const cursor = page1.headers.get('x-service-cursor');
    expect(cursor).not.toBeNull();
    const page2 = await t.api.get(`/locks/${path}?per_page=1&cursor=${cursor}`, { key: alice.key });
    expect(page2.headers.get('x-service-cursor')).toBeNull();
    expect([...page1.body, ...page2.body].map((lock: { token: string }) => lock.token)).toEqual([first.body.token, second.body.token]);
    // Each holds one of the shared locks: either may write; the holders remove their own.
    expect((await upload(path, 'by bob', bob.key)).status).toBe(201);
    for (const [lock, key] of [[first, alice.key], [second, bob.key]] as const) {
      expect((await t.api.delete(`/locks/${path}?token=${encodeURIComponent(lock.body.token)}`, { key })).status).toBe(204);
    }

    const open = await lockByRest(path, { allow_access_by_any_user: true }, alice.key);
    expect(open.body.allow_access_by_any_user).toBe(true);
    expect((await upload(path, 'anyone may', bob.key)).status).toBe(201);
    expect((await bob.dav.put(path, 'over WebDAV too, without its token')).status).toBe(204);
    expect((await t.api.delete(`/locks/${path}?token=${encodeURIComponent(open.body.token)}`, { key: bob.key })).status).toBe(204);
  });

  it('SFTP writes, removes and renames on a REST-locked file are refused (SSH_FX_FAILURE, saying it is locked)', async () => {
    const path = await file();
    expect((await lockByRest(path, {}, alice.key)).status).toBe(201);
    const { sftp } = bob.sftp;
    const failure = (promise: Promise<unknown>) => promise.then(() => 'ok', (error: { code?: number; message: string }) => [error.code, /locked/.test(error.message)]);
    expect(await failure(call((done) => sftp.writeFile(`/${path}`, 'by bob over SFTP', done)))).toEqual([STATUS_CODE.FAILURE, true]);
    expect(await failure(call((done) => sftp.unlink(`/${path}`, done)))).toEqual([STATUS_CODE.FAILURE, true]);
    expect(await failure(call((done) => sftp.rename(`/${path}`, `/${path}-renamed`, done)))).toEqual([STATUS_CODE.FAILURE, true]);
    expect(await contentOf(path)).toBe('original');
    expect((await call<Buffer>((done) => sftp.readFile(`/${path}`, done))).toString()).toBe('original');
  });

  it('lists locks below the root only where the credential can name them: not a Custom Workspace\'s to a key confined to Workspace 0', async () => {
    const workspace = await createWorkspace(t.database.db);
    const inside = `${unique('ws-file')}.txt`;
    expect((await t.api.call('PUT', `/files/${inside}`, { key: BOOTSTRAP_KEY, workspace, rawBody: 'x', headers: { 'content-type': 'application/octet-stream' } })).status).toBe(201);
    const taken = await t.api.post(`/locks/${inside}`, {}, { key: BOOTSTRAP_KEY, workspace });
    expect(taken.status).toBe(201);
    const tokensBelowRoot = async (key: string) => ((await t.api.get('/locks?include_children=true&per_page=1000', { key })).body as { token: string }[]).map((lock) => lock.token);
    expect(await tokensBelowRoot(BOOTSTRAP_KEY)).toContain(taken.body.token);
    const admin = await createUser(t.database.db, { siteAdmin: true });
    const confined = await createApiKey(t.database.db, { userId: admin.id, workspaceId: 0, permissionSet: 'files_only' });
    expect(await tokensBelowRoot(confined)).not.toContain(taken.body.token);
  });

  it('answers bad input with the documented 4xx', async () => {
    const path = await file();
    const expectError = (answer: { status: number; body: { type: string } }, status: number, type: string) => expect([answer.status, answer.body.type]).toEqual([status, type]);
    expectError(await t.api.post('/locks', {}, { key: alice.key }), 400, 'bad-request/request-params-required');
    expectError(await t.api.post('/locks/', {}, { key: alice.key }), 400, 'bad-request/request-params-required');
    expectError(await lockByRest(path, { timeout: 0 }, alice.key), 400, 'bad-request/request-params-invalid');
    expectError(await lockByRest(path, { timeout: 'soon' }, alice.key), 400, 'bad-request/request-params-invalid');
    expectError(await lockByRest(path, { timeout: 1.5 }, alice.key), 400, 'bad-request/request-params-invalid');
    expectError(await lockByRest(`${folder}/missing.txt`, {}, alice.key), 404, 'not-found/file-not-found');
    expectError(await t.api.get(`/locks/${folder}/missing.txt`, { key: alice.key }), 404, 'not-found/file-not-found');
    expectError(await t.api.delete(`/locks/${path}`, { key: alice.key }), 400, 'bad-request/request-params-required');
    expectError(await t.api.delete(`/locks/${path}?token=urn:x-atrium:nothing`, { key: alice.key }), 404, 'not-found');
    expectError(await t.api.get(`/locks/${path}?cursor=forged`, { key: alice.key }), 400, 'bad-request/invalid-cursor');
    // Locking needs write: a reader may look, not lock.
    const reader = await createUser(t.database.db, { password: PASSWORD });
    expect((await t.api.post('/permissions', { path, user_id: reader.id, permission: 'readonly' }, { key: BOOTSTRAP_KEY })).status).toBe(201);
    const readerKey = await createApiKey(t.database.db, { userId: reader.id });
    expectError(await lockByRest(path, {}, readerKey), 403, 'not-authorized/write-permission-required');
    expect((await t.api.get(`/locks/${path}`, { key: readerKey })).status).toBe(200);
  });
});
