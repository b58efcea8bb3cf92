import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core.js';
import { TRASH_PURGE_KIND } from '../../src/files/index.js';
import { call, startSftpTestApp, type SftpConnection, type SftpTestApp } from '../sftp/sftp-fixture.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, createWorkspace } from '../support/factories.js';
import { ManualTimer } from '../support/manual-timer.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, BOOTSTRAP_KEY } from '../support/test-app.js';
import { DavClient } from '../webdav/dav-client.js';

const DAY = 24 * 60 * 60 * 1000;
const enc = (path: string) => path.split('/').map(encodeURIComponent).join('%2F');

/**
 * The trash and file versions (docs/files.md#trash-and-versions) through the HTTP API, whichever
 * door deleted or overwrote: REST, WebDAV and SFTP share the one file layer, so all three land in
 * the same trash and keep the same versions.
 */
describe.each(testDatabaseTargets())('trash and versions [$name]', (target) => {
  let t: SftpTestApp;
  let dav: DavClient;
  let sftp: SftpConnection;
  const admin = { key: BOOTSTRAP_KEY };

  beforeAll(async () => {
    t = await startSftpTestApp(target);
    dav = new DavClient(t.baseUrl, [ADMIN_USERNAME, ADMIN_PASSWORD]);
    sftp = await t.connect({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
  });
  afterAll(async () => {
    sftp?.close();
    await t?.close();
  });

  const put = async (path: string, content: string, who: { key: string; workspace?: number } = admin) => {
    const answer = await t.api.call('PUT', `/files/${enc(path)}`, { ...who, rawBody: content, headers: { 'content-type': 'application/octet-stream' } });
    expect(answer.status, `${path}: ${answer.text}`).toBeLessThan(300);
  };
  const read = async (path: string, who: { key: string; workspace?: number } = admin) => {
    const answer = await t.api.call('GET', `/files/${enc(path)}?action=stream`, who);
    return answer.status === 200 ? answer.text : answer.status;
  };
  const trash = async (who: { key: string; workspace?: number } = admin, query = '') => {
    const answer = await t.api.get(`/trash${query}`, who);
    expect(answer.status, answer.text).toBe(200);
    return answer.body as any[];
  };
  const trashedAt = async (path: string, who: { key: string; workspace?: number } = admin) => (await trash(who)).find((entry) => entry.path === path);
  const restore = (id: number, who: { key: string; workspace?: number } = admin) => t.api.post(`/trash/${id}/restore`, {}, who);
  const versions = async (path: string) => {
    const answer = await t.api.get(`/file_versions?path=${encodeURIComponent(path)}`, admin);
    expect(answer.status, answer.text).toBe(200);
    return answer.body as any[];
  };
  const blobExists = async (key: string) => {
    try {
      for await (const _chunk of await t.core.storage.read(key)) { /* read through */ }
      return true;
    } catch {
      return false;
    }
  };
  const sftpWrite = async (path: string, content: string) => {
    const handle = await call<Buffer>((done) => sftp.sftp.open(`/${path}`, 'w', done));
    await call((done) => sftp.sftp.write(handle, Buffer.from(content), 0, Buffer.byteLength(content), 0, done));
    await call((done) => sftp.sftp.close(handle, done));
  };

  it('keeps a file deleted through REST, WebDAV or SFTP in the trash and restores it with the same bytes', async () => {
    await put('doors/rest.txt', 'by rest');
    await put('doors/dav.txt', 'by webdav');
    await put('doors/sftp.txt', 'by sftp');
    expect((await t.api.call('DELETE', `/files/${enc('doors/rest.txt')}`, admin)).status).toBe(204);
    expect((await dav.delete('doors/dav.txt')).status).toBe(204);
    await call((done) => sftp.sftp.unlink('/doors/sftp.txt', done));

    for (const [path, bytes] of [['doors/rest.txt', 'by rest'], ['doors/dav.txt', 'by webdav'], ['doors/sftp.txt', 'by sftp']] as const) {
      // Gone from every door's tree (a WebDAV client's DELETE then PROPFIND sees 404)...
      expect(await read(path)).toBe(404);
      expect((await dav.propfind(path, '0')).status).toBe(404);
      // ...and in the trash, once.
      const entry = await trashedAt(path);
      expect(entry).toMatchObject({ type: 'file', size: bytes.length, files: 1, entries: 1, display_name: path.split('/')[1] });
      expect(Date.parse(entry.expires_at) - Date.parse(entry.deleted_at)).toBe(30 * DAY);
      const restored = await restore(entry.id);
      expect(restored.status, restored.text).toBe(200);
      expect(restored.body).toMatchObject({ path, renamed: false, file: { path, size: bytes.length } });
      expect(await read(path)).toBe(bytes);
      expect(await trashedAt(path)).toBeUndefined();
      expect((await restore(entry.id)).body.type).toBe('not-found/trashed-entry-not-found');
    }
  });

  it('keeps a deleted folder as one entry with its tree, and restores it with its parents made again', async () => {
    await put('tree/top/a.txt', 'A');
    await put('tree/top/sub/b.txt', 'BB');
    expect((await t.api.post(`/folders/${enc('tree/top/empty')}`, {}, admin)).status).toBe(201);
    expect((await dav.delete('tree/top')).status).toBe(204);
    // Its folder goes too, separately: the restore makes it again.
    expect((await t.api.call('DELETE', `/files/${enc('tree')}?recursive=true`, admin)).status).toBe(204);

    const entry = await trashedAt('tree/top');
    expect(entry).toMatchObject({ type: 'directory', files: 2, entries: 5, size: 3 });
    const shown = await t.api.get(`/trash/${entry.id}`, admin);
    expect(shown.body.tree.map((item: any) => [item.path, item.type, item.size])).toEqual([
      ['', 'directory', null], ['a.txt', 'file', 1], ['empty', 'directory', null], ['sub', 'directory', null], ['sub/b.txt', 'file', 2],
    ]);
    expect(shown.body.tree_complete).toBe(true);
    expect((await restore(entry.id)).body).toMatchObject({ path: 'tree/top', renamed: false, file: { type: 'directory' } });
    expect(await read('tree/top/a.txt')).toBe('A');
    expect(await read('tree/top/sub/b.txt')).toBe('BB');
    expect((await t.api.get(`/folders/${enc('tree/top/empty')}`, admin)).status).toBe(200);
    // The folder above was made again, not restored: its own deletion is still in the trash.
    expect(await trashedAt('tree')).toMatchObject({ type: 'directory' });
    // The trash filtered by path: what was at or inside it.
    expect((await trash(admin, `?path=${encodeURIComponent('tree')}`)).map((e) => e.path)).toEqual(['tree']);
  });

  it('restores beside what took its place, under a new name, and says which', async () => {
    await put('taken/report.txt', 'first');
    expect((await t.api.call('DELETE', `/files/${enc('taken/report.txt')}`, admin)).status).toBe(204);
    const first = await trashedAt('taken/report.txt');
    await put('taken/report.txt', 'second');
    expect((await t.api.call('DELETE', `/files/${enc('taken/report.txt')}`, admin)).status).toBe(204);
    await put('taken/report.txt', 'third');
    const second = (await trash()).find((e) => e.path === 'taken/report.txt' && e.id !== first.id);

    expect((await restore(first.id)).body).toMatchObject({ path: 'taken/report (1).txt', renamed: true });
    expect((await restore(second.id)).body).toMatchObject({ path: 'taken/report (2).txt', renamed: true });
    expect([await read('taken/report.txt'), await read('taken/report (1).txt'), await read('taken/report (2).txt')]).toEqual(['third', 'first', 'second']);
  });

  it('shows a deletion only to whoever could delete it now, and never across Workspaces', async () => {
    await put('guarded/secret.txt', 'secret');
    const full = await createUser(t.database.db);
    const reader = await createUser(t.database.db);
    for (const [user, permission] of [[full, 'full'], [reader, 'readonly']] as const) {
      expect((await t.api.post('/permissions', { path: 'guarded', user_id: user.id, permission }, admin)).status).toBe(201);
    }
    const fullKey = { key: await createApiKey(t.database.db, { userId: full.id }) };
    const readerKey = { key: await createApiKey(t.database.db, { userId: reader.id }) };
    expect((await t.api.call('DELETE', `/files/${enc('guarded/secret.txt')}`, fullKey)).status).toBe(204);
    const entry = await trashedAt('guarded/secret.txt', fullKey);
    expect(entry).toMatchObject({ deleted_by_id: full.id });

    expect(await trashedAt('guarded/secret.txt', readerKey)).toBeUndefined();
    for (const answer of [await t.api.get(`/trash/${entry.id}`, readerKey), await restore(entry.id, readerKey), await t.api.call('DELETE', `/trash/${entry.id}`, readerKey)]) {
      expect([answer.status, answer.body.type]).toEqual([404, 'not-found/trashed-entry-not-found']);
    }
    // Another Workspace's administrator sees nothing of Workspace 0's trash, nor it of theirs.
    const ws = await createWorkspace(t.database.db);
    const wsAdmin = await createUser(t.database.db, { workspaceId: ws, workspaceAdmin: true });
    const wsKey = { key: await createApiKey(t.database.db, { userId: wsAdmin.id, workspaceId: ws }) };
    await put('theirs.txt', 'theirs', wsKey);
    expect((await t.api.call('DELETE', '/files/theirs.txt', wsKey)).status).toBe(204);
    expect((await trash(wsKey)).map((e) => e.path)).toEqual(['theirs.txt']);
    expect((await t.api.get(`/trash/${entry.id}`, wsKey)).status).toBe(404);
    expect((await trash()).map((e) => e.path)).not.toContain('theirs.txt');

    // Losing the grant hides it again: the decision is the engine's, on grants as they are now.
    const reallowed = await t.api.post('/permissions', { path: 'guarded', user_id: reader.id, permission: 'full' }, admin);
    expect(reallowed.status).toBe(201);
    expect(await trashedAt('guarded/secret.txt', readerKey)).toMatchObject({ id: entry.id });
    expect((await t.api.call('DELETE', `/trash/${entry.id}`, readerKey)).status).toBe(204);
    expect(await trashedAt('guarded/secret.txt', fullKey)).toBeUndefined();
  });

  it('never shows a Partner user the deletion of its own root folder, though its grant there is full', async () => {
    const partner = (await t.api.post('/partners', { name: 'Trash Partner', root_folder: 'partners/trash-acme' }, admin)).body;
    expect((await t.api.post('/permissions', { path: 'partners/trash-acme', partner_id: partner.id, permission: 'full' }, admin)).status).toBe(201);
    const user = await t.api.post('/users', { username: 'trash-partner-user', partner_id: partner.id }, admin);
    expect(user.status, user.text).toBe(201);
    const partnerKey = { key: await createApiKey(t.database.db, { userId: user.body.id }) };
    await put('partners/trash-acme/inbox/x.txt', 'x');
    expect((await t.api.call('DELETE', `/files/${enc('inbox/x.txt')}`, partnerKey)).status).toBe(204);
    expect((await trash(partnerKey)).map((e) => e.path)).toEqual(['inbox/x.txt']);
    // Its root, deleted by a Site Administrator, is the Partner's, not the Partner user's to restore.
    expect((await t.api.call('DELETE', `/files/${enc('partners/trash-acme')}?recursive=true`, admin)).status).toBe(204);
    const root = await trashedAt('partners/trash-acme');
    expect((await trash(partnerKey)).map((e) => e.path)).toEqual(['inbox/x.txt']);
    expect((await t.api.get(`/trash/${root.id}`, partnerKey)).body.type).toBe('not-found/trashed-entry-not-found');
    expect((await restore(root.id)).status).toBe(200);
  });

  it('keeps the previous content as a version on an overwrite by REST, WebDAV or SFTP, up to the site\'s count, and restores one', async () => {
    await put('versioned.txt', 'v1');
    await put('versioned.txt', 'v2');
    expect((await dav.put('versioned.txt', 'v3')).status).toBe(204);
    await sftpWrite('versioned.txt', 'v4');
    // WebDAV's COPY and MOVE over it with Overwrite: T keep what they replace too.
    await put('incoming-copy.txt', 'v5');
    expect((await dav.transfer('COPY', 'incoming-copy.txt', 'versioned.txt', { Overwrite: 'T' })).status).toBe(204);
    await put('incoming-move.txt', 'v6');
    expect((await dav.transfer('MOVE', 'incoming-move.txt', 'versioned.txt', { Overwrite: 'T' })).status).toBe(204);
    expect(await read('versioned.txt')).toBe('v6');
    const listed = await versions('versioned.txt');
    expect(listed.map((v) => v.size)).toEqual([2, 2, 2, 2, 2]);
    expect(listed.map((v) => v.path)).toEqual(Array(5).fill('versioned.txt'));

    // Restoring one makes it the content, and the content it replaces a version.
    const v2 = listed[3];
    const restored = await t.api.post(`/file_versions/${v2.id}/restore`, {}, admin);
    expect(restored.status, restored.text).toBe(200);
    expect(await read('versioned.txt')).toBe('v2');
    const after = await versions('versioned.txt');
    expect(after).toHaveLength(5);
    expect(after.map((v) => v.id)).not.toContain(v2.id);
    expect((await t.api.post(`/file_versions/${after[0].id}/restore`, {}, admin)).status).toBe(200);
    expect(await read('versioned.txt')).toBe('v6');
    expect((await t.api.post(`/file_versions/${v2.id}/restore`, {}, admin)).body.type).toBe('not-found/file-version-not-found');

    // The site's count bounds them: the oldest go first.
    expect((await t.api.patch('/site', { max_file_versions: 2 }, admin)).status).toBe(200);
    await put('versioned.txt', 'v7');
    const kept = await versions('versioned.txt');
    expect(kept).toHaveLength(2);
    expect((await t.api.post(`/file_versions/${kept[0].id}/restore`, {}, admin)).status).toBe(200);
    expect(await read('versioned.txt')).toBe('v6');
    expect((await t.api.patch('/site', { max_file_versions: 10 }, admin)).status).toBe(200);
  });

  it('keeps a file\'s versions with it when it moves, goes to the trash and comes back', async () => {
    await put('travel/a.txt', 'old');
    await put('travel/a.txt', 'new');
    const [kept] = await versions('travel/a.txt');
    expect((await t.api.post(`/file_actions/move/${enc('travel/a.txt')}`, { destination: 'travel/b.txt' }, admin)).status).toBe(201);
    expect((await versions('travel/b.txt')).map((v) => v.id)).toEqual([kept.id]);
    expect((await t.api.call('DELETE', `/files/${enc('travel/b.txt')}`, admin)).status).toBe(204);
    // In the trash with its file: not restorable until the file is back.
    expect((await t.api.post(`/file_versions/${kept.id}/restore`, {}, admin)).body.type).toBe('not-found/file-version-not-found');
    expect((await restore((await trashedAt('travel/b.txt')).id)).status).toBe(200);
    expect((await versions('travel/b.txt')).map((v) => v.id)).toEqual([kept.id]);
    expect((await t.api.post(`/file_versions/${kept.id}/restore`, {}, admin)).status).toBe(200);
    expect(await read('travel/b.txt')).toBe('old');
  });

  it('lists a file\'s versions to whoever may read it, and restores one only for whoever may write it and holds no lock of another\'s', async () => {
    await put('shelf/kept.txt', 'first');
    await put('shelf/kept.txt', 'second');
    const [reader, holder, editor] = [await createUser(t.database.db), await createUser(t.database.db), await createUser(t.database.db)];
    for (const [user, permission] of [[reader, 'readonly'], [holder, 'full'], [editor, 'full']] as const) {
      expect((await t.api.post('/permissions', { path: 'shelf', user_id: user.id, permission }, admin)).status).toBe(201);
    }
    const [readerKey, holderKey, editorKey] = [
      { key: await createApiKey(t.database.db, { userId: reader.id }) },
      { key: await createApiKey(t.database.db, { userId: holder.id }) },
      { key: await createApiKey(t.database.db, { userId: editor.id }) },
    ];
    const listed = await t.api.get(`/file_versions?path=${encodeURIComponent('shelf/kept.txt')}`, readerKey);
    expect(listed.status, listed.text).toBe(200);
    const [version] = listed.body as { id: number; size: number }[];
    expect(version).toMatchObject({ size: 'first'.length });
    const refused = await t.api.post(`/file_versions/${version!.id}/restore`, {}, readerKey);
    expect([refused.status, refused.body.type]).toEqual([403, 'not-authorized/full-permission-required']);
    // Someone with no grant there is answered as for a file that is not there.
    const stranger = { key: await createApiKey(t.database.db, { userId: (await createUser(t.database.db)).id }) };
    expect((await t.api.get(`/file_versions?path=${encodeURIComponent('shelf/kept.txt')}`, stranger)).status).toBe(404);
    expect((await t.api.post(`/file_versions/${version!.id}/restore`, {}, stranger)).status).toBe(404);
    // A lock of another's stops a restore as it stops an overwrite; its holder restores.
    expect((await t.api.post('/locks/shelf/kept.txt', { timeout: 600, recursive: false }, holderKey)).status).toBe(201);
    expect((await t.api.post(`/file_versions/${version!.id}/restore`, {}, editorKey)).body.type).toBe('processing-failure/file-locked');
    expect(await read('shelf/kept.txt')).toBe('second');
    expect((await t.api.post(`/file_versions/${version!.id}/restore`, {}, holderKey)).status).toBe(200);
    expect(await read('shelf/kept.txt')).toBe('first');
  });

  it('counts the trash and versions in the site usage', async () => {
    const before = (await t.api.get('/site/usage', admin)).body;
    await put('usage/kept.txt', 'x'.repeat(100));
    await put('usage/kept.txt', 'y'.repeat(40));
    expect((await t.api.call('DELETE', `/files/${enc('usage/kept.txt')}`, admin)).status).toBe(204);
    const after = (await t.api.get('/site/usage', admin)).body;
    expect(after.bytes_stored - before.bytes_stored).toBe(0);
    expect(after.trash_bytes - before.trash_bytes).toBe(40);
    expect(after.trash_files_count - before.trash_files_count).toBe(1);
    // The version of a file in the trash counts still: it comes back with the file.
    expect(after.version_bytes - before.version_bytes).toBe(100);
    expect(after.deleted_files_storage).toBe((after.trash_bytes + after.version_bytes) / 1e9);
    const root = after.usage_by_workspace.find((w: any) => w.workspace_id === 0);
    expect(root.trash_bytes).toBe(after.trash_bytes - after.usage_by_workspace.filter((w: any) => w.workspace_id !== 0).reduce((s: number, w: any) => s + w.trash_bytes, 0));
    const entry = await trashedAt('usage/kept.txt');
    expect((await t.api.call('DELETE', `/trash/${entry.id}`, admin)).status).toBe(204);
    const purged = (await t.api.get('/site/usage', admin)).body;
    expect([purged.trash_bytes, purged.version_bytes]).toEqual([before.trash_bytes, before.version_bytes]);
  });

  it('purges deletions past the retention on the job runner, once across two nodes', async () => {
    expect((await t.api.patch('/site', { trash_retention_days: 2 }, admin)).status).toBe(200);
    await put('expiring/old.txt', 'old');
    await put('expiring/old.txt', 'older content kept as a version');
    expect((await t.api.call('DELETE', `/files/${enc('expiring/old.txt')}`, admin)).status).toBe(204);
    t.clock.advance(DAY);
    await put('expiring/young.txt', 'young');
    expect((await t.api.call('DELETE', `/files/${enc('expiring/young.txt')}`, admin)).status).toBe(204);
    const old = await trashedAt('expiring/old.txt');
    const blobs = await t.database.db.selectFrom('trash_items').select('storage_key').where('trash_id', '=', old.id).execute();
    const versionBlobs = await t.database.db.selectFrom('file_versions').innerJoin('trash_items', 'trash_items.entry_id', 'file_versions.entry_id')
      .select('file_versions.storage_key').where('trash_items.trash_id', '=', old.id).execute();
    expect(versionBlobs).toHaveLength(1);

    const other = createCore({
      database: t.database, clock: t.clock, timer: new ManualTimer(),
      config: { headerBrands: ['Service'], logLevel: 'silent', accessLog: false, trustProxy: false, dataDir: t.dataDir, maxUploadBytes: 1 << 30 },
    });
    // A day and a half after the first deletion: nothing is due yet.
    t.clock.advance(DAY / 2);
    await Promise.all([t.core.jobs.runDue(), other.jobs.runDue()]);
    expect(await trashedAt('expiring/old.txt')).toBeDefined();
    // Past two days (and into the next hour's slot), both nodes look at once: one purges.
    t.clock.advance(DAY / 2 + 60 * 60 * 1000);
    await Promise.all([t.core.jobs.runDue(), other.jobs.runDue()]);
    expect(await trashedAt('expiring/old.txt')).toBeUndefined();
    expect(await trashedAt('expiring/young.txt')).toBeDefined();
    const slot = Math.floor(t.clock.now() / (60 * 60 * 1000)) * 60 * 60 * 1000;
    const jobs = await t.database.db.selectFrom('jobs').select(['status', 'attempts', 'dedupe_key']).where('kind', '=', TRASH_PURGE_KIND).where('dedupe_key', '=', `${TRASH_PURGE_KIND}@${slot}`).execute();
    expect(jobs).toEqual([{ status: 'done', attempts: 1, dedupe_key: `${TRASH_PURGE_KIND}@${slot}` }]);
    // The purged file's blob and its version's are gone from storage; nothing else was touched.
    for (const { storage_key } of [...blobs, ...versionBlobs]) expect(await blobExists(storage_key as string)).toBe(false);
    expect((await restore((await trashedAt('expiring/young.txt')).id)).status).toBe(200);
    expect(await read('expiring/young.txt')).toBe('young');
    expect((await t.api.patch('/site', { trash_retention_days: 30 }, admin)).status).toBe(200);
  });
});
