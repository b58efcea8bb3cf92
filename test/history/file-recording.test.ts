import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyHistoryChain } from '../../src/history/index.js';
import type { HistoryRow } from '../../src/repositories/history.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { enc, expectError, grantAsSite, newWorkspace } from '../files/files-support.js';

const PASSWORD = 'a perfectly good passphrase';
const CONSOLE = { 'X-Atrium-Console': '1' };

/**
 * What History records of each file action made through the REST API, read straight from the
 * table: exactly one record per change, with the Files.com action, the qualified site path, the
 * actor and the front door, and none for a refused change.
 */
describe.each(testDatabaseTargets())('history of file actions [$name]', (target) => {
  let t: TestApp;
  let ws: number;
  let member: { id: number; username: string; key: string };
  let reader: { id: number; key: string };
  let root: string;
  beforeAll(async () => {
    t = await startTestApp(target);
    ws = await newWorkspace(t);
    root = `_/Workspaces/${ws}`;
    expect((await t.api.post('/folders/Shared', {}, { key: BOOTSTRAP_KEY, workspace: ws })).status).toBe(201);
    const user = await createUser(t.database.db, { workspaceId: ws, password: PASSWORD });
    member = { id: user.id, username: user.username, key: await createApiKey(t.database.db, { userId: user.id, workspaceId: ws }) };
    await grantAsSite(t, { path: 'Shared', user_id: member.id, permission: 'full' }, ws);
    const readonly = await createUser(t.database.db, { workspaceId: ws });
    reader = { id: readonly.id, key: await createApiKey(t.database.db, { userId: readonly.id, workspaceId: ws }) };
    await grantAsSite(t, { path: 'Shared', user_id: reader.id, permission: 'readonly' }, ws);
  });
  afterAll(() => t.close());

  const as = (key = member.key) => ({ key, workspace: ws });
  const lastId = async () => (await t.database.db.selectFrom('history_chain').select('last_id').executeTakeFirstOrThrow()).last_id;
  const since = (id: number): Promise<HistoryRow[]> => t.database.db.selectFrom('history').selectAll().where('id', '>', id).orderBy('id').execute();
  const targetsOf = (row: HistoryRow | undefined) => JSON.parse(row?.targets ?? 'null') as Record<string, unknown>;
  /** The records a step leaves. */
  async function recordsOf(step: () => Promise<unknown>): Promise<HistoryRow[]> {
    const mark = await lastId();
    await step();
    return since(mark);
  }
  const put = async (path: string, content: string, key = member.key, query = '') => {
    const response = await fetch(`${t.baseUrl}/api/rest/v1/files/${enc(path)}${query}`, {
      method: 'PUT', headers: { 'X-ServiceAPI-Key': key, 'X-Service-Workspace-Id': String(ws) }, body: content,
    });
    return response.status;
  };
  /** What every record of the member's own API-key calls says about who, where and through which door. */
  const byMember = () => ({ user_id: member.id, interface: 'restapi', workspace_id: ws });
  /** Signs the member in as the console does: the session comes back as a cookie, sent with the console's header. */
  const consoleHeaders = async (): Promise<Record<string, string>> => {
    const response = await t.api.post('/sessions', { username: member.username, password: PASSWORD }, { headers: CONSOLE });
    expect(response.status).toBe(201);
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie).toMatch(/^atrium_session=./);
    return { ...CONSOLE, cookie };
  };

  describe('create', () => {
    it('records a folder created, and each folder mkdir_parents made on the way, shallowest first', async () => {
      const rows = await recordsOf(async () => {
        expect((await t.api.post(`/folders/${enc('Shared/a/b')}`, { mkdir_parents: true }, as())).status).toBe(201);
      });
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({ action: 'create', path: `${root}/Shared/a`, ...byMember(), source: null, destination: null });
      expect(rows[1]).toMatchObject({ action: 'create', path: `${root}/Shared/a/b`, ...byMember(), api_key_id: expect.any(Number), username: member.username });
      expect(targetsOf(rows[1])).toEqual({ type: 'directory' });
      expect(rows[1]?.ip).toMatch(/127\.0\.0\.1$/);
    });

    it('records a file uploaded in one PUT as create, a replacement as update, with its size', async () => {
      const created = await recordsOf(async () => expect(await put('Shared/up/one.txt', 'hello')).toBe(201));
      expect(created.map((row) => [row.action, row.path])).toEqual([['create', `${root}/Shared/up`], ['create', `${root}/Shared/up/one.txt`]]);
      expect(targetsOf(created[1])).toEqual({ type: 'file', size: 5 });
      const replaced = await recordsOf(async () => expect(await put('Shared/up/one.txt', 'hello again')).toBe(201));
      expect(replaced).toHaveLength(1);
      expect(replaced[0]).toMatchObject({ action: 'update', path: `${root}/Shared/up/one.txt`, ...byMember() });
      expect(targetsOf(replaced[0])).toEqual({ type: 'file', size: 11 });
    });

    it('records an upload through the upload protocol once, when it ends and the file appears', async () => {
      const path = 'Shared/parts.txt';
      const begun = await t.api.post(`/files/${enc(path)}`, { action: 'put' }, as());
      expect(begun.status).toBe(200);
      const offered = await recordsOf(async () => {
        expect((await fetch(begun.body.upload_uri as string, { method: 'PUT', body: 'part one' })).status).toBe(200);
      });
      expect(offered).toEqual([]);
      const ended = await recordsOf(async () => {
        expect((await t.api.post(`/files/${enc(path)}`, { action: 'end', ref: begun.body.ref }, as())).status).toBe(201);
      });
      expect(ended).toHaveLength(1);
      expect(ended[0]).toMatchObject({ action: 'create', path: `${root}/${path}`, ...byMember() });
      expect(targetsOf(ended[0])).toEqual({ type: 'file', size: 8 });
    });

    it('marks what the console does with a session as web', async () => {
      const headers = await consoleHeaders();
      const rows = await recordsOf(async () => {
        expect((await t.api.post(`/folders/${enc('Shared/from-console')}`, {}, { workspace: ws, headers })).status).toBe(201);
      });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ action: 'create', path: `${root}/Shared/from-console`, user_id: member.id, api_key_id: null, interface: 'web', workspace_id: ws });
    });

    it('records files and folders of Workspace 0 in Workspace 0', async () => {
      const rows = await recordsOf(async () => {
        expect((await fetch(`${t.baseUrl}/api/rest/v1/files/${enc('top/level.txt')}`, { method: 'PUT', headers: { 'X-ServiceAPI-Key': BOOTSTRAP_KEY }, body: 'x' })).status).toBe(201);
      });
      expect(rows.map((row) => [row.action, row.path, row.workspace_id, row.user_id])).toEqual([['create', 'top', 0, null], ['create', 'top/level.txt', 0, null]]);
    });
  });

  describe('read', () => {
    beforeAll(async () => { expect(await put('Shared/read.txt', '0123456789')).toBe(201); });

    it('records a download when the bytes are fetched through the link, not when the link is issued', async () => {
      let uri = '';
      const issued = await recordsOf(async () => {
        const meta = await t.api.get(`/files/${enc('Shared/read.txt')}`, as());
        expect(meta.status).toBe(200);
        uri = meta.body.download_uri as string;
        expect((await t.api.get(`/file_actions/metadata/${enc('Shared/read.txt')}`, as())).status).toBe(200);
      });
      expect(issued).toEqual([]);
      const fetched = await recordsOf(async () => expect(await (await fetch(uri)).text()).toBe('0123456789'));
      expect(fetched).toHaveLength(1);
      expect(fetched[0]).toMatchObject({ action: 'read', path: `${root}/Shared/read.txt`, ...byMember(), username: member.username, api_key_id: expect.any(Number) });
      expect(fetched[0]?.ip).toMatch(/127\.0\.0\.1$/);
      expect(targetsOf(fetched[0])).toEqual({ type: 'file', size: 10 });
    });

    it("records a link's download under its holder's name as it is when fetched, and serves no replaced version", async () => {
      expect(await put('Shared/renamed-holder.txt', 'first')).toBe(201);
      const uri = (await t.api.get(`/files/${enc('Shared/renamed-holder.txt')}`, as())).body.download_uri as string;
      // Fetched once first, so that the file and the holder's name are read (and kept) before they change.
      expect(await (await fetch(uri)).text()).toBe('first');
      const renamed = `${member.username}-renamed`;
      await t.database.db.updateTable('users').set({ username: renamed, username_key: renamed.toLowerCase() }).where('id', '=', member.id).execute();
      try {
        const rows = await recordsOf(async () => expect(await (await fetch(uri)).text()).toBe('first'));
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ action: 'read', user_id: member.id, username: renamed });
      } finally {
        await t.database.db.updateTable('users').set({ username: member.username, username_key: member.username.toLowerCase() }).where('id', '=', member.id).execute();
      }
      expect(await put('Shared/renamed-holder.txt', 'second')).toBe(201);
      // The link was signed for the first version: it no longer reaches anything.
      const rows = await recordsOf(async () => expect((await fetch(uri)).status).toBe(404));
      expect(rows).toEqual([]);
    });

    it('records a ranged or resumed download once, at its first byte, and a HEAD not at all', async () => {
      const uri = (await t.api.get(`/files/${enc('Shared/read.txt')}`, as())).body.download_uri as string;
      const rows = await recordsOf(async () => {
        expect((await fetch(uri, { headers: { range: 'bytes=0-3' } })).status).toBe(206);
        expect((await fetch(uri, { headers: { range: 'bytes=4-' } })).status).toBe(206);
        expect((await fetch(uri, { headers: { range: 'bytes=-2' } })).status).toBe(206);
        expect((await fetch(uri, { method: 'HEAD' })).status).toBe(200);
      });
      expect(rows.map((row) => row.action)).toEqual(['read']);
    });

    it('records a direct stream (action=stream) as a download', async () => {
      const rows = await recordsOf(async () => {
        const response = await fetch(`${t.baseUrl}/api/rest/v1/files/${enc('Shared/read.txt')}?action=stream`, { headers: { 'X-ServiceAPI-Key': member.key, 'X-Service-Workspace-Id': String(ws) } });
        expect(await response.text()).toBe('0123456789');
      });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ action: 'read', path: `${root}/Shared/read.txt`, ...byMember() });
    });

    it("records a download through a link issued to the console as the console user's, on the web", async () => {
      const meta = await t.api.get(`/files/${enc('Shared/read.txt')}`, { workspace: ws, headers: await consoleHeaders() });
      expect(meta.status).toBe(200);
      // The browser follows the link without the console's header or any credential.
      const rows = await recordsOf(async () => expect((await fetch(meta.body.download_uri as string)).status).toBe(200));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ action: 'read', user_id: member.id, username: member.username, api_key_id: null, interface: 'web', workspace_id: ws });
    });

    it('records nothing for a refused download or a forged link', async () => {
      const uri = (await t.api.get(`/files/${enc('Shared/read.txt')}`, as())).body.download_uri as string;
      const token = uri.slice(uri.lastIndexOf('/') + 1);
      const rows = await recordsOf(async () => {
        expectError(await t.api.get(`/files/${enc('Shared/missing.txt')}`, as()), 404, 'not-found/file-not-found');
        // Claiming another holder breaks the signature.
        const forged = token.replace(/^(d\.\d+\.)\d+-/, `$1${reader.id}-`);
        expect(forged).not.toBe(token);
        expect((await fetch(uri.replace(token, forged))).status).toBe(404);
      });
      expect(rows).toEqual([]);
    });
  });

  describe('move and copy', () => {
    it('records a move with its source and destination, and the folders made for the destination', async () => {
      expect(await put('Shared/m/file.txt', 'moving')).toBe(201);
      const rows = await recordsOf(async () => {
        expect((await t.api.post(`/file_actions/move/${enc('Shared/m')}`, { destination: 'Shared/moved/here' }, as())).status).toBe(201);
      });
      expect(rows.map((row) => row.action)).toEqual(['create', 'move']);
      expect(rows[0]).toMatchObject({ path: `${root}/Shared/moved` });
      expect(rows[1]).toMatchObject({ path: `${root}/Shared/m`, source: `${root}/Shared/m`, destination: `${root}/Shared/moved/here`, ...byMember() });
      expect(targetsOf(rows[1])).toEqual({ type: 'directory', entries: 2 });
    });

    it('records a rename that only changes the case', async () => {
      expect(await put('Shared/case.txt', 'c')).toBe(201);
      const rows = await recordsOf(async () => {
        expect((await t.api.post(`/file_actions/move/${enc('Shared/case.txt')}`, { destination: 'Shared/CASE.txt' }, as())).status).toBe(201);
      });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ action: 'move', source: `${root}/Shared/case.txt`, destination: `${root}/Shared/CASE.txt` });
    });

    it('records a copy with its source and destination', async () => {
      expect(await put('Shared/c/one.txt', '1')).toBe(201);
      expect(await put('Shared/c/two.txt', '2')).toBe(201);
      const rows = await recordsOf(async () => {
        expect((await t.api.post(`/file_actions/copy/${enc('Shared/c')}`, { destination: 'Shared/c2' }, as())).status).toBe(201);
      });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ action: 'copy', path: `${root}/Shared/c`, source: `${root}/Shared/c`, destination: `${root}/Shared/c2`, ...byMember() });
      expect(targetsOf(rows[0])).toEqual({ type: 'directory', entries: 3 });
    });

    it('records nothing when the destination exists or the caller may not', async () => {
      expect(await put('Shared/x.txt', 'x')).toBe(201);
      expect(await put('Shared/y.txt', 'y')).toBe(201);
      const rows = await recordsOf(async () => {
        expectError(await t.api.post(`/file_actions/move/${enc('Shared/x.txt')}`, { destination: 'Shared/y.txt' }, as()), 422, 'processing-failure/destination-exists');
        expectError(await t.api.post(`/file_actions/copy/${enc('Shared/x.txt')}`, { destination: 'Shared/y.txt' }, as()), 422, 'processing-failure/destination-exists');
        expect((await t.api.post(`/file_actions/move/${enc('Shared/x.txt')}`, { destination: 'Shared/z.txt' }, as(reader.key))).status).toBe(403);
      });
      expect(rows).toEqual([]);
    });
  });

  describe('destroy', () => {
    it('records a file deleted', async () => {
      expect(await put('Shared/gone.txt', 'bye')).toBe(201);
      const rows = await recordsOf(async () => expect((await t.api.delete(`/files/${enc('Shared/gone.txt')}`, as())).status).toBe(204));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ action: 'destroy', path: `${root}/Shared/gone.txt`, ...byMember() });
      expect(targetsOf(rows[0])).toEqual({ type: 'file', entries: 1, files: 1 });
    });

    it('records a recursive folder delete as one record counting what went', async () => {
      for (const path of ['Shared/tree/a.txt', 'Shared/tree/sub/b.txt', 'Shared/tree/sub/c.txt']) expect(await put(path, path)).toBe(201);
      const rows = await recordsOf(async () => expect((await t.api.delete(`/files/${enc('Shared/tree')}?recursive=true`, as())).status).toBe(204));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ action: 'destroy', path: `${root}/Shared/tree`, ...byMember() });
      expect(targetsOf(rows[0])).toEqual({ type: 'directory', entries: 5, files: 3 });
    });

    it('records nothing for a delete of a missing path, of a non-empty folder without recursive, or without permission', async () => {
      expect(await put('Shared/kept/k.txt', 'k')).toBe(201);
      const rows = await recordsOf(async () => {
        expectError(await t.api.delete(`/files/${enc('Shared/nothing-here')}`, as()), 404, 'not-found/file-not-found');
        expectError(await t.api.delete(`/files/${enc('Shared/kept')}`, as()), 422, 'processing-failure/folder-not-empty');
        expect((await t.api.delete(`/files/${enc('Shared/kept/k.txt')}`, as(reader.key))).status).toBe(403);
      });
      expect(rows).toEqual([]);
    });
  });

  it('records nothing for a refused upload or folder', async () => {
    const rows = await recordsOf(async () => {
      expect(await put('Shared/denied.txt', 'no', reader.key)).toBe(403);
      expect(await put('Shared/none/x.txt', 'no', member.key, '?mkdir_parents=false')).toBe(422);
      expectError(await t.api.post('/folders/Shared', {}, as()), 422, 'processing-failure/destination-exists');
      expect((await t.api.post('/folders/Shared/denied', {}, as(reader.key))).status).toBe(403);
      expect((await t.api.post(`/files/${enc('Shared/denied-too.txt')}`, { action: 'put' }, as(reader.key))).status).toBe(403);
    });
    expect(rows).toEqual([]);
  });

  it('keeps the chain valid over every record', async () => {
    const rows = await t.database.db.selectFrom('history').selectAll().orderBy('id').execute();
    expect(rows.some((row) => row.action === 'read')).toBe(true);
    // The verifier of `atrium history verify`; recording.test.ts checks the chain by hand.
    expect(await verifyHistoryChain(t.database.db)).toMatchObject({ intact: true, checked: rows.length });
  });
});
