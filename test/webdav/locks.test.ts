import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, createWorkspace, unique } from '../support/factories.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, BOOTSTRAP_KEY, buildAppOn, startTestApp, type TestApp } from '../support/test-app.js';
import { DavClient, type DavAnswer } from './dav-client.js';

const PASSWORD = 'a perfectly good passphrase';

const lockBody = (scope: 'exclusive' | 'shared', owner = 'litmus test suite') =>
  `<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>${owner}</D:owner></D:lockinfo>`;

const tokenOf = (answer: DavAnswer) => /^<(.+)>$/.exec(answer.headers.get('lock-token') ?? '')?.[1] as string;

/**
 * WebDAV class 2 (RFC 4918 6, 7, 9.10, 9.11, 10.4): LOCK and UNLOCK, what a lock refuses to
 * writers without its token, the If header, refresh and timeouts on the test clock, locked empty
 * resources, depth infinity, and locks held across nodes because they live in the database.
 */
describe.each(testDatabaseTargets())('webdav locks [$name]', (target) => {
  let t: TestApp;
  let dav: DavClient;
  beforeAll(async () => {
    t = await startTestApp(target);
    dav = new DavClient(t.baseUrl, [ADMIN_USERNAME, ADMIN_PASSWORD]);
  });
  afterAll(() => t.close());

  const lock = (path: string, scope: 'exclusive' | 'shared' = 'exclusive', headers: Record<string, string> = {}, client = dav) =>
    client.call('LOCK', path, { headers: { 'Content-Type': 'application/xml', Timeout: 'Second-3600', ...headers }, body: lockBody(scope) });
  const unlock = (path: string, token: string, client = dav) => client.call('UNLOCK', path, { headers: { 'Lock-Token': `<${token}>` } });
  const etagOf = async (path: string) => (await dav.call('HEAD', path)).headers.get('etag') as string;
  const file = async (name = unique('f')) => {
    expect((await dav.put(name, 'hello')).status).toBe(201);
    return name;
  };

  describe('LOCK and UNLOCK', () => {
    it('locks a file exclusively, answering the Lock-Token header and lockdiscovery, and unlocks it', async () => {
      const name = await file();
      const locked = await lock(name);
      expect(locked.status).toBe(200);
      const token = tokenOf(locked);
      expect(token).toMatch(/^urn:x-atrium:[A-Za-z0-9_-]{22}$/);
      expect(locked.headers.get('content-type')).toContain('xml');
      expect(locked.text).toContain('<D:lockdiscovery><D:activelock>');
      expect(locked.text).toContain('<D:lockscope><D:exclusive/></D:lockscope>');
      expect(locked.text).toContain('<D:owner>litmus test suite</D:owner>');
      expect(locked.text).toContain('<D:timeout>Second-3600</D:timeout>');
      expect(locked.text).toContain(`<D:locktoken><D:href>${token}</D:href></D:locktoken>`);
      expect(locked.text).toContain(`<D:lockroot><D:href>/dav/${name}</D:href></D:lockroot>`);
      expect((await dav.put(name, 'changed')).status).toBe(423);
      expect((await unlock(name, token)).status).toBe(204);
      expect((await dav.put(name, 'changed')).status).toBe(204);
    });

    it('shows a lock in PROPFIND as soon as it is taken, and no longer once it is removed or expired', async () => {
      const name = await file();
      const discover = async () => (await dav.propfind('', '1', '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>')).text;
      expect(await discover()).not.toContain('activelock');
      const token = tokenOf(await lock(name, 'exclusive', { Timeout: 'Second-60' }));
      expect(await discover()).toContain(token);
      expect((await unlock(name, token)).status).toBe(204);
      expect(await discover()).not.toContain(token);
      const second = tokenOf(await lock(name, 'shared', { Timeout: 'Second-60' }));
      expect(await discover()).toContain(second);
      t.clock.advance(61_000);
      expect(await discover()).not.toContain(second);
    });

    it('keeps an owner element with markup and its namespaces', async () => {
      const name = await file();
      const owner = '<D:href>mailto:someone@example.com</D:href><x:who xmlns:x="urn:example">Some &amp; One</x:who>';
      const locked = await dav.call('LOCK', name, { body: lockBody('exclusive', owner) });
      expect(locked.status).toBe(200);
      expect(locked.text).toMatch(/<D:owner><ns0:href xmlns:ns0="DAV:">mailto:someone@example.com<\/ns0:href><ns0:who xmlns:ns0="urn:example">Some &amp; One<\/ns0:who><\/D:owner>/);
      await unlock(name, tokenOf(locked));
    });

    it('refuses a second lock on an exclusively locked file (423), and grants shared locks together', async () => {
      const name = await file();
      const first = await lock(name);
      expect((await lock(name)).status).toBe(423);
      const sharedRefused = await lock(name, 'shared');
      expect(sharedRefused.status).toBe(423);
      expect(sharedRefused.text).toContain(`<D:no-conflicting-lock><D:href>/dav/${name}</D:href></D:no-conflicting-lock>`);
      await unlock(name, tokenOf(first));

      const one = await lock(name, 'shared');
      const two = await lock(name, 'shared');
      expect([one.status, two.status]).toEqual([200, 200]);
      expect(tokenOf(one)).not.toBe(tokenOf(two));
      expect((await lock(name, 'exclusive')).status).toBe(423);
      // Either shared lock's token lets its owner write.
      expect((await dav.put(name, 'by two', { If: `(<${tokenOf(two)}>)` })).status).toBe(204);
      expect((await dav.put(name, 'nobody')).status).toBe(423);
      await unlock(name, tokenOf(one));
      expect((await dav.put(name, 'still locked')).status).toBe(423);
      await unlock(name, tokenOf(two));
      expect((await dav.put(name, 'free')).status).toBe(204);
    });

    it('refuses every write to a locked file without its token with 423 and the lock root, and lets the token through', async () => {
      const name = await file();
      const other = await file();
      const token = tokenOf(await lock(name));
      const refused = await dav.put(name, 'x');
      expect(refused.status).toBe(423);
      expect(refused.text).toContain('lock-token-submitted');
      expect(refused.text).toContain(`<D:href>/dav/${name}</D:href>`);
      expect((await dav.delete(name)).status).toBe(423);
      expect((await dav.transfer('MOVE', name, unique('moved'))).status).toBe(423);
      expect((await dav.transfer('COPY', other, name, { Overwrite: 'T' })).status).toBe(423);
      const proppatch = `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:p>v</Z:p></D:prop></D:set></D:propertyupdate>`;
      expect((await dav.call('PROPPATCH', name, { body: proppatch })).status).toBe(423);
      // A lock does not stop reading or copying away; the copy carries no lock.
      expect((await dav.get(name)).status).toBe(200);
      const copy = unique('copy');
      expect((await dav.transfer('COPY', name, copy)).status).toBe(201);
      expect((await dav.put(copy, 'free')).status).toBe(204);
      // With the token, untagged or tagged with the resource's URL, the owner writes.
      expect((await dav.put(name, 'a', { If: `(<${token}>)` })).status).toBe(204);
      expect((await dav.put(name, 'b', { If: `<${dav.url(name)}> (<${token}>)` })).status).toBe(204);
      expect((await dav.call('PROPPATCH', name, { body: proppatch, headers: { If: `(<${token}>)` } })).status).toBe(207);
      expect((await dav.call('DELETE', name, { headers: { If: `(<${token}>)` } })).status).toBe(204);
      // The lock went with the file.
      expect((await dav.put(name, 'again')).status).toBe(201);
    });

    it('keeps a lock on a destination that a COPY or MOVE replaces, as an editor saving through a temporary file expects', async () => {
      const name = await file();
      const token = tokenOf(await lock(name));
      const temporary = await file();
      expect((await dav.transfer('MOVE', temporary, name)).status).toBe(423);
      expect((await dav.transfer('MOVE', temporary, name, { If: `<${dav.url(name)}> (<${token}>)` })).status).toBe(204);
      expect((await dav.get(name)).status).toBe(200);
      expect((await dav.put(name, 'x')).status).toBe(423);
      const copied = await file();
      // An untagged list is about the request's resource, the source here, which holds no such lock.
      expect((await dav.transfer('COPY', copied, name, { If: `(<${token}>)` })).status).toBe(412);
      expect((await dav.transfer('COPY', copied, name, { If: `<${dav.url(name)}> (<${token}>)` })).status).toBe(204);
      expect((await dav.put(name, 'x')).status).toBe(423);
      expect((await unlock(name, token)).status).toBe(204);
    });

    it('locks an unmapped URL as a locked empty file (201), which UNLOCK leaves in place', async () => {
      const name = unique('unmapped');
      const locked = await lock(name, 'exclusive', { Depth: '0' });
      expect(locked.status).toBe(201);
      expect(locked.text).toContain('<D:depth>0</D:depth>');
      const got = await dav.get(name);
      expect(got.status).toBe(200);
      expect(got.text).toBe('');
      expect((await dav.put(name, 'content')).status).toBe(423);
      expect((await dav.put(name, 'content', { If: `(<${tokenOf(locked)}>)` })).status).toBe(204);
      expect((await unlock(name, tokenOf(locked))).status).toBe(204);
      expect((await dav.get(name)).text).toBe('content');
      // Its folder must exist, as for PUT.
      expect((await lock(`${unique('missing')}/${name}`)).status).toBe(409);
    });

    it('answers UNLOCK without a token 400, with a token of no lock here 409, and of another user\'s lock 403 unless an administrator', async () => {
      const name = await file();
      const token = tokenOf(await lock(name));
      expect((await dav.call('UNLOCK', name)).status).toBe(400);
      expect((await dav.call('UNLOCK', name, { headers: { 'Lock-Token': token } })).status).toBe(400);
      expect((await unlock(name, 'urn:uuid:00000000-0000-4000-8000-000000000000')).status).toBe(409);
      const elsewhere = await file();
      expect((await unlock(elsewhere, token)).status).toBe(409);

      const writer = await createUser(t.database.db, { password: PASSWORD });
      expect((await t.api.post('/permissions', { path: '', user_id: writer.id, permission: 'full' }, { key: BOOTSTRAP_KEY })).status).toBe(201);
      const asWriter = dav.as(writer.username, PASSWORD);
      expect((await unlock(name, token, asWriter)).status).toBe(403);
      // Another user's token does not let a writer through either.
      expect((await asWriter.put(name, 'x', { If: `(<${token}>)` })).status).toBe(423);
      const writersLock = tokenOf(await lock(elsewhere, 'exclusive', {}, asWriter));
      // An administrator may clear anyone's lock.
      expect((await unlock(elsewhere, writersLock)).status).toBe(204);
      expect((await unlock(name, token)).status).toBe(204);
    });

    it('leaves a lock taken above a Workspace root to the site: that Workspace\'s administrator may not remove it from inside', async () => {
      const ws = await createWorkspace(t.database.db);
      const admin = await createUser(t.database.db, { workspaceId: ws, workspaceAdmin: true, password: PASSWORD });
      const asWorkspaceAdmin = dav.as(admin.username, PASSWORD);
      expect((await asWorkspaceAdmin.put('inside.txt', 'hello')).status).toBe(201);
      // Depth infinity on the folder of every Workspace root: it covers inside.txt too.
      const token = tokenOf(await lock('_/Workspaces', 'exclusive', { Depth: 'infinity' }));
      expect((await unlock('inside.txt', token, asWorkspaceAdmin)).status).toBe(403);
      expect((await unlock('_/Workspaces', token)).status).toBe(204);
    });

    it('refuses to refresh a lock whose holder may no longer write the resource, and forgets it for one who may no longer see it', async () => {
      const name = await file();
      const holder = await createUser(t.database.db, { password: PASSWORD });
      const grant = await t.api.post('/permissions', { path: name, user_id: holder.id, permission: 'full' }, { key: BOOTSTRAP_KEY });
      expect(grant.status).toBe(201);
      const asHolder = dav.as(holder.username, PASSWORD);
      const token = tokenOf(await lock(name, 'exclusive', { Timeout: 'Second-600' }, asHolder));
      const refresh = () => asHolder.call('LOCK', name, { headers: { If: `(<${token}>)`, Timeout: 'Second-600' } });
      expect((await refresh()).status).toBe(200);
      // Down to reading: the lock stays until it runs out, but is not kept alive.
      expect((await t.api.delete(`/permissions/${grant.body.id}`, { key: BOOTSTRAP_KEY })).status).toBe(204);
      const reading = await t.api.post('/permissions', { path: name, user_id: holder.id, permission: 'readonly' }, { key: BOOTSTRAP_KEY });
      expect(reading.status).toBe(201);
      expect((await refresh()).status).toBe(403);
      // No access at all: answered as for a token that names no lock here.
      expect((await t.api.delete(`/permissions/${reading.body.id}`, { key: BOOTSTRAP_KEY })).status).toBe(204);
      expect((await refresh()).status).toBe(412);
      t.clock.advance(601_000);
      expect((await dav.put(name, 'written by someone who may')).status).toBe(204);
    });

    it('lets a lock go with its resource whichever door deletes or moves it, in the same transaction', async () => {
      // The REST API writes as the lock's holder (an API key of the same user): nobody else may.
      const admin = await t.database.db.selectFrom('users').select('id').where('username', '=', ADMIN_USERNAME).executeTakeFirstOrThrow();
      const holderKey = await createApiKey(t.database.db, { userId: admin.id });
      const deleted = await file();
      const deletedToken = tokenOf(await lock(deleted));
      expect((await t.api.delete(`/files/${deleted}`, { key: holderKey })).status).toBe(204);
      const moved = await file();
      const movedToken = tokenOf(await lock(moved));
      expect((await t.api.post(`/file_actions/move/${moved}`, { destination: `${moved}-moved` }, { key: holderKey })).status).toBe(201);
      const tokens = (await t.database.db.selectFrom('dav_locks').select('token').execute()).map((row) => row.token);
      expect(tokens).not.toContain(deletedToken);
      expect(tokens).not.toContain(movedToken);
      // A new file at either address is not held by the old lock.
      expect((await dav.as(ADMIN_USERNAME, ADMIN_PASSWORD).put(deleted, 'new')).status).toBe(201);
      expect((await dav.put(moved, 'new')).status).toBe(201);
    });

    it('refuses a lock without permission to write (403)', async () => {
      const name = await file();
      const reader = await createUser(t.database.db, { password: PASSWORD });
      expect((await t.api.post('/permissions', { path: name, user_id: reader.id, permission: 'readonly' }, { key: BOOTSTRAP_KEY })).status).toBe(201);
      expect((await lock(name, 'exclusive', {}, dav.as(reader.username, PASSWORD))).status).toBe(403);
    });
  });

  describe('the If header', () => {
    it('holds a PUT to conditions on tokens, entity tags and Not: 412 when no list holds, 423 when the token is not submitted', async () => {
      const name = await file();
      const token = tokenOf(await lock(name));
      const etag = await etagOf(name);
      expect(etag).toBeTruthy();
      const put = (ifHeader: string) => dav.put(name, 'zero', { If: ifHeader }).then((answer) => answer.status);
      expect(await put(`(<${token}> [${etag}])`)).toBe(204);
      const now = await etagOf(name);
      expect(await put(`(<DAV:no-lock> [${now}])`)).toBe(412);
      expect(await put(`(<${token}>) (Not <DAV:no-lock>)`)).toBe(204);
      // The second list holds, but the token in the first is not the lock's: it is not submitted.
      expect(await put(`(<${token}x>) (Not <DAV:no-lock>)`)).toBe(423);
      const current = await etagOf(name);
      expect(await put(`(<${token}> [${current}]) (Not <DAV:no-lock> [${current}])`)).toBe(204);
      const stale = '"0000000000000000"';
      expect(await put(`(<${token}> [${stale}]) (Not <DAV:no-lock> [${stale}])`)).toBe(412);
      expect(await put(`(Not <${token}>)`)).toBe(412);
      await unlock(name, token);
      expect(await put('(<DAV:no-lock>)')).toBe(412);
      expect(await put('(Not <DAV:no-lock>)')).toBe(204);
      expect(await put(`([${await etagOf(name)}])`)).toBe(204);
      expect(await put(`(["not-the-etag"])`)).toBe(412);
      expect(await put(`<${dav.url(unique('other'))}> ([${await etagOf(name)}])`)).toBe(412);
    });

    it('holds GET, HEAD and PROPFIND to it too (RFC 4918 10.4.1): 412 when no list holds, the answer when one does, no token needed to read', async () => {
      const name = await file();
      const etag = await etagOf(name);
      const propfind = (ifHeader: string, path = name) =>
        dav.call('PROPFIND', path, { headers: { Depth: '0', If: ifHeader } }).then((answer) => answer.status);
      const read = (method: 'GET' | 'HEAD', ifHeader: string) => dav.call(method, name, { headers: { If: ifHeader } }).then((answer) => answer.status);
      for (const method of ['GET', 'HEAD'] as const) {
        expect(await read(method, `(["not-the-etag"])`), method).toBe(412);
        expect(await read(method, '(<DAV:no-lock>)'), method).toBe(412);
        expect(await read(method, `([${etag}])`), method).toBe(200);
        expect(await read(method, '(Not <DAV:no-lock>)'), method).toBe(200);
      }
      // PROPFIND's answer may be kept: the If header is still asked every time, of the folder too.
      expect(await propfind(`([${etag}])`)).toBe(207);
      expect(await propfind(`(["not-the-etag"])`)).toBe(412);
      expect(await propfind(`(["not-the-etag"])`, '')).toBe(412);
      expect(await propfind(`([${etag}])`)).toBe(207);

      const token = tokenOf(await lock(name));
      // A lock does not stop reading; its token in the If header holds for a read as for a write.
      expect(await read('GET', `(<${token}>)`)).toBe(200);
      expect(await propfind(`(<${token}>)`)).toBe(207);
      expect(await read('GET', `(Not <${token}>)`)).toBe(412);
      expect(await propfind(`(Not <${token}>)`)).toBe(412);
      expect((await dav.call('GET', name, { headers: { If: 'garbage' } })).status).toBe(400);
      await unlock(name, token);
    });

    it('refuses a malformed If header with 400', async () => {
      const name = await file();
      for (const header of ['', 'garbage', '(', '()', '(<urn:x>', '(<not a uri>)', '([unquoted])', '(["x")', '<http://h/a>', '(<urn:x>) <http://h/a> (<urn:y>)', '(Maybe <urn:x>)']) {
        const answer = await dav.put(name, 'x', { If: header });
        expect(answer.status, header).toBe(400);
      }
      expect((await dav.get(name)).text).toBe('hello');
    });
  });

  describe('refresh and timeouts', () => {
    it('grants the Timeout asked up to an hour, refreshes with If and no body, and forgets an expired lock', async () => {
      const name = await file();
      const short = await lock(name, 'exclusive', { Timeout: 'Second-60' });
      expect(short.text).toContain('<D:timeout>Second-60</D:timeout>');
      const token = tokenOf(short);
      t.clock.advance(50_000);
      const refreshed = await dav.call('LOCK', name, { headers: { If: `(<${token}>)`, Timeout: 'Second-120' } });
      expect(refreshed.status).toBe(200);
      expect(refreshed.text).toContain(`<D:href>${token}</D:href>`);
      expect(refreshed.text).toContain('<D:timeout>Second-120</D:timeout>');
      t.clock.advance(100_000);
      expect((await dav.put(name, 'x')).status).toBe(423);
      t.clock.advance(21_000);
      // Expired: ignored at once, its token no longer refreshes.
      expect((await dav.put(name, 'x')).status).toBe(204);
      expect((await dav.call('LOCK', name, { headers: { If: `(<${token}>)` } })).status).toBe(412);
      expect((await dav.call('LOCK', name)).status).toBe(400);

      const infinite = await lock(name, 'exclusive', { Timeout: 'Infinite, Second-4100000000' });
      expect(infinite.text).toContain('<D:timeout>Second-3600</D:timeout>');
      expect((await unlock(name, tokenOf(infinite))).status).toBe(204);
      const long = await lock(name, 'exclusive', { Timeout: 'Second-999999' });
      expect(long.text).toContain('<D:timeout>Second-3600</D:timeout>');
      t.clock.advance(3_601_000);
      const discovery = await dav.propfind(name, '0', '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>');
      expect(discovery.text).not.toContain(tokenOf(long));
      const again = await lock(name);
      expect(again.status).toBe(200);
      // Taking a lock cleared the expired ones from the table.
      const rows = await t.database.db.selectFrom('dav_locks').select('token').execute();
      expect(rows.map((row) => row.token)).not.toContain(tokenOf(long));
      expect(rows.map((row) => row.token)).toContain(tokenOf(again));
      await unlock(name, tokenOf(again));
    });
  });

  describe('depth infinity', () => {
    it('locks a folder and everything below it; the token tagged with the folder lets a PUT below through', async () => {
      const folder = unique('coll');
      expect((await dav.mkcol(folder)).status).toBe(201);
      const inside = `${folder}/inside.txt`;
      expect((await dav.put(inside, 'one')).status).toBe(201);
      const locked = await lock(`${folder}/`, 'exclusive', { Depth: 'infinity' });
      expect(locked.status).toBe(200);
      expect(locked.text).toContain('<D:depth>infinity</D:depth>');
      expect(locked.text).toContain(`<D:lockroot><D:href>/dav/${folder}/</D:href></D:lockroot>`);
      const token = tokenOf(locked);

      const refused = await dav.put(`${folder}/new.txt`, 'x');
      expect(refused.status).toBe(423);
      expect(refused.text).toContain(`<D:href>/dav/${folder}/</D:href>`);
      expect((await dav.put(inside, 'two')).status).toBe(423);
      expect((await dav.mkcol(`${folder}/sub`)).status).toBe(423);
      expect((await dav.delete(folder)).status).toBe(423);
      expect((await dav.put(`${folder}/new.txt`, 'x', { If: `<${dav.url(`${folder}/`)}> (<${token}>)` })).status).toBe(201);
      expect((await dav.put(inside, 'two', { If: `(<${token}>)` })).status).toBe(204);
      // A member's lockdiscovery shows the folder's lock; a refresh through the member renews it.
      const propfind = await dav.propfind(inside, '0', '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>');
      expect(propfind.text).toContain(`<D:href>${token}</D:href>`);
      const indirect = await dav.call('LOCK', inside, { headers: { If: `(<${token}>)` } });
      expect(indirect.status).toBe(200);
      expect(indirect.text).toContain(`<D:lockroot><D:href>/dav/${folder}/</D:href></D:lockroot>`);
      // A lock inside is refused while the folder's exclusive lock holds.
      expect((await lock(inside)).status).toBe(423);
      expect((await unlock(inside, token)).status).toBe(204);
      expect((await dav.put(`${folder}/after.txt`, 'x')).status).toBe(201);
    });

    it('answers 207 when a lock below conflicts with a depth-infinity lock', async () => {
      const folder = unique('coll');
      await dav.mkcol(folder);
      const inside = `${folder}/busy.txt`;
      await dav.put(inside, 'x');
      const inner = tokenOf(await lock(inside, 'exclusive', { Depth: '0' }));
      const answer = await lock(folder, 'exclusive', { Depth: 'infinity' });
      expect(answer.status).toBe(207);
      expect(answer.text).toMatch(new RegExp(`<D:href>/dav/${inside}</D:href><D:status>HTTP/1.1 423 Locked</D:status>`));
      expect(answer.text).toMatch(/<D:status>HTTP\/1.1 424 Failed Dependency<\/D:status>/);
      expect(answer.headers.get('lock-token')).toBeNull();
      await unlock(inside, inner);
    });

    it('protects a folder\'s membership with a depth-0 lock, but not its members\' contents', async () => {
      const folder = unique('coll');
      await dav.mkcol(folder);
      const inside = `${folder}/member.txt`;
      await dav.put(inside, 'x');
      const shallow = await lock(folder, 'exclusive', { Depth: '0' });
      expect(shallow.status).toBe(200);
      const token = tokenOf(shallow);
      expect((await dav.put(inside, 'changed')).status).toBe(204);
      expect((await lock(inside)).status).toBe(200);
      expect((await dav.put(`${folder}/new.txt`, 'x')).status).toBe(423);
      expect((await dav.mkcol(`${folder}/sub`)).status).toBe(423);
      expect((await dav.put(`${folder}/new.txt`, 'x', { If: `<${dav.url(`${folder}/`)}> (<${token}>)` })).status).toBe(201);
      expect((await unlock(folder, token)).status).toBe(204);
      expect((await dav.mkcol(`${folder}/sub`)).status).toBe(201);
    });
  });

  describe('bad LOCK requests', () => {
    it('refuses malformed XML, a DOCTYPE, a missing scope or type, and Depth 1 with 400, locking nothing', async () => {
      const name = await file();
      const bodies = [
        '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>',
        '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "e">]><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>&e;</D:owner></D:lockinfo>',
        '<D:lockinfo xmlns:D="DAV:"><D:locktype><D:write/></D:locktype></D:lockinfo>',
        '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope></D:lockinfo>',
        '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:read/></D:locktype></D:lockinfo>',
        '<D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>',
        '<lockinfo><lockscope><exclusive/></lockscope><locktype><write/></locktype></lockinfo>',
      ];
      for (const body of bodies) expect((await dav.call('LOCK', name, { body })).status, body).toBe(400);
      expect((await dav.call('LOCK', name, { body: lockBody('exclusive'), headers: { Depth: '1' } })).status).toBe(400);
      expect((await dav.put(name, 'unlocked')).status).toBe(204);
    });
  });

  describe('Workspaces', () => {
    it('locks the one resource whichever Workspace view names it, each shown its own lock root', async () => {
      const ws = (await t.api.post('/workspaces', { name: unique('Locks') }, { key: BOOTSTRAP_KEY })).body.id as number;
      const member = await createUser(t.database.db, { password: PASSWORD, workspaceId: ws, workspaceAdmin: true });
      const inWorkspace = dav.as(member.username, PASSWORD);
      expect((await inWorkspace.put('Report.txt', 'x')).status).toBe(201);
      const locked = await lock('Report.txt', 'exclusive', {}, inWorkspace);
      expect(locked.text).toContain('<D:lockroot><D:href>/dav/Report.txt</D:href></D:lockroot>');
      const sitePath = `_/Workspaces/${ws}/report.TXT`;
      expect((await dav.put(sitePath, 'y')).status).toBe(423);
      const seen = await dav.propfind(sitePath, '0', '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>');
      expect(seen.text).toContain(`<D:lockroot><D:href>/dav/_/Workspaces/${ws}/Report.txt</D:href></D:lockroot>`);
      expect((await unlock('Report.txt', tokenOf(locked), inWorkspace)).status).toBe(204);
      expect((await dav.put(sitePath, 'y')).status).toBe(204);
      // A Workspace Administrator may clear a lock someone else took in its Workspace.
      const adminsLock = await lock(sitePath);
      expect((await inWorkspace.put('Report.txt', 'z')).status).toBe(423);
      expect((await unlock('Report.txt', tokenOf(adminsLock), inWorkspace)).status).toBe(204);
      expect((await inWorkspace.put('Report.txt', 'z')).status).toBe(204);
    });
  });

  describe('across nodes', () => {
    it('holds a lock taken on one node on another over the same database, where it can be removed', async () => {
      const other = await buildAppOn({ database: t.database, clock: t.clock, config: { headerBrands: ['Service'], logLevel: 'silent', accessLog: false } });
      try {
        const second = new DavClient(await other.listen({ host: '127.0.0.1', port: 0 }), [ADMIN_USERNAME, ADMIN_PASSWORD]);
        const name = await file();
        const token = tokenOf(await lock(name));
        expect((await second.put(name, 'x')).status).toBe(423);
        expect((await lock(name, 'shared', {}, second)).status).toBe(423);
        expect((await second.put(name, 'x', { If: `(<${token}>)` })).status).toBe(204);
        expect((await unlock(name, token, second)).status).toBe(204);
        expect((await dav.put(name, 'y')).status).toBe(204);

        // Exclusive locks asked at once on both nodes: exactly one is granted.
        const contested = await file();
        const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => lock(contested, 'exclusive', {}, i % 2 === 0 ? dav : second)));
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, 423, 423, 423, 423, 423, 423, 423]);
      } finally {
        await other.close();
      }
    });
  });
});
