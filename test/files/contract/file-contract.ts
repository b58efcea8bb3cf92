import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { familyOf } from '../../../src/errors/atrium-error.js';
import { createApiKey, createUser } from '../../support/factories.js';
import { BOOTSTRAP_KEY, type TestApp } from '../../support/test-app.js';
import { grantAsSite, memberOf, newWorkspace, putFile } from '../files-support.js';
import { type DoorEntry, FILE_CAPABILITIES, type FileCapability, type FileDoor, type Refusal, type Who } from './file-door.js';
import {
  ELSEWHERE_FILE, ELSEWHERE_WORDS, resolvedAnswer, SECRET_FILE, SECRET_WORDS, SHARED_FILE, SHARED_WORDS, spellingOf, TRAVERSAL_CASES, type TraversalAnswer, type TraversalCase,
} from './traversal-cases.js';

/**
 * The file contract, written once for every front door: what list, stat, read, write, create
 * folder, move, copy and delete answer, how each refuses, and that a credential confined to a
 * Workspace reaches nothing outside it. Each door runs it through its own protocol
 * (file-contract.test.ts), in a Custom Workspace of its own, so that every path is seen relative
 * to a Workspace root. Where a protocol cannot say something (door.speaks), the contract checks
 * what it does say.
 */
export function describeFileContract<T extends TestApp>(app: () => T, makeDoor: (t: T) => FileDoor): void {
  let t: T;
  let door: FileDoor;
  /** The Workspace's administrator, with a key made in it. */
  let admin: Who;
  let member: Who;
  let filesOnly: Who;
  /** A Site Administrator with a key of its own made in Workspace 0, whose root is the site root. */
  let siteAdmin: Who;
  /** The same Site Administrator with a key made in the Workspace, which confines the key to it. */
  let siteAdminConfined: Who;
  let workspace: number;
  let otherWorkspace: number;

  beforeAll(async () => {
    t = app();
    door = makeDoor(t);
    workspace = await newWorkspace(t);
    otherWorkspace = await newWorkspace(t);
    admin = { key: (await memberOf(t, { workspaceId: workspace, workspaceAdmin: true })).key };
    const user = await memberOf(t, { workspaceId: workspace });
    member = { key: user.key };
    filesOnly = { key: await createApiKey(t.database.db, { userId: user.id, permissionSet: 'files_only', workspaceId: workspace }) };
    const site = await createUser(t.database.db, { siteAdmin: true });
    siteAdmin = { key: await createApiKey(t.database.db, { userId: site.id }) };
    siteAdminConfined = { key: await createApiKey(t.database.db, { userId: site.id, workspaceId: workspace }) };
    for (const [path, permission] of [['shared', 'readonly'], ['inbox', 'list'], ['inbox', 'writeonly'], ['own', 'full']] as const) {
      await grantAsSite(t, { path, user_id: user.id, permission }, workspace);
    }
    await door.write(admin, SHARED_FILE, SHARED_WORDS);
    await door.write(admin, SECRET_FILE, SECRET_WORDS);
    await door.createFolder(admin, 'inbox', { mkdirParents: false });
    await door.createFolder(admin, 'own', { mkdirParents: false });
    const elsewhere = await putFile(t, ELSEWHERE_FILE, ELSEWHERE_WORDS, { key: BOOTSTRAP_KEY, workspace: otherWorkspace });
    expect(elsewhere.status, JSON.stringify(elsewhere.body)).toBe(201);
  });
  afterAll(() => door.close());

  /** The operation is refused with `type`, as far as the door can say it: its family, and the type itself where the protocol carries it. */
  async function expectRefusal(attempt: Promise<unknown>, type: string): Promise<void> {
    const outcome = await attempt.then((value: unknown) => ({ value }), (error: unknown) => ({ error }));
    if (!('error' in outcome)) throw new Error(`expected the refusal ${type}, got ${JSON.stringify(outcome.value)}`);
    const refusal = door.refusalOf(outcome.error);
    if (refusal === undefined) throw outcome.error;
    expect(refusal.families, `${String(outcome.error)} for ${type}`).toContain(familyOf(type));
    if (refusal.type !== undefined) expect(refusal.type).toBe(type);
  }

  /**
   * Each traversal spelling (traversal-cases.ts) answers, for stat and read, what the table says
   * this door answers: the shared file itself, or the refusal. All are tried, and every spelling
   * answered otherwise is named.
   */
  async function expectTraversals(who: Who, traversals: readonly TraversalCase[]): Promise<void> {
    const wrong: string[] = [];
    for (const traversal of traversals) {
      const spelling = spellingOf(traversal, otherWorkspace);
      const wanted = door.speaks.dotSegmentsRefused ? traversal.namesDoor : resolvedAnswer(spelling);
      for (const [operation, attempt] of [['stat', () => door.stat(who, spelling)], ['read', () => door.read(who, spelling)]] as const) {
        const got = await answerTo(attempt);
        if (!answers(got, wanted)) wrong.push(`${operation} ${spelling}: wanted ${wanted}, got ${JSON.stringify(got)}`);
      }
    }
    expect(wrong).toEqual([]);
  }

  /** What an operation answered: what it gave, or its refusal as the door tells it. */
  async function answerTo(attempt: () => Promise<unknown>): Promise<{ value: unknown } | { refusal: Refusal }> {
    try {
      return { value: await attempt() };
    } catch (error) {
      const refusal = door.refusalOf(error);
      if (refusal === undefined) throw error;
      return { refusal };
    }
  }

  function answers(got: { value: unknown } | { refusal: Refusal }, wanted: TraversalAnswer): boolean {
    if (wanted === 'shared file') {
      if (!('value' in got)) return false;
      const value = got.value as DoorEntry | string;
      return typeof value === 'string' ? value === SHARED_WORDS : value.path === SHARED_FILE && value.type === 'file' && value.size === SHARED_WORDS.length;
    }
    return 'refusal' in got && got.refusal.families.includes(familyOf(wanted)) && (got.refusal.type === undefined || got.refusal.type === wanted);
  }
  const aiming = (aims: TraversalCase['aims']) => TRAVERSAL_CASES.filter((traversal) => traversal.aims === aims);

  /** The capabilities an entry shows through this door: these, or none where the protocol shows none. */
  function shown(capabilities: readonly FileCapability[]): readonly FileCapability[] | undefined {
    return door.speaks.capabilities ? capabilities : undefined;
  }

  /** What the other Workspace's file holds, read by the site-wide key: attempts on it must leave it so. */
  async function elsewhereNow(): Promise<string> {
    return (await t.api.get('/files/elsewhere.txt?action=stream', { key: BOOTSTRAP_KEY, workspace: otherWorkspace })).text;
  }

  describe('operations', () => {
    it('writes a file, then states and reads it, its path as the Workspace shows it', async () => {
      const written = await door.write(admin, 'docs/a.txt', 'hello');
      expect(written).toEqual({ path: 'docs/a.txt', type: 'file', size: 5, capabilities: shown(FILE_CAPABILITIES) });
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
      expect(await door.createFolder(admin, 'tree/sub', { mkdirParents: true })).toEqual({ path: 'tree/sub', type: 'directory', size: null, capabilities: shown(FILE_CAPABILITIES) });
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
      if (door.speaks.emptyFolderDelete) await expectRefusal(door.delete(admin, 'deleting', { recursive: false }), 'processing-failure/folder-not-empty');
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
      // Writing there would take a folder the caller may not make, as where nothing is.
      await expectRefusal(door.write(member, 'nothing/new.txt', 'x'), 'not-authorized/write-permission-required');
      await expectRefusal(door.write(member, 'private/new.txt', 'x'), 'not-authorized/write-permission-required');
      await expectRefusal(door.createFolder(member, 'private/sub', { mkdirParents: true }), 'not-authorized/write-permission-required');
      await expectRefusal(door.createFolder(member, 'private', { mkdirParents: false }), 'not-authorized/write-permission-required');
      await expectRefusal(door.copy(member, 'shared/doc.txt', 'private/doc.txt'), 'not-authorized/write-permission-required');
      expect((await door.list(member, '')).map((entry) => entry.path)).not.toContain('private');
      // However the path beside the caller's reach is spelled.
      await expectTraversals(member, aiming('beside'));
    });

    it('refuses what the caller sees but may not do, saying which permission is missing', async () => {
      expect(await door.stat(member, 'shared/doc.txt')).toEqual({ path: 'shared/doc.txt', type: 'file', size: 12, capabilities: shown(['list', 'read']) });
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
      if (door.speaks.dotSegmentsRefused) {
        await expectRefusal(door.stat(admin, 'shared/../../x'), 'bad-request/invalid-path');
        await expectRefusal(door.write(admin, 'a/./b.txt', 'x'), 'bad-request/invalid-path');
      } else {
        // Resolved as POSIX paths are, and never above the Workspace root.
        expect(await door.stat(admin, '../../shared/./doc.txt')).toMatchObject({ path: 'shared/doc.txt', size: 12 });
        await expectRefusal(door.stat(member, 'shared/../../private/secret.txt'), 'not-found/file-not-found');
      }
      // Inside a Custom Workspace `_/Workspaces/N` is a folder of that name in the Workspace itself.
      await expectRefusal(door.stat(admin, `_/Workspaces/${otherWorkspace}/elsewhere.txt`), 'not-found/file-not-found');
      await expectRefusal(door.read(member, `_/Workspaces/${otherWorkspace}/elsewhere.txt`), 'not-found/file-not-found');
      await expectRefusal(door.delete(admin, '', { recursive: true }), 'bad-request/invalid-path');
      // A spelling of a path inside the caller's reach names that path, or is refused: never another.
      await expectTraversals(member, aiming('inside'));
    });
  });

  describe('credentials', () => {
    it('lets a files_only key do every file operation', async () => {
      expect(await door.write(filesOnly, 'own/f.txt', 'by a files_only key')).toEqual({ path: 'own/f.txt', type: 'file', size: 19, capabilities: shown(FILE_CAPABILITIES) });
      expect(await door.read(filesOnly, 'own/f.txt')).toBe('by a files_only key');
      await door.createFolder(filesOnly, 'own/sub', { mkdirParents: false });
      await door.copy(filesOnly, 'own/f.txt', 'own/sub/g.txt');
      await door.move(filesOnly, 'own/f.txt', 'own/h.txt');
      expect((await door.list(filesOnly, 'own')).map((entry) => entry.path)).toEqual(['own/sub', 'own/h.txt']);
      await door.delete(filesOnly, 'own/sub', { recursive: true });
      expect(await door.stat(filesOnly, 'shared/doc.txt')).toMatchObject({ type: 'file', size: 12 });
    });

    it('lets a Site Administrator reach a Custom Workspace from the site root, at _/Workspaces/<id>', async () => {
      const root = `_/Workspaces/${workspace}`;
      expect(await door.stat(siteAdmin, `${root}/shared/doc.txt`)).toEqual({ path: `${root}/shared/doc.txt`, type: 'file', size: 12, capabilities: shown(FILE_CAPABILITIES) });
      expect(await door.read(siteAdmin, `${root}/${SECRET_FILE}`)).toBe(SECRET_WORDS);
      expect((await door.list(siteAdmin, root)).map((entry) => entry.path)).toEqual(expect.arrayContaining([`${root}/shared`, `${root}/private`]));
      expect(await door.read(siteAdmin, `_/Workspaces/${otherWorkspace}/${ELSEWHERE_FILE}`)).toBe(ELSEWHERE_WORDS);
      if (door.speaks.workspaceSelection) expect(await door.read({ key: siteAdmin.key, workspace }, SHARED_FILE)).toBe(SHARED_WORDS);
    });

    it('confines a key made in a Custom Workspace, or of its user, to that Workspace', async () => {
      const elsewhere = `_/Workspaces/${otherWorkspace}/${ELSEWHERE_FILE}`;
      for (const who of [admin, member, filesOnly, siteAdminConfined]) {
        // Inside a Custom Workspace `_/Workspaces/N` is a name in the Workspace itself.
        await expectRefusal(door.stat(who, elsewhere), 'not-found/file-not-found');
        await expectRefusal(door.read(who, elsewhere), 'not-found/file-not-found');
        await expectRefusal(door.list(who, `_/Workspaces/${otherWorkspace}`), 'not-found/file-not-found');
        await expectRefusal(door.copy(who, elsewhere, 'own/copied.txt'), 'not-found/file-not-found');
        await expectRefusal(door.move(who, elsewhere, 'own/taken.txt'), 'not-found/file-not-found');
        await expectRefusal(door.delete(who, elsewhere, { recursive: false }), 'not-found/file-not-found');
        // One folder up from the Workspace root is `_/Workspaces`, where the other Workspace is.
        await expectRefusal(door.read(who, `../${otherWorkspace}/elsewhere.txt`), door.speaks.dotSegmentsRefused ? 'bad-request/invalid-path' : 'not-found/file-not-found');
        if (door.speaks.workspaceSelection) await expectRefusal(door.read({ ...who, workspace: otherWorkspace }, ELSEWHERE_FILE), 'bad-request/invalid-workspace-id-header');
        await expectTraversals(who, aiming('elsewhere'));
      }
      expect(await door.read(siteAdminConfined, SHARED_FILE)).toBe(SHARED_WORDS);
      await expectRefusal(door.stat(admin, 'own/copied.txt'), 'not-found/file-not-found');
      // A write there lands in the key's own Workspace, where the site sees it below that root.
      for (const who of [admin, siteAdminConfined]) {
        expect(await door.write(who, elsewhere, 'planted')).toMatchObject({ path: elsewhere, type: 'file', size: 7 });
        await door.delete(who, elsewhere, { recursive: false });
      }
      await door.write(siteAdminConfined, elsewhere, 'planted');
      expect(await door.read(siteAdmin, `_/Workspaces/${workspace}/${elsewhere}`)).toBe('planted');
      expect(await elsewhereNow()).toBe(ELSEWHERE_WORDS);
    });
  });
}
