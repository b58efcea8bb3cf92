import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type FileStat, type WebDAVClient } from 'webdav';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The `webdav` npm client (perry-mitchell/webdav-client), a maintained client any Node machine
 * can run, doing a small version of the rclone round trip (test/process/webdav-rclone.test.ts)
 * against the in-process server: folders, uploads, listings, downloads, move, copy, delete and
 * stat, with the REST API seeing every change at once and the same grants deciding both.
 */
// ASCII: the client encodes Basic credentials with btoa, which refuses anything beyond Latin-1.
const PASSWORD = 'webdav client password';
const FILES = 40;

/** Deterministic bytes of a given size, different per seed. */
function bytesOf(size: number, seed: number): Buffer {
  const buffer = Buffer.alloc(size);
  let state = seed * 2654435761 >>> 0;
  for (let i = 0; i < size; i += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    buffer[i] = state >>> 24;
  }
  return buffer;
}

/** Every entry under a folder, listed with Depth 1 folder by folder. */
async function walk(client: WebDAVClient, folder: string): Promise<FileStat[]> {
  const found: FileStat[] = [];
  for (const stat of await client.getDirectoryContents(folder) as FileStat[]) {
    found.push(stat);
    if (stat.type === 'directory') found.push(...(await walk(client, stat.filename)));
  }
  return found;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const names = (stats: FileStat[]) => stats.map((s) => s.basename).sort();

describe.each(testDatabaseTargets())('the webdav npm client against Atrium [$name]', (target) => {
  let t: TestApp;
  let dav: WebDAVClient;
  let userId: number;
  const as = { key: BOOTSTRAP_KEY };
  const files = Array.from({ length: FILES }, (_, i) => ({
    path: `/shared/round/${['', 'deep/', 'deep/er/', 'été/'][i % 4]}${['file', 'naïve', '日本語', 'odd #%&'][i % 4]}-${i}.bin`,
    bytes: bytesOf(i % 10 === 0 ? 0 : (i * 7919) % 70_000, i),
  }));

  beforeAll(async () => {
    t = await startTestApp(target);
    const user = await t.api.post('/users', { username: 'dav-client', password: PASSWORD }, as);
    expect(user.status).toBe(201);
    userId = user.body.id;
    expect((await t.api.post('/folders/shared', {}, as)).status).toBe(201);
    expect((await t.api.post('/folders/elsewhere', {}, as)).status).toBe(201);
    expect((await t.api.post('/permissions', { path: 'shared', user_id: userId, permission: 'full' }, as)).status).toBe(201);
    dav = createClient(`${t.baseUrl}/dav`, { username: 'dav-client', password: PASSWORD });
  });
  afterAll(() => t.close());

  it('creates folders, uploads, lists, downloads and stats; the REST API sees the same tree', async () => {
    await dav.createDirectory('/shared/round/deep/er', { recursive: true });
    await dav.createDirectory('/shared/round/été');
    for (const file of files) expect(await dav.putFileContents(file.path, file.bytes)).toBe(true);

    // A whole tree in one PROPFIND (Depth: infinity, what `deep: true` sends) is refused: clients walk it a level at a time.
    expect(((await dav.getDirectoryContents('/shared/round', { deep: true }).catch((error) => error)) as { status?: number }).status).toBe(403);
    const deep = await walk(dav, '/shared/round');
    const listedFiles = deep.filter((s) => s.type === 'file').map((s) => [s.filename, s.size] as const).sort();
    expect(listedFiles).toEqual(files.map((f) => [f.path, f.bytes.length] as const).sort());
    expect(deep.filter((s) => s.type === 'directory').map((s) => s.filename).sort())
      .toEqual(['/shared/round/deep', '/shared/round/deep/er', '/shared/round/été']);

    for (const file of files) {
      const got = Buffer.from(await dav.getFileContents(file.path, { format: 'binary' }) as ArrayBuffer);
      expect(sha256(got), file.path).toBe(sha256(file.bytes));
      const stat = await dav.stat(file.path) as FileStat;
      expect([stat.type, stat.size, stat.basename]).toEqual(['file', file.bytes.length, file.path.split('/').at(-1)]);
      expect(stat.etag).toBeTruthy();
    }
    const folder = await dav.stat('/shared/round/été') as FileStat;
    expect(folder.type).toBe('directory');

    // The REST API lists the very same entries with the same sizes and content hashes.
    for (const dir of ['shared/round', 'shared/round/deep', 'shared/round/deep/er', 'shared/round/été']) {
      const listing = await t.api.get(`/folders/${dir.split('/').map(encodeURIComponent).join('/')}?per_page=1000`, as);
      expect(listing.status).toBe(200);
      const expected = files.filter((f) => f.path.slice(1, f.path.lastIndexOf('/')) === dir);
      const restFiles = (listing.body as any[]).filter((e) => e.type === 'file');
      expect(restFiles.map((e) => [e.path, e.size, e.sha256]).sort()).toEqual(expected.map((f) => [f.path.slice(1), f.bytes.length, sha256(f.bytes)]).sort());
    }
  });

  it('moves, copies and deletes, and REST agrees', async () => {
    const [first, second] = files as [typeof files[0], typeof files[0]];
    await dav.copyFile(first.path, '/shared/copied.bin');
    await dav.moveFile(second.path, '/shared/moved/renamed ünï.bin').catch(async (error: unknown) => {
      // MOVE into a missing parent is a 409 in WebDAV: make the parent, then move.
      expect((error as { status?: number }).status).toBe(409);
      await dav.createDirectory('/shared/moved');
      await dav.moveFile(second.path, '/shared/moved/renamed ünï.bin');
    });
    expect(await dav.exists(second.path)).toBe(false);
    expect(Buffer.from(await dav.getFileContents('/shared/moved/renamed ünï.bin') as ArrayBuffer).equals(second.bytes)).toBe(true);
    expect(Buffer.from(await dav.getFileContents('/shared/copied.bin') as ArrayBuffer).equals(first.bytes)).toBe(true);
    expect((await t.api.get(`/file_actions/metadata/shared/moved/${encodeURIComponent('renamed ünï.bin')}`, as)).body.size).toBe(second.bytes.length);
    expect((await t.api.get(`/file_actions/metadata/${second.path.slice(1).split('/').map(encodeURIComponent).join('/')}`, as)).status).toBe(404);

    // A folder moves and copies whole.
    await dav.copyFile('/shared/round/deep', '/shared/deep-copy');
    expect(names(await dav.getDirectoryContents('/shared/deep-copy') as FileStat[])).toEqual(names(await dav.getDirectoryContents('/shared/round/deep') as FileStat[]));
    await dav.moveFile('/shared/deep-copy', '/shared/moved/deep-moved');
    expect(await dav.exists('/shared/deep-copy')).toBe(false);
    expect((await t.api.get('/folders/shared/moved/deep-moved/er', as)).status).toBe(200);

    // Overwrite: F onto an existing target is refused (412) and changes nothing.
    const refused = await dav.copyFile('/shared/copied.bin', '/shared/moved/renamed ünï.bin', { overwrite: false }).catch((error: { status?: number }) => error);
    expect((refused as { status?: number }).status).toBe(412);
    expect(Buffer.from(await dav.getFileContents('/shared/moved/renamed ünï.bin') as ArrayBuffer).equals(second.bytes)).toBe(true);

    await dav.deleteFile('/shared/copied.bin');
    await dav.deleteFile('/shared/moved');
    expect(await dav.exists('/shared/moved')).toBe(false);
    expect((await t.api.get('/folders/shared/moved', as)).status).toBe(404);
  });

  it('sees at once what the REST API uploads, and the REST API what WebDAV uploads', async () => {
    expect((await t.api.call('PUT', '/files/shared/from-rest.txt', { rawBody: 'uploaded through REST', headers: { 'content-type': 'text/plain' }, ...as })).status).toBe(201);
    expect(await dav.getFileContents('/shared/from-rest.txt', { format: 'text' })).toBe('uploaded through REST');
    await dav.putFileContents('/shared/from-dav.txt', 'uploaded through WebDAV');
    const meta = await t.api.get('/file_actions/metadata/shared/from-dav.txt', as);
    expect([meta.status, meta.body.size]).toEqual([200, 'uploaded through WebDAV'.length]);
    // Replacing through one door is a new version for the other.
    await dav.putFileContents('/shared/from-rest.txt', 'replaced through WebDAV');
    const replaced = await t.api.get('/files/shared/from-rest.txt?action=stream', as);
    expect(replaced.text).toBe('replaced through WebDAV');
  });

  it('signs in with an API key as the Basic user name', async () => {
    const key = await t.api.post('/api_keys', { name: 'dav', user_id: userId }, as);
    expect(key.status).toBe(201);
    const byKey = createClient(`${t.baseUrl}/dav`, { username: key.body.key, password: 'ignored' });
    expect(names(await byKey.getDirectoryContents('/') as FileStat[])).toEqual(['shared']);
    await byKey.putFileContents('/shared/by-key.txt', 'by key');
    expect(await dav.getFileContents('/shared/by-key.txt', { format: 'text' })).toBe('by key');
  });

  it('refuses a wrong password, and what the grants do not allow', async () => {
    const wrong = createClient(`${t.baseUrl}/dav`, { username: 'dav-client', password: 'not it' });
    expect(((await wrong.getDirectoryContents('/').catch((error) => error)) as { status?: number }).status).toBe(401);
    // The root is visible but not writable; `elsewhere` is not even visible.
    expect(names(await dav.getDirectoryContents('/') as FileStat[])).toEqual(['shared']);
    expect(((await dav.putFileContents('/top.txt', 'x').catch((error) => error)) as { status?: number }).status).toBe(403);
    expect(((await dav.putFileContents('/elsewhere/x.txt', 'x').catch((error) => error)) as { status?: number }).status).toBe(404);
    expect(((await dav.stat('/elsewhere').catch((error) => error)) as { status?: number }).status).toBe(404);
    expect(((await dav.moveFile('/shared/from-dav.txt', '/elsewhere/x.txt').catch((error) => error)) as { status?: number }).status).toBeGreaterThanOrEqual(403);
    expect(await dav.exists('/shared/from-dav.txt')).toBe(true);
    expect((await t.api.get('/folders/elsewhere', as)).body).toEqual([]);
  });

  it('gives a Custom Workspace user its Workspace root as /dav/', async () => {
    const ws = await createWorkspace(t.database.db);
    await createUser(t.database.db, { workspaceId: ws, workspaceAdmin: true, username: 'ws-dav', password: PASSWORD });
    const inWorkspace = createClient(`${t.baseUrl}/dav`, { username: 'ws-dav', password: PASSWORD });
    await inWorkspace.createDirectory('/projects');
    await inWorkspace.putFileContents('/projects/plan.txt', 'in the Workspace');
    const seen = await t.api.get(`/file_actions/metadata/_/Workspaces/${ws}/projects/plan.txt`, as);
    expect([seen.status, seen.body.size]).toEqual([200, 'in the Workspace'.length]);
    expect(names(await inWorkspace.getDirectoryContents('/') as FileStat[])).toEqual(['projects']);
  });
});
