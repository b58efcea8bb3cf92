import { beforeAll, describe, expect, it } from 'vitest';
import { familyOf } from '../../../src/errors/atrium-error.js';
import { createApiKey } from '../../support/factories.js';
import { BOOTSTRAP_KEY, type TestApp } from '../../support/test-app.js';
import { grantAsSite, memberOf, newWorkspace } from '../files-support.js';
import type { FileDoor, Who } from './file-door.js';

const ALL = ['list', 'read', 'write', 'delete'];

/**
 * The file contract, written once for every front door: what list, stat, read, write, create
 * folder, move, copy and delete answer, and how each refuses. Each door runs it through its own
 * protocol (file-contract.test.ts), in a Custom Workspace of its own, so that every path is seen
 * relative to a Workspace root.
 */
export function describeFileContract(app: () => TestApp, makeDoor: (t: TestApp) => FileDoor): void {
  let door: FileDoor;
  let admin: Who;
  let member: Who;
  let filesOnly: Who;
  let otherWorkspace: number;

  beforeAll(async () => {
    const t = app();
    door = makeDoor(t);
    const workspace = await newWorkspace(t);
    otherWorkspace = await newWorkspace(t);
    admin = { key: BOOTSTRAP_KEY, workspace };
    const user = await memberOf(t, { workspaceId: workspace });
    member = { key: user.key };
    filesOnly = { key: await createApiKey(t.database.db, { userId: user.id, permissionSet: 'files_only', workspaceId: workspace }) };
    for (const [path, permission] of [['shared', 'readonly'], ['inbox', 'list'], ['inbox', 'writeonly'], ['own', 'full']] as const) {
      await grantAsSite(t, { path, user_id: user.id, permission }, workspace);
    }
    await door.write(admin, 'shared/doc.txt', 'shared words');
    await door.write(admin, 'private/secret.txt', 'secret words');
    await door.createFolder(admin, 'inbox', { mkdirParents: false });
    await door.createFolder(admin, 'own', { mkdirParents: false });
    await door.write({ key: BOOTSTRAP_KEY, workspace: otherWorkspace }, 'elsewhere.txt', 'other Workspace');
  });

  /** The operation is refused with `type` (or, where the door cannot say the type, its family). */
  async function expectRefusal(attempt: Promise<unknown>, type: string): Promise<void> {
    const outcome = await attempt.then((value: unknown) => ({ value }), (error: unknown) => ({ error }));
    if (!('error' in outcome)) throw new Error(`expected the refusal ${type}, got ${JSON.stringify(outcome.value)}`);
    const refusal = door.refusalOf(outcome.error);
    if (refusal === undefined) throw outcome.error;
    expect(refusal.family).toBe(familyOf(type));
    if (refusal.type !== undefined) expect(refusal.type).toBe(type);
  }

  describe('operations', () => {
    it('writes a file, then states and reads it, its path as the Workspace shows it', async () => {
      const written = await door.write(admin, 'docs/a.txt', 'hello');
      expect(written).toEqual({ path: 'docs/a.txt', type: 'file', size: 5, capabilities: ALL });
      expect(await door.stat(admin, 'docs/a.txt')).toEqual(written);
      expect(await door.stat(admin, 'DOCS/A.TXT')).toEqual(written);
      expect(await door.read(admin, 'docs/a.txt')).toBe('hello');
    });

    it('replaces a file written again', async () => {
      await door.write(admin, 'docs/again.txt', 'first');
      expect(await door.write(admin, 'docs/again.txt', 'v2')).toMatchObject({ path: 'docs/again.txt', size: 2 });
      expect(await door.read(admin, 'docs/again.txt')).toBe('v2');
    });

    it('creates folders, and lists a folder folders first', async () => {
      expect(await door.createFolder(admin, 'tree/sub', { mkdirParents: true })).toEqual({ path: 'tree/sub', type: 'directory', size: null, capabilities: ALL });
      await door.write(admin, 'tree/a.txt', 'a');
      expect((await door.list(admin, 'tree')).map((entry) => entry.path)).toEqual(['tree/sub', 'tree/a.txt']);
      expect((await door.list(admin, '')).map((entry) => entry.path)).toEqual(expect.arrayContaining(['tree', 'shared', 'private']));
    });

    it('moves and renames a file and a folder with its contents', async () => {
      await door.write(admin, 'moving/box/x.txt', 'x');
      await door.move(admin, 'moving/box/x.txt', 'moving/y.txt');
      expect(await door.read(admin, 'moving/y.txt')).toBe('x');
      await door.move(admin, 'moving/box', 'moved/box');
      await door.move(admin, 'moving/y.txt', 'moved/box/y.txt');
      expect((await door.list(admin, 'moved/box')).map((entry) => entry.path)).toEqual(['moved/box/y.txt']);
      await expectRefusal(door.stat(admin, 'moving/box'), 'not-found/file-not-found');
    });

    it('copies a file and a folder with its contents', async () => {
      await door.write(admin, 'copying/src/one.txt', 'one');
      await door.copy(admin, 'copying/src/one.txt', 'copying/two.txt');
      await door.copy(admin, 'copying/src', 'copying/dst');
      expect(await door.read(admin, 'copying/two.txt')).toBe('one');
      expect(await door.read(admin, 'copying/dst/one.txt')).toBe('one');
      expect(await door.read(admin, 'copying/src/one.txt')).toBe('one');
    });

    it('deletes a file, and a folder that is not empty only when recursive', async () => {
      await door.write(admin, 'deleting/a/b.txt', 'b');
      await door.delete(admin, 'deleting/a/b.txt', { recursive: false });
      await expectRefusal(door.stat(admin, 'deleting/a/b.txt'), 'not-found/file-not-found');
      await door.write(admin, 'deleting/a/c.txt', 'c');
      await expectRefusal(door.delete(admin, 'deleting', { recursive: false }), 'processing-failure/folder-not-empty');
      await door.delete(admin, 'deleting', { recursive: true });
      await expectRefusal(door.stat(admin, 'deleting/a'), 'not-found/file-not-found');
    });
  });

  describe('refusals', () => {
    it('refuses what does not exist', async () => {
      await expectRefusal(door.stat(admin, 'nowhere.txt'), 'not-found/file-not-found');
      await expectRefusal(door.read(admin, 'nowhere.txt'), 'not-found/file-not-found');
      await expectRefusal(door.list(admin, 'nowhere'), 'not-found/file-not-found');
      await expectRefusal(door.delete(admin, 'nowhere.txt', { recursive: false }), 'not-found/file-not-found');
      await expectRefusal(door.move(admin, 'nowhere.txt', 'somewhere.txt'), 'not-found/file-not-found');
      await expectRefusal(door.copy(admin, 'nowhere.txt', 'somewhere.txt'), 'not-found/file-not-found');
    });

    it('answers what the caller may not see exactly as what does not exist', async () => {
      for (const path of ['private/secret.txt', 'private/nothing.txt', 'private']) {
        await expectRefusal(door.stat(member, path), 'not-found/file-not-found');
      }
      await expectRefusal(door.read(member, 'private/secret.txt'), 'not-found/file-not-found');
      await expectRefusal(door.list(member, 'private'), 'not-found/file-not-found');
      await expectRefusal(door.delete(member, 'private/secret.txt', { recursive: false }), 'not-found/file-not-found');
      await expectRefusal(door.write(member, 'private/new.txt', 'x'), 'not-found/file-not-found');
      expect((await door.list(member, '')).map((entry) => entry.path)).not.toContain('private');
    });

    it('refuses what the caller sees but may not do, saying which permission is missing', async () => {
      expect(await door.stat(member, 'shared/doc.txt')).toMatchObject({ capabilities: ['list', 'read'] });
      await expectRefusal(door.write(member, 'shared/new.txt', 'x'), 'not-authorized/write-permission-required');
      await expectRefusal(door.delete(member, 'shared/doc.txt', { recursive: false }), 'not-authorized/full-permission-required');
      await door.write(member, 'inbox/drop.txt', 'dropped');
      await expectRefusal(door.read(member, 'inbox/drop.txt'), 'not-authorized/read-permission-required');
      await expectRefusal(door.copy(member, 'inbox/drop.txt', 'own/drop.txt'), 'not-authorized/read-permission-required');
    });

    it('refuses a destination that exists', async () => {
      await door.write(admin, 'taken/file.txt', 'f');
      await door.createFolder(admin, 'taken/folder', { mkdirParents: false });
      await expectRefusal(door.createFolder(admin, 'taken/folder', { mkdirParents: false }), 'processing-failure/destination-exists');
      await expectRefusal(door.createFolder(admin, 'taken/file.txt', { mkdirParents: false }), 'processing-failure/destination-exists');
      await expectRefusal(door.move(admin, 'taken/file.txt', 'taken/folder'), 'processing-failure/destination-exists');
      await expectRefusal(door.copy(admin, 'taken/folder', 'taken/file.txt'), 'processing-failure/destination-exists');
    });

    it('names nothing outside the request Workspace', async () => {
      await expectRefusal(door.stat(admin, 'shared/../../x'), 'bad-request/invalid-path');
      await expectRefusal(door.write(admin, 'a/./b.txt', 'x'), 'bad-request/invalid-path');
      // Inside a Custom Workspace `_/Workspaces/N` is a folder of that name in the Workspace itself.
      await expectRefusal(door.stat(admin, `_/Workspaces/${otherWorkspace}/elsewhere.txt`), 'not-found/file-not-found');
      await expectRefusal(door.read(member, `_/Workspaces/${otherWorkspace}/elsewhere.txt`), 'not-found/file-not-found');
      await expectRefusal(door.delete(admin, '', { recursive: true }), 'bad-request/invalid-path');
    });
  });

  describe('credentials', () => {
    it('lets a files_only key do every file operation', async () => {
      expect(await door.write(filesOnly, 'own/f.txt', 'by a files_only key')).toMatchObject({ path: 'own/f.txt', capabilities: ALL });
      expect(await door.read(filesOnly, 'own/f.txt')).toBe('by a files_only key');
      await door.createFolder(filesOnly, 'own/sub', { mkdirParents: false });
      await door.copy(filesOnly, 'own/f.txt', 'own/sub/g.txt');
      await door.move(filesOnly, 'own/f.txt', 'own/h.txt');
      expect((await door.list(filesOnly, 'own')).map((entry) => entry.path)).toEqual(['own/sub', 'own/h.txt']);
      await door.delete(filesOnly, 'own/sub', { recursive: true });
      expect(await door.stat(filesOnly, 'shared/doc.txt')).toMatchObject({ type: 'file', size: 12 });
    });
  });
}
