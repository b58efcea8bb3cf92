import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { downloadText, enc, expectError, grantAsSite, insertGrant, listedPaths, memberOf, newWorkspace, putFile, seed } from './files-support.js';

const admin = { key: BOOTSTRAP_KEY };

describe.each(testDatabaseTargets())('delete, move and copy [$name]', (target) => {
  let t: TestApp;
  const blobCount = async () =>
    (await fs.readdir(path.join(t.dataDir, 'files', 'objects'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(() => t.close());

  /** The newest deletion of `path` in the trash. */
  const trashIdOf = async (path: string) => {
    const trash = await t.api.get(`/trash?path=${encodeURIComponent(path)}`, admin);
    return (trash.body as { id: number; path: string }[]).find((entry) => entry.path === path)?.id;
  };
  const move = (from: string, to: string, key = BOOTSTRAP_KEY) => t.api.post(`/file_actions/move/${enc(from)}`, { path: from, destination: to }, { key });
  const copy = (from: string, to: string, key = BOOTSTRAP_KEY) => t.api.post(`/file_actions/copy/${enc(from)}`, { path: from, destination: to }, { key });

  it('deletes a file into the trash, answering 204 without a body; purging it there deletes its contents', async () => {
    await seed(t, { 'd/one.txt': '1' });
    const before = await blobCount();
    const response = await t.api.delete(`/files/${enc('d/one.txt')}`, { ...admin, body: { path: 'd/one.txt' } });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(response.headers.get('content-type')).toBeNull();
    expectError(await t.api.delete(`/files/${enc('d/one.txt')}`, admin), 404, 'not-found/file-not-found');
    // The contents stay, named by the trash, until it is purged (docs/files.md#trash-and-versions).
    expect(await blobCount()).toBe(before);
    expect((await t.api.delete(`/trash/${await trashIdOf('d/one.txt')}`, admin)).status).toBe(204);
    expect(await blobCount()).toBe(before - 1);
  });

  it('deletes a non-empty folder only with recursive, contents and all', async () => {
    await seed(t, { 'tree/a.txt': 'a', 'tree/b/c.txt': 'c', 'tree/b/d/': '' });
    const before = await blobCount();
    expectError(await t.api.delete('/files/tree', admin), 422, 'processing-failure/folder-not-empty');
    expect((await t.api.delete('/files/tree', { ...admin, body: { recursive: true } })).status).toBe(204);
    expect(await t.database.db.selectFrom('entries').select('path').where('path_key', 'like', 'tree%').execute()).toEqual([]);
    expect(await blobCount()).toBe(before);
    expect((await t.api.delete(`/trash/${await trashIdOf('tree')}`, admin)).status).toBe(204);
    expect(await blobCount()).toBe(before - 2);
    await seed(t, { 'empty/': '' });
    expect((await t.api.delete('/files/empty', admin)).status).toBe(204);
  });

  it('deletes a folder recursively only with delete on everything inside it', async () => {
    await seed(t, { 'flat/a.txt': 'a', 'flat/b.txt': 'b', 'nested/a.txt': 'a', 'nested/sub/b.txt': 'b' });
    const member = await memberOf(t);
    // Non-recursive full: the folder and its own files, not its subfolders.
    for (const folder of ['flat', 'nested']) await insertGrant(t, { path: folder, userId: member.id, permission: 'full', recursive: false });
    expect((await t.api.delete('/files/flat?recursive=true', { key: member.key })).status).toBe(204);
    expectError(await t.api.delete('/files/nested?recursive=true', { key: member.key }), 403, 'not-authorized/full-permission-required');
    expect(await listedPaths(t, 'nested', admin)).toEqual(['nested/sub', 'nested/a.txt']);
    // A grant on the subfolder too completes the set.
    await insertGrant(t, { path: 'nested/sub', userId: member.id, permission: 'full' });
    expect((await t.api.delete('/files/nested?recursive=true', { key: member.key })).status).toBe(204);
  });

  it('moves and renames a file, keeping its contents and its download', async () => {
    await seed(t, { 'm/src.txt': 'moving bytes', 'm/dest/': '' });
    const before = await blobCount();
    const response = await move('m/src.txt', 'm/dest/renamed.txt');
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ status: 'completed', file_migration_id: null });
    expect(await downloadText(t, 'm/dest/renamed.txt', admin)).toBe('moving bytes');
    expectError(await t.api.get('/files/m%2Fsrc.txt', admin), 404, 'not-found/file-not-found');
    expect(await blobCount()).toBe(before);
  });

  it('moves a folder with everything in it, creating missing destination folders', async () => {
    await seed(t, { 'proj/Alpha/a.txt': 'a', 'proj/Alpha/deep/b.txt': 'b' });
    expect((await move('proj/alpha', 'archive/2026/Alpha')).status).toBe(201);
    expect(await listedPaths(t, 'archive/2026/alpha', admin)).toEqual(['archive/2026/Alpha/deep', 'archive/2026/Alpha/a.txt']);
    expect(await downloadText(t, 'archive/2026/Alpha/deep/b.txt', admin)).toBe('b');
    expect(await listedPaths(t, 'proj', admin)).toEqual([]);
  });

  it('changes only the spelling when source and destination differ in case', async () => {
    await seed(t, { 'case/report.txt': 'r', 'case/Folder/x.txt': 'x' });
    expect((await move('case/report.txt', 'case/REPORT.txt')).status).toBe(201);
    expect((await move('case/folder', 'case/FOLDER')).status).toBe(201);
    expect(await listedPaths(t, 'case', admin)).toEqual(['case/FOLDER', 'case/REPORT.txt']);
    expect(await listedPaths(t, 'case/folder', admin)).toEqual(['case/FOLDER/x.txt']);
    expectError(await move('case/REPORT.txt', 'case/REPORT.txt'), 400, 'bad-request/destination-same');
  });

  it('never overwrites, and never moves or copies a folder into itself', async () => {
    await seed(t, { 'x/a.txt': 'a', 'x/b.txt': 'b', 'x/in/': '' });
    expectError(await move('x/a.txt', 'x/B.TXT'), 422, 'processing-failure/destination-exists');
    expectError(await copy('x/a.txt', 'x/b.txt'), 422, 'processing-failure/destination-exists');
    expectError(await move('x', 'x/in/x'), 400, 'bad-request/destination-inside-source');
    expectError(await copy('x', 'x/in/copy'), 400, 'bad-request/destination-inside-source');
    expectError(await move('x/missing', 'y'), 404, 'not-found/file-not-found');
    expectError(await t.api.post('/file_actions/move/x%2Fa.txt', {}, admin), 400, 'bad-request/request-params-required');
  });

  it('copies a file and a folder into independent contents', async () => {
    await seed(t, { 'c/orig.txt': 'original', 'c/dir/one.txt': '1', 'c/dir/sub/two.txt': '2' });
    const before = await blobCount();
    expect((await copy('c/orig.txt', 'c/copy.txt')).status).toBe(201);
    expect((await copy('c/dir', 'c/dir-copy')).status).toBe(201);
    expect(await blobCount()).toBe(before + 3);
    expect((await t.api.delete('/files/c%2Forig.txt', admin)).status).toBe(204);
    expect(await downloadText(t, 'c/copy.txt', admin)).toBe('original');
    expect(await listedPaths(t, 'c/dir-copy', admin)).toEqual(['c/dir-copy/sub', 'c/dir-copy/one.txt']);
    expect(await downloadText(t, 'c/dir-copy/sub/two.txt', admin)).toBe('2');
  });

  it('needs delete to move, read to copy, and write at the destination', async () => {
    await seed(t, { 'gate/src/f.txt': 'f', 'gate/ro/r.txt': 'r', 'gate/dst/': '', 'gate/closed/': '' });
    const member = await memberOf(t);
    await grantAsSite(t, { path: 'gate/src', user_id: member.id, permission: 'full' });
    await grantAsSite(t, { path: 'gate/ro', user_id: member.id, permission: 'readonly' });
    await grantAsSite(t, { path: 'gate/dst', user_id: member.id, permission: 'writeonly' });
    expectError(await move('gate/ro/r.txt', 'gate/dst/r.txt', member.key), 403, 'not-authorized/full-permission-required');
    expect((await copy('gate/ro/r.txt', 'gate/dst/r.txt', member.key)).status).toBe(201);
    expectError(await move('gate/src/f.txt', 'gate/ro/f.txt', member.key), 403, 'not-authorized/write-permission-required');
    // A folder the member cannot see is one it would have to make, as where nothing is.
    expectError(await move('gate/src/f.txt', 'gate/closed/f.txt', member.key), 403, 'not-authorized/write-permission-required');
    expectError(await move('gate/src/f.txt', 'gate/missing/f.txt', member.key), 403, 'not-authorized/write-permission-required');
    expect((await move('gate/src/f.txt', 'gate/dst/f.txt', member.key)).status).toBe(201);
    const writerOnly = await memberOf(t);
    await grantAsSite(t, { path: 'gate/dst', user_id: writerOnly.id, permission: 'writeonly' });
    await grantAsSite(t, { path: 'gate/src', user_id: writerOnly.id, permission: 'list' });
    await putFile(t, 'gate/src/g.txt', 'g');
    expectError(await copy('gate/src/g.txt', 'gate/dst/g.txt', writerOnly.key), 403, 'not-authorized/read-permission-required');
  });

  it('refuses to delete or move the reserved folders and the roots', async () => {
    const ws = await newWorkspace(t);
    for (const target of ['_', '_/Workspaces', `_/Workspaces/${ws}`, '%2F']) {
      expectError(await t.api.delete(`/files/${target.includes('%') ? target : enc(target)}?recursive=true`, admin), 400, 'bad-request/invalid-path');
    }
    expectError(await t.api.delete('/files/', { ...admin, workspace: ws }), 400, 'bad-request/invalid-path');
    expectError(await move(`_/Workspaces/${ws}`, 'stolen'), 400, 'bad-request/invalid-path');
    await seed(t, { 'plain.txt': 'p' });
    expectError(await move('plain.txt', '_/plain.txt'), 400, 'bad-request/invalid-path');
    expect((await move('plain.txt', `_/Workspaces/${ws}/plain.txt`)).status).toBe(201);
    expect(await listedPaths(t, '', { ...admin, workspace: ws })).toEqual(['plain.txt']);
  });
});
