import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/lib/cursor.js';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createGroup } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { enc, expectError, grantAsSite, list, listedPaths, memberOf, mkdir, newWorkspace, seed, type Member } from './files-support.js';

describe.each(testDatabaseTargets())('folder listing and visibility [$name]', (target) => {
  let t: TestApp;
  let reader: Member;
  let writer: Member;
  let deep: Member;
  let nobody: Member;
  let grouped: Member;
  beforeAll(async () => {
    t = await startTestApp(target);
    await seed(t, {
      'Shared/a.txt': 'a', 'Shared/b.txt': 'b', 'Shared/Sub1/deep/x.txt': 'x', 'Shared/Sub2/': '',
      'drop/existing.txt': 'e', 'drop/inbox/': '',
      'secret/hidden.txt': 'h', 'secret/project/plan.txt': 'p', 'secret/other/': '',
    });
    [reader, writer, deep, nobody, grouped] = await Promise.all([memberOf(t), memberOf(t), memberOf(t), memberOf(t), memberOf(t)]);
    await grantAsSite(t, { path: 'shared', user_id: reader.id, permission: 'readonly' });
    await grantAsSite(t, { path: 'drop', user_id: writer.id, permission: 'writeonly' });
    await grantAsSite(t, { path: 'secret/project', user_id: deep.id, permission: 'list' });
    const group = await createGroup(t.database.db);
    await addMember(t.database.db, group, grouped.id);
    await grantAsSite(t, { path: 'shared/sub2', group_id: group, permission: 'full' });
  });
  afterAll(() => t.close());

  it('answers the root as /folders, /folders/, /folders/%2F and with a repeated path parameter', async () => {
    for (const url of ['/folders', '/folders/', '/folders/%2F', '/folders/%2F?path=%2F', '/folders?path=']) {
      const response = await t.api.get(url, { key: BOOTSTRAP_KEY });
      expect(response.status, url).toBe(200);
      expect(response.body.map((e: { path: string }) => e.path), url).toEqual(['drop', 'secret', 'Shared']);
    }
  });

  it('lists folders first, then files, with the contract fields and the first spelling', async () => {
    const response = await list(t, 'shared', { key: BOOTSTRAP_KEY });
    expect(response.body.map((e: { path: string }) => e.path)).toEqual(['Shared/Sub1', 'Shared/Sub2', 'Shared/a.txt', 'Shared/b.txt']);
    const [folder, , file] = response.body;
    expect(folder).toEqual({
      path: 'Shared/Sub1', display_name: 'Sub1', type: 'directory', size: null,
      mtime: expect.stringMatching(/Z$/), provided_mtime: null, created_at: expect.stringMatching(/Z$/), permissions: 'lrwd',
      crc32: null, md5: null, sha1: null, sha256: null, mime_type: null, created_by_id: null, last_modified_by_id: null, is_locked: false,
    });
    expect(file).toMatchObject({ path: 'Shared/a.txt', display_name: 'a.txt', type: 'file', size: 1, permissions: 'lrwd' });
    expect(response.headers.get('content-type')).toContain('application/json');
  });

  it('takes the path raw or percent-encoded, in any case', async () => {
    for (const url of ['/folders/Shared/Sub1', '/folders/shared%2Fsub1', '/folders/SHARED/SUB1/', '/folders/shared%2FSub1%2F']) {
      expect((await t.api.get(url, { key: BOOTSTRAP_KEY })).body.map((e: { path: string }) => e.path), url).toEqual(['Shared/Sub1/deep']);
    }
  });

  it('shows everything to a caller with list, each entry with its letters', async () => {
    const response = await list(t, 'Shared', { key: reader.key });
    expect(response.body.map((e: { path: string; permissions: string }) => [e.path, e.permissions])).toEqual([
      ['Shared/Sub1', 'lr'], ['Shared/Sub2', 'lr'], ['Shared/a.txt', 'lr'], ['Shared/b.txt', 'lr'],
    ]);
    // The root shows only the way to the grant.
    expect(await listedPaths(t, '', { key: reader.key })).toEqual(['Shared']);
  });

  it('shows only subfolders to a caller with write alone, and hides its files', async () => {
    const response = await list(t, 'drop', { key: writer.key });
    expect(response.body.map((e: { path: string; permissions: string }) => [e.path, e.permissions])).toEqual([['drop/inbox', 'w']]);
    expectError(await t.api.get(`/file_actions/metadata/${enc('drop/existing.txt')}`, { key: writer.key }), 404, 'not-found/file-not-found');
    expect(await listedPaths(t, '', { key: writer.key })).toEqual(['drop']);
  });

  it('shows a folder only on the way to a grant, listing just the entries that lead there', async () => {
    expect(await listedPaths(t, '', { key: deep.key })).toEqual(['secret']);
    const secret = await list(t, 'secret', { key: deep.key });
    expect(secret.body.map((e: { path: string; permissions: string }) => [e.path, e.permissions])).toEqual([['secret/project', 'l']]);
    expect(await listedPaths(t, 'secret/project', { key: deep.key })).toEqual(['secret/project/plan.txt']);
    // Everything else is not-found, whether it exists or not.
    for (const path of ['secret/hidden.txt', 'secret/other', 'secret/missing', 'Shared', 'drop']) {
      expectError(await list(t, path, { key: deep.key }), 404, 'not-found/file-not-found');
    }
  });

  it('answers not-found for everything but the root to a caller with no grant', async () => {
    expect(await listedPaths(t, '', { key: nobody.key })).toEqual([]);
    for (const path of ['Shared', 'shared/a.txt', 'drop', 'nothing-here']) {
      expectError(await list(t, path, { key: nobody.key }), 404, 'not-found/file-not-found');
    }
  });

  it('combines a group grant with the way to it', async () => {
    expect(await listedPaths(t, '', { key: grouped.key })).toEqual(['Shared']);
    expect((await list(t, 'shared', { key: grouped.key })).body.map((e: { path: string; permissions: string }) => [e.path, e.permissions]))
      .toEqual([['Shared/Sub2', 'lrwd']]);
  });

  it('gives each entry the letters the engine gives a single check on it', async () => {
    for (const member of [reader, writer, deep, grouped]) {
      const folder = member === writer ? 'drop' : member === deep ? 'secret/project' : 'shared';
      for (const entry of (await list(t, folder, { key: member.key })).body as { path: string; type: string; permissions: string }[]) {
        const explained = await t.api.get(`/permissions/explain?path=${enc(entry.path)}&type=${entry.type}`, { key: member.key });
        const letters = ['list', 'read', 'write', 'delete'].filter((c) => explained.body.capabilities.includes(c)).map((c) => c[0]).join('');
        expect(entry.permissions, entry.path).toBe(letters);
      }
    }
  });

  it('answers every listing from the data as it is now, however often the same listing was asked', async () => {
    const member = await memberOf(t);
    const group = await createGroup(t.database.db);
    await addMember(t.database.db, group, member.id);
    await seed(t, { 'live/one.txt': '1' });
    await grantAsSite(t, { path: 'live', group_id: group, permission: 'readonly' });
    const letters = async () => ((await list(t, 'live', { key: member.key })).body as { path: string; permissions: string }[]).map((e) => `${e.path} ${e.permissions}`);
    // Asked twice before each change: the second answer may come from memory, the next must not.
    const settled = async (expected: string[]) => {
      for (let i = 0; i < 2; i += 1) expect(await letters()).toEqual(expected);
    };
    await settled(['live/one.txt lr']);
    await seed(t, { 'live/two.txt': '2' });
    await settled(['live/one.txt lr', 'live/two.txt lr']);
    // Replaces the readonly grant (same grantee, same path).
    const full = await grantAsSite(t, { path: 'live', group_id: group, permission: 'full' });
    await settled(['live/one.txt lrwd', 'live/two.txt lrwd']);
    expect((await t.api.delete(`/files/${enc('live/one.txt')}`, { key: member.key })).status).toBe(204);
    await settled(['live/two.txt lrwd']);
    // Out of the group (a change straight in the database, as another tool would make it): not even the folder.
    await t.database.db.deleteFrom('group_users').where('group_id', '=', group).where('user_id', '=', member.id).execute();
    expectError(await list(t, 'live', { key: member.key }), 404, 'not-found/file-not-found');
    await addMember(t.database.db, group, member.id);
    await settled(['live/two.txt lrwd']);
    expect((await t.api.delete(`/permissions/${full}`, { key: BOOTSTRAP_KEY })).status).toBe(204);
    expectError(await list(t, 'live', { key: member.key }), 404, 'not-found/file-not-found');
  });

  it('lists a visible file as itself', async () => {
    const response = await list(t, 'shared/a.txt', { key: reader.key });
    expect(response.body.map((e: { path: string }) => e.path)).toEqual(['Shared/a.txt']);
  });

  it('pages with a cursor, folders first, and sends no cursor on the last page', async () => {
    await seed(t, { 'paged/d1/': '', 'paged/d2/': '', 'paged/D3/': '', 'paged/f1': '1', 'paged/F2': '2', 'paged/f3': '3' });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response: any = await t.api.get(`/folders/paged?per_page=2${cursor === null ? '' : `&cursor=${cursor}`}`, { key: BOOTSTRAP_KEY });
      expect(response.status).toBe(200);
      seen.push(...response.body.map((e: { display_name: string }) => e.display_name));
      cursor = response.headers.get('x-service-cursor');
      expect(response.headers.get('x-service-cursor-next')).toBe(cursor);
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(['d1', 'd2', 'D3', 'f1', 'F2', 'f3']);
  });

  it('pages by 1000 when no per_page is given (contract 1.3)', async () => {
    await seed(t, { 'thousand/': '' });
    const now = Date.now();
    const rows = Array.from({ length: 1001 }, (_, i) => {
      const path = `thousand/f${String(i).padStart(4, '0')}`;
      return { path, path_key: path, parent_key: 'thousand', type: 'file' as const, size: 0, storage_key: null, created_at: now, mtime: now };
    });
    for (let i = 0; i < rows.length; i += 200) await t.database.db.insertInto('entries').values(rows.slice(i, i + 200)).execute();
    const first = await t.api.get('/folders/thousand', { key: BOOTSTRAP_KEY });
    expect(first.body).toHaveLength(1000);
    const cursor = first.headers.get('x-service-cursor');
    expect(cursor).not.toBeNull();
    const second = await t.api.get(`/folders/thousand?cursor=${cursor}`, { key: BOOTSTRAP_KEY });
    expect(second.body.map((e: { path: string }) => e.path)).toEqual(['thousand/f1000']);
    expect(second.headers.get('x-service-cursor')).toBeNull();
  });

  it('refuses a cursor of another folder, or a malformed one', async () => {
    const first = await t.api.get('/folders/paged?per_page=1', { key: BOOTSTRAP_KEY });
    const cursor = first.headers.get('x-service-cursor') as string;
    expectError(await t.api.get(`/folders/shared?cursor=${cursor}`, { key: BOOTSTRAP_KEY }), 400, 'bad-request/invalid-cursor');
    expectError(await t.api.get('/folders/paged?cursor=%%%', { key: BOOTSTRAP_KEY }), 400, 'bad-request/invalid-cursor');
    expectError(await t.api.get('/folders/paged?per_page=0', { key: BOOTSTRAP_KEY }), 400, 'bad-request/request-params-invalid');
    // A forged cursor for the right folder, holding what no name can: refused, not passed to SQL.
    const folder = `folder:${createHash('sha256').update('paged').digest('base64url').slice(0, 16)}`;
    for (const value of ['path.asc/f//a\u0000b', 'path.asc/f//a/b', 'path.asc/x//a', 'path.asc/f//', 'size.asc/f/1e99/a', 'f:f1', 7]) {
      expectError(await t.api.get(`/folders/paged?cursor=${encodeCursor(folder, value)}`, { key: BOOTSTRAP_KEY }), 400, 'bad-request/invalid-cursor');
    }
    expect((await t.api.get(`/folders/paged?cursor=${encodeCursor(folder, 'path.asc/f//f1')}`, { key: BOOTSTRAP_KEY })).body.map((e: { display_name: string }) => e.display_name)).toEqual(['F2', 'f3']);
  });

  describe('Workspaces', () => {
    let ws1: number;
    let ws2: number;
    let delegate: Member;
    let inside: Member;
    beforeAll(async () => {
      ws1 = await newWorkspace(t);
      ws2 = await newWorkspace(t);
      await mkdir(t, `_/Workspaces/${ws1}/Team/Reports`);
      await mkdir(t, `_/Workspaces/${ws2}/Private`);
      delegate = await memberOf(t);
      await grantAsSite(t, { path: `_/Workspaces/${ws1}/Team`, user_id: delegate.id, permission: 'readonly' });
      inside = await memberOf(t, { workspaceId: ws1 });
      await grantAsSite(t, { path: 'Team', user_id: inside.id, permission: 'full' }, ws1);
    });

    it('shows the Custom Workspace roots under _/Workspaces in context 0, to those who may see them', async () => {
      expect(await listedPaths(t, '_/Workspaces', { key: BOOTSTRAP_KEY })).toEqual(expect.arrayContaining([`_/Workspaces/${ws1}`, `_/Workspaces/${ws2}`]));
      expect(await listedPaths(t, '', { key: delegate.key })).toEqual(['_']);
      expect(await listedPaths(t, '_', { key: delegate.key })).toEqual(['_/Workspaces']);
      expect(await listedPaths(t, '_/Workspaces', { key: delegate.key })).toEqual([`_/Workspaces/${ws1}`]);
      expect(await listedPaths(t, `_/workspaces/${ws1}`, { key: delegate.key })).toEqual([`_/Workspaces/${ws1}/Team`]);
      expectError(await list(t, `_/Workspaces/${ws2}`, { key: delegate.key }), 404, 'not-found/file-not-found');
    });

    it('lists paths relative to the root inside a Workspace, and the root always lists', async () => {
      const response = await list(t, '', { key: inside.key, workspace: ws1 });
      expect(response.body.map((e: { path: string; permissions: string }) => [e.path, e.permissions])).toEqual([['Team', 'lrwd']]);
      expect(await listedPaths(t, 'team', { key: inside.key })).toEqual(['Team/Reports']);
      // A Workspace 0 user selecting a Workspace it has nothing in sees an empty root.
      expect(await listedPaths(t, '', { key: nobody.key, workspace: ws2 })).toEqual([]);
      expect(await listedPaths(t, '', { key: delegate.key, workspace: ws1 })).toEqual(['Team']);
    });

    it('lets a Workspace Administrator see its whole Workspace and nothing outside it', async () => {
      const admin = await memberOf(t, { workspaceId: ws2, workspaceAdmin: true });
      expect(await listedPaths(t, '/', { key: admin.key })).toEqual(['Private']);
      expectError(await list(t, `_/Workspaces/${ws1}`, { key: admin.key }), 404, 'not-found/file-not-found');
    });
  });
});
