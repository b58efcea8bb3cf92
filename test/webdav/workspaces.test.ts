import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantAsSite, newWorkspace, seed } from '../files/files-support.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser } from '../support/factories.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { DavClient, hrefsOf } from './dav-client.js';

const PASSWORD = 'a perfectly good passphrase';

/**
 * Where /dav/ starts and what each caller sees there: the same authorization as REST, with
 * invisible and absent both 404.
 */
describe.each(testDatabaseTargets())('webdav Workspaces and grants [$name]', (target) => {
  let t: TestApp;
  let admin: DavClient;
  beforeAll(async () => {
    t = await startTestApp(target);
    admin = new DavClient(t.baseUrl, [ADMIN_USERNAME, ADMIN_PASSWORD]);
  });
  afterAll(() => t.close());

  it('roots a Custom Workspace user at its Workspace, and a Site Administrator at the site with _/Workspaces/<id>', async () => {
    const ws = await newWorkspace(t);
    await seed(t, { [`_/Workspaces/${ws}/inside.txt`]: 'in', 'outside.txt': 'out' });
    const user = await createUser(t.database.db, { workspaceId: ws, workspaceAdmin: true, password: PASSWORD });
    const member = admin.as(user.username, PASSWORD);
    expect(hrefsOf((await member.propfind('', '1')).text)).toEqual(['/dav/', '/dav/inside.txt']);
    expect((await member.get('inside.txt')).text).toBe('in');
    // `_/Workspaces/<id>` inside a Custom Workspace is a name inside it, never the site's.
    expect((await member.get(`_/Workspaces/${ws}/inside.txt`)).status).toBe(404);

    const root = hrefsOf((await admin.propfind('', '1')).text);
    expect(root).toContain('/dav/_/');
    expect(root).toContain('/dav/outside.txt');
    expect((await admin.get(`_/Workspaces/${ws}/inside.txt`)).text).toBe('in');
  });

  it('keeps a files_only key made in Workspace 0 out of the Custom Workspaces, even its Site Administrator\'s', async () => {
    const ws = await newWorkspace(t);
    await seed(t, { [`_/Workspaces/${ws}/inside.txt`]: 'in', 'home/outside.txt': 'out' });
    const siteAdmin = await createUser(t.database.db, { siteAdmin: true });
    const keyed = admin.as(await createApiKey(t.database.db, { userId: siteAdmin.id, permissionSet: 'files_only' }), 'x');
    const root = hrefsOf((await keyed.propfind('', '1')).text);
    expect(root).toContain('/dav/home/');
    expect(root).not.toContain('/dav/_/');
    expect((await keyed.get(`_/Workspaces/${ws}/inside.txt`)).status).toBe(404);
    expect((await keyed.propfind('_/Workspaces', '1')).status).toBe(404);
    expect((await keyed.put(`_/Workspaces/${ws}/planted.txt`, 'p')).status).toBe(404);
    expect((await keyed.transfer('COPY', '_', 'home/loot')).status).toBe(404);
    expect((await keyed.get('home/outside.txt')).text).toBe('out');
    expect((await admin.get(`_/Workspaces/${ws}/planted.txt`)).status).toBe(404);
  });

  it('shows a user only what its grants reach, 404 for the rest, and refuses writes it may not make', async () => {
    await seed(t, { 'team/readme.txt': 'r', 'team/shared/s.txt': 's', 'secret/x.txt': 'x' });
    const user = await createUser(t.database.db, { password: PASSWORD });
    await grantAsSite(t, { path: 'team', user_id: user.id, permission: 'readonly' });
    const reader = admin.as(user.username, PASSWORD);
    expect(hrefsOf((await reader.propfind('', '1')).text)).toEqual(['/dav/', '/dav/team/']);
    expect((await reader.get('team/readme.txt')).text).toBe('r');
    expect((await reader.propfind('secret', '0')).status).toBe(404);
    expect((await reader.get('secret/x.txt')).status).toBe(404);
    expect((await reader.get('secret/nothing-here.txt')).status).toBe(404);
    expect((await reader.put('team/new.txt', 'n')).status).toBe(403);
    expect((await reader.delete('team/readme.txt')).status).toBe(403);
    expect((await reader.mkcol('team/sub')).status).toBe(403);
    expect((await reader.transfer('MOVE', 'team/readme.txt', 'team/moved.txt')).status).toBe(403);
    expect((await reader.transfer('COPY', 'team/readme.txt', 'secret/copied.txt')).status).toBe(409);
    const proppatch = await reader.call('PROPPATCH', 'team/readme.txt', { headers: { 'Content-Type': 'application/xml' }, body: '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">1</x></D:prop></D:set></D:propertyupdate>' });
    expect(proppatch.status).toBe(403);
    const rest = await t.api.get('/folders/team', { key: BOOTSTRAP_KEY });
    expect((rest.body as { path: string }[]).map((e) => e.path)).toEqual(['team/shared', 'team/readme.txt']);
  });

  it('replaces a destination on COPY and MOVE only where the caller may delete it, as a DELETE would', async () => {
    await seed(t, { 'mine/a.txt': 'mine', 'theirs/a.txt': 'theirs' });
    const user = await createUser(t.database.db, { password: PASSWORD });
    await grantAsSite(t, { path: 'mine', user_id: user.id, permission: 'full' });
    await grantAsSite(t, { path: 'theirs', user_id: user.id, permission: 'readonly' });
    const member = admin.as(user.username, PASSWORD);
    expect((await member.transfer('COPY', 'mine/a.txt', 'theirs/a.txt')).status).toBe(403);
    expect((await member.transfer('MOVE', 'mine/a.txt', 'theirs/a.txt')).status).toBe(403);
    expect((await admin.get('theirs/a.txt')).text).toBe('theirs');
    expect((await admin.get('mine/a.txt')).text).toBe('mine');
  });

  it('takes a files_only API key as the Basic user, with its user\'s rights', async () => {
    await seed(t, { 'keyed/k.txt': 'k' });
    const user = await createUser(t.database.db);
    await grantAsSite(t, { path: 'keyed', user_id: user.id, permission: 'full' });
    const key = await createApiKey(t.database.db, { userId: user.id, permissionSet: 'files_only' });
    const keyed = admin.as(key, '');
    expect((await keyed.put('keyed/new.txt', 'new')).status).toBe(201);
    expect((await keyed.get('keyed/new.txt')).text).toBe('new');
    expect((await keyed.get('team/readme.txt')).status).toBe(404);
  });
});
