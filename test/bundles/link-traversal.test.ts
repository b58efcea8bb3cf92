import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ELSEWHERE_FILE, ELSEWHERE_WORDS, SECRET_FILE, SECRET_WORDS, SHARED_FILE, SHARED_WORDS, spellingOf, TRAVERSAL_CASES, type TraversalAnswer, type TraversalCase,
} from '../files/contract/traversal-cases.js';
import { memberOf, newWorkspace, putFile } from '../files/files-support.js';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { entriesAnswer, fileAnswer, type ModelAnswer, type ModelNode, zipAnswer } from './link-path-model.js';
import { PUBLIC, type PublicAnswer, rawSend, unzip } from './public-link-support.js';

/** Folders beside `shared` whose names begin as its name does: a link that matched loosely would show them. */
const BESIDE_FILES: Record<string, string> = { 'shared2/doc.txt': 'beside words 2', 'shared (2)/doc.txt': 'beside words (2)', 'share/doc.txt': 'beside words share' };
/** What no answer of the link may carry: the bytes of every file outside `shared`. */
const OUTSIDE_WORDS = [SECRET_WORDS, ELSEWHERE_WORDS, ...Object.values(BESIDE_FILES)];

/** The property's shared folder, in a Workspace of its own beside the same files as the table's. */
const MODEL_SHARED: ModelNode = {
  name: 'shared',
  children: [
    { name: 'doc.txt', words: SHARED_WORDS },
    { name: 'Sub', children: [{ name: 'inner.txt', words: 'inner words' }, { name: 'deeper', children: [] }] },
    { name: '100%.txt', words: 'percent words' },
    { name: 'back\\slash.txt', words: 'backslash words' },
    // Names an archive would read as climbing out of it, or as a drive.
    { name: '..\\up.txt', words: 'up words' },
    { name: 'C:drive.txt', words: 'drive words' },
  ],
};
/** Every file of the model, as the site's Workspace names it. */
function modelFiles(node: ModelNode, path: string): [string, string | undefined][] {
  return [[path, node.words], ...(node.children ?? []).flatMap((child) => modelFiles(child, `${path}/${child.name}`))];
}
/** How many runs of the property each database gets: a few seconds' worth. */
const RUNS = 80;

/** A link and its visitor's cookie. */
interface LinkVisit {
  code: string;
  cookie?: string;
}

/** A link of the Workspace's folder `shared`, made by an administrator of the Workspace. */
async function linkOf(t: TestApp, workspace: number, permissions: string): Promise<string> {
  const sharer = await memberOf(t, { workspaceId: workspace, workspaceAdmin: true });
  const link = await t.api.post('/bundles', { paths: ['shared'], permissions }, { key: sharer.key });
  expect(link.status, JSON.stringify(link.body)).toBe(201);
  return link.body.code as string;
}

/**
 * One raw request to a link's API as its visitor, keeping the visit's cookie: never a 500, and
 * never a byte of a file outside `shared`.
 */
async function sendTo(t: TestApp, link: LinkVisit, method: string, below: string, body?: string): Promise<PublicAnswer> {
  const answer = await rawSend(t, method, `${PUBLIC}/${link.code}${below}`, { cookie: link.cookie, body });
  const set = answer.headers.get('set-cookie');
  if (set !== null) link.cookie = set.split(';')[0];
  const text = answer.bytes.toString('latin1');
  for (const words of OUTSIDE_WORDS) expect(text, `${method} ${below} carries "${words}"`).not.toContain(words);
  expect(answer.status, `${method} ${below}: ${text.slice(0, 200)}`).toBeLessThan(500);
  return answer;
}

/**
 * The file contract's traversal spellings (traversal-cases.ts) through every public endpoint of a
 * share link of the folder `shared` (docs/sharing.md#paths-inside-a-link), each path sent raw,
 * as a hostile client sends it: each answers the documented refusal or the shared file itself,
 * no answer carries a byte of a file outside `shared`, and nothing outside it changes.
 */
describe.each(testDatabaseTargets())('a share link\'s paths never leave it [$name]', (target) => {
  let t: TestApp;
  let workspace: number;
  let otherWorkspace: number;
  /** A `full` link of `shared`: it lists, reads, zips, uploads (into a folder of the visit's own) and deletes. */
  const full: LinkVisit = { code: '' };

  beforeAll(async () => {
    t = await startTestApp(target);
    workspace = await newWorkspace(t);
    otherWorkspace = await newWorkspace(t);
    for (const [path, words] of Object.entries({ [SHARED_FILE]: SHARED_WORDS, 'shared/sub/inner.txt': 'inner words', [SECRET_FILE]: SECRET_WORDS, ...BESIDE_FILES })) {
      expect((await putFile(t, path, words, { key: BOOTSTRAP_KEY, workspace })).status).toBe(201);
    }
    expect((await putFile(t, ELSEWHERE_FILE, ELSEWHERE_WORDS, { key: BOOTSTRAP_KEY, workspace: otherWorkspace })).status).toBe(201);
    full.code = await linkOf(t, workspace, 'full');
  });
  afterAll(() => t.close());

  const send = (method: string, below: string, body?: string) => sendTo(t, full, method, below, body);

  /** The answer is the refusal `type`, with its documented status (a HEAD's answer has no body: its status alone). */
  function expectRefusal(answer: PublicAnswer, type: TraversalAnswer, what: string, headersOnly = false): void {
    const status = type === 'bad-request/invalid-path' ? 400 : 404;
    if (headersOnly) expect(answer.status, what).toBe(status);
    else expect([answer.status, answer.body?.type], what).toEqual([status, type]);
  }

  const refusing = (answer: TraversalAnswer) => answer !== 'shared file';

  it.each(TRAVERSAL_CASES.map((c) => [c.spelling, c] as [string, TraversalCase]))('%s', async (_name, traversal) => {
    const spelling = spellingOf(traversal, otherWorkspace);
    const expected = traversal.link;
    const entries = await send('GET', `/entries?path=${spelling}`);
    const file = await send('GET', `/files/${spelling}`);
    const head = await send('HEAD', `/files/${spelling}`);
    const zip = await send('GET', `/zip?path=${spelling}`);
    if (refusing(expected)) {
      expectRefusal(entries, expected, 'entries');
      expectRefusal(file, expected, 'files');
      expectRefusal(head, expected, 'HEAD files', true);
      expectRefusal(zip, expected, 'zip');
      expectRefusal(await send('DELETE', `/files/${spelling}`), expected, 'DELETE');
      const upload = await send('PUT', `/files/${spelling}`, 'planted words');
      // Below the shared folder, what is not found is what an upload makes: a name, in the visit's own folder there.
      if (expected === 'not-found/file-not-found' && decodeURIComponent(spelling).startsWith('shared/')) expectUploadedInside(upload);
      else expectRefusal(upload, expected, 'PUT');
      return;
    }
    // The shared file: its bytes, its one entry, no ZIP of a file.
    expect([file.status, file.bytes.toString()]).toEqual([200, SHARED_WORDS]);
    expect([head.status, head.headers.get('content-length')]).toEqual([200, String(SHARED_WORDS.length)]);
    expect([entries.status, entries.body.entries.map((e: { name: string; type: string; size: number }) => [e.name, e.type, e.size])]).toEqual([200, [['doc.txt', 'file', 12]]]);
    expect([zip.status, zip.body?.type]).toEqual([400, 'bad-request/request-params-invalid']);
    expectUploadedInside(await send('PUT', `/files/${spelling}`, 'uploaded words'));
  });

  /** An upload landed in the visit's own folder right below `shared`. */
  function expectUploadedInside(upload: PublicAnswer): void {
    expect([upload.status, upload.body?.path]).toEqual([201, expect.stringMatching(/^shared\/upload [^/]+\/[^/]+$/)]);
  }

  it('answers any path made of names, dot segments and their spellings as the model of the link says', async () => {
    const propertyWorkspace = await newWorkspace(t);
    for (const [path, words] of modelFiles(MODEL_SHARED, 'shared')) {
      const made = words === undefined
        ? await t.api.post(`/folders/${encodeURIComponent(path)}`, { mkdir_parents: true }, { key: BOOTSTRAP_KEY, workspace: propertyWorkspace })
        : await putFile(t, path, words, { key: BOOTSTRAP_KEY, workspace: propertyWorkspace });
      expect([201, 409], path).toContain(made.status);
    }
    for (const [path, words] of Object.entries({ [SECRET_FILE]: SECRET_WORDS, ...BESIDE_FILES })) {
      expect((await putFile(t, path, words, { key: BOOTSTRAP_KEY, workspace: propertyWorkspace })).status).toBe(201);
    }
    const read: LinkVisit = { code: await linkOf(t, propertyWorkspace, 'read') };
    // Names of the model's tree (so that paths reach deep), and everything else a path might hold.
    const inside = fc.constantFrom('doc.txt', 'DOC.TXT', 'Sub', 'sub', 'inner.txt', 'deeper', '100%25.txt', 'back%5cslash.txt', '..%5cup.txt', 'C:drive.txt');
    const other = fc.constantFrom(
      'shared', 'SHARED', 'share', 'shared2', 'shared%20(2)', '100%.txt', 'private', 'PRIVATE', 'secret.txt', '_', 'Workspaces', String(otherWorkspace), 'elsewhere.txt',
      'nothing', '..', '.', '', '%2e%2e', '%2E%2e', '.%2e', '%2e', '%2f', '%2F', '%5c', '%5c..', '%00', '%c0%ae', '%c0%ae%c0%ae', 'shared%2fdoc.txt', '..%2f..', '%25',
    );
    const segment = fc.oneof({ arbitrary: inside, weight: 1 }, { arbitrary: other, weight: 1 });
    // The first segment decides which shared path a path is in: the shared name, its near misses, or anything.
    const nearMiss = fc.constantFrom('SHARED', 'Shared', 'share', 'shared2', 'shared%20(2)', 'sharedx', 'shared%2f..', '%2e%2e', '..', '.', '', 'private');
    const first = fc.oneof({ arbitrary: fc.constant('shared'), weight: 2 }, { arbitrary: nearMiss, weight: 1 }, { arbitrary: segment, weight: 1 });
    const below = fc.array(segment, { maxLength: 4 });
    const path = fc.oneof({ arbitrary: fc.constant(''), weight: 1 }, { arbitrary: fc.tuple(first, below).map(([head, rest]) => [head, ...rest].join('/')), weight: 12 });
    await fc.assert(fc.asyncProperty(path, async (raw) => {
      expect(await answerOf(await sendTo(t, read, 'GET', `/entries?path=${raw}`), 'entries'), `entries ${raw}`).toEqual(entriesAnswer(MODEL_SHARED, raw));
      expect(await answerOf(await sendTo(t, read, 'GET', `/files/${raw}`), 'file'), `files ${raw}`).toEqual(fileAnswer(MODEL_SHARED, raw));
      expect(await answerOf(await sendTo(t, read, 'GET', `/zip?path=${raw}`), 'zip'), `zip ${raw}`).toEqual(zipAnswer(MODEL_SHARED, raw));
    }), { numRuns: RUNS });
  }, 60_000);

  /** An answer in the model's terms: a refusal by its documented status and type, or what it carried. */
  async function answerOf(answer: PublicAnswer, kind: 'entries' | 'file' | 'zip'): Promise<ModelAnswer | string> {
    if (answer.status !== 200) {
      const status = { 'bad-request': 400, 'not-found': 404 }[String(answer.body?.type).split('/')[0] as string];
      return status === answer.status ? { refused: answer.body.type } : `${answer.status} ${answer.bytes.toString().slice(0, 200)}`;
    }
    if (kind === 'entries') {
      return { entries: answer.body.entries.map((e: { path: string; name: string; type: 'file' | 'directory'; size: number | null }) => ({ path: e.path, name: e.name, type: e.type, size: e.size })) };
    }
    if (kind === 'file') return { bytes: answer.bytes.toString('utf8') };
    return { zip: Object.fromEntries(await unzip(answer.bytes)) };
  }

  it('changed nothing outside `shared`, as the site sees it', async () => {
    const site = { key: BOOTSTRAP_KEY, workspace };
    const names = async (path: string, as = site) => (await t.api.get(`/folders/${encodeURIComponent(path)}`, as)).body.map((entry: { path: string }) => entry.path).sort();
    expect(await names('')).toEqual(['private', 'share', 'shared', 'shared (2)', 'shared2']);
    expect(await names('private')).toEqual([SECRET_FILE]);
    for (const [path, words] of Object.entries({ [SECRET_FILE]: SECRET_WORDS, ...BESIDE_FILES })) {
      expect((await t.api.get(`/files/${encodeURIComponent(path)}?action=stream`, site)).text, path).toBe(words);
    }
    expect(await names('', { key: BOOTSTRAP_KEY, workspace: otherWorkspace })).toEqual([ELSEWHERE_FILE]);
    expect((await t.api.get(`/files/${ELSEWHERE_FILE}?action=stream`, { key: BOOTSTRAP_KEY, workspace: otherWorkspace })).text).toBe(ELSEWHERE_WORDS);
    // What the spellings uploaded (names with `\\` among them) is all the link's ZIP holds besides the shared files.
    const zip = await send('GET', '/zip');
    expect(zip.status).toBe(200);
    expect(Object.keys(Object.fromEntries(await unzip(zip.bytes))).filter((name) => !name.startsWith('shared/'))).toEqual([]);
  });
});
