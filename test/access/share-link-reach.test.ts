import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerOfShareLink, shareLinkExtent, type ShareLinkPermissions } from '../../src/access/index.js';
import { AtriumError } from '../../src/errors/atrium-error.js';
import { DEFAULT_LISTING_SORT, type FileSession } from '../../src/files/index.js';
import { findUserById } from '../../src/repositories/users.js';
import { newWorkspace, seed } from '../files/files-support.js';
import { grantAsSite, memberOf, type Member } from '../grants/grants-support.js';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * A share link's reach through the file session every door uses (docs/sharing.md): only the
 * link's paths, only what its permissions name, never more than its creator may do now, and no
 * administrator's authority whatever its creator's.
 */
describe.each(testDatabaseTargets())('a share link\'s reach [$name]', (target) => {
  let t: TestApp;
  let ws: number;
  let creator: Member;
  let creatorGrant: number;
  const root = () => `_/Workspaces/${ws}`;
  beforeAll(async () => {
    t = await startTestApp(target);
    ws = await newWorkspace(t);
    await seed(t, {
      [`${root()}/shared/a.txt`]: 'alpha',
      [`${root()}/shared/sub/b.txt`]: 'beta',
      [`${root()}/other/c.txt`]: 'gamma',
    });
    creator = await memberOf(t, { workspaceId: ws });
    creatorGrant = await grantAsSite(t, { path: 'shared', user_id: creator.id, permission: 'full' }, ws);
  });
  afterAll(() => t.close());

  const linkSession = async (permissions: ShareLinkPermissions, paths: { path: string; recursive: boolean }[], who: Member = creator): Promise<FileSession> => {
    const user = await findUserById(t.database.db, who.id);
    const extent = shareLinkExtent(permissions, paths.map(({ path, recursive }) => ({ pathKey: `_/workspaces/${ws}/${path}`, recursive })));
    return t.core.files.session(callerOfShareLink(user!, { bundleId: 1, workspaceId: ws, extent }), ws, { interface: 'web', ip: '127.0.0.1' });
  };
  const refusal = async (work: Promise<unknown>) => {
    try {
      await work;
    } catch (error) {
      if (error instanceof AtriumError) return error.family;
      throw error;
    }
    return 'done';
  };
  const names = async (session: FileSession, path: string) =>
    (await session.list(path, { sort: DEFAULT_LISTING_SORT, after: undefined, limit: 100 })).entries.map((entry) => entry.path);
  const write = (session: FileSession, path: string) => session.write(path, Readable.from([Buffer.from('up')]), { mkdirParents: false });

  it('a read link lists and reads below its folder, and nothing beside it; it writes and deletes nothing', async () => {
    const link = await linkSession('read', [{ path: 'shared', recursive: true }]);
    expect(await names(link, 'shared')).toEqual(['shared/sub', 'shared/a.txt']);
    expect((await link.stat('shared/sub/b.txt')).capabilities).toEqual(['list', 'read']);
    expect(await refusal(link.stat('other/c.txt'))).toBe('not-found');
    expect(await refusal(link.stat(''))).toBe('not-found');
    expect(await refusal(write(link, 'shared/new.txt'))).toBe('not-authorized');
    expect(await refusal(link.delete('shared/a.txt', { recursive: false }))).toBe('not-authorized');
  });

  it('a link of one folder without its subfolders reaches the files directly in it only', async () => {
    const link = await linkSession('read', [{ path: 'shared', recursive: false }]);
    expect((await link.stat('shared/a.txt')).capabilities).toEqual(['list', 'read']);
    expect(await refusal(link.stat('shared/sub/b.txt'))).toBe('not-found');
    expect(await refusal(link.stat('shared/sub'))).toBe('not-found');
  });

  it('a file request writes and only writes; a full link also deletes, but never the shared folder itself', async () => {
    const request = await linkSession('write', [{ path: 'shared', recursive: true }]);
    expect((await write(request, 'shared/dropped.txt')).entry.path).toBe('shared/dropped.txt');
    expect(await refusal(request.read('shared/a.txt'))).toBe('not-authorized');
    const full = await linkSession('full', [{ path: 'shared', recursive: true }]);
    expect(await refusal(full.delete('shared/dropped.txt', { recursive: false }))).toBe('done');
    expect(await refusal(full.delete('shared', { recursive: true }))).not.toBe('done');
    expect(await names(full, 'shared')).toEqual(['shared/sub', 'shared/a.txt']);
  });

  it('never gives more than its creator holds now: a creator who loses access takes the link\'s reach with it', async () => {
    const reader = await memberOf(t, { workspaceId: ws });
    const grant = await grantAsSite(t, { path: 'shared', user_id: reader.id, permission: 'readonly' }, ws);
    // A link asking for full gets what a reader may do.
    const link = await linkSession('full', [{ path: 'shared', recursive: true }], reader);
    expect((await link.stat('shared/a.txt')).capabilities).toEqual(['list', 'read']);
    expect(await refusal(write(link, 'shared/more.txt'))).toBe('not-authorized');
    expect((await t.api.delete(`/permissions/${grant}`, { key: BOOTSTRAP_KEY, workspace: ws })).status).toBeLessThan(300);
    const after = await linkSession('full', [{ path: 'shared', recursive: true }], reader);
    expect(await refusal(after.stat('shared/a.txt'))).toBe('not-found');
    expect(creatorGrant).toBeGreaterThan(0);
  });

  it('a Site Administrator\'s read link is a read link: no administrator\'s authority passes through it', async () => {
    const admin = await memberOf(t, { siteAdmin: true });
    const link = await linkSession('read', [{ path: 'shared/a.txt', recursive: false }], admin);
    expect((await link.stat('shared/a.txt')).capabilities).toEqual(['list', 'read']);
    expect(await refusal(link.stat('shared/sub/b.txt'))).toBe('not-found');
    expect(await refusal(link.stat('other/c.txt'))).toBe('not-found');
    expect(await refusal(link.delete('shared/a.txt', { recursive: false }))).toBe('not-authorized');
  });
});
