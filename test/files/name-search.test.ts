import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { enc, expectError, grantAsSite, memberOf, newWorkspace, putFile, seed, type As, type Member } from './files-support.js';

const require = createRequire(import.meta.url);
const Files = require('files.com/lib/Files.js');
const { LogLevel } = require('files.com/lib/Logger.js');
const SdkFolder = require('files.com/lib/models/Folder.js').default;

const SITE: As = { key: BOOTSTRAP_KEY };

/**
 * Names that a search by part must find in the middle, in any case and Unicode spelling, with
 * LIKE's own characters and a backslash taken literally; `shared` is what the member may list,
 * `private` what it may not.
 */
const TREE: Record<string, string> = {
  'docs/Quarterly Report.pdf': 'q',
  'docs/plans/2026 roadmap-REPORT.txt': 'r',
  'docs/Résumé Müller.pdf': 'cv',
  'docs/東京データ.csv': 'tokyo',
  'docs/100%_done\\final.txt': 'odd',
  'docs/a_b_c.txt': 'abc',
  'docs/axbxc.txt': 'axb',
  'docs/5000 done.txt': 'five',
  'shared/alpha-report.txt': 'a',
  'shared/inner/gamma-report.txt': 'g',
  'private/beta-report.txt': 'b',
  'moves/': '',
};

const paths = (response: { body: { path: string }[] }) => response.body.map((entry) => entry.path);

describe.each(testDatabaseTargets())('search by part of a name, through the name index [$name]', (target) => {
  let t: TestApp;
  /** Reads `shared` (recursively) and nothing else. */
  let member: Member;
  beforeAll(async () => {
    // The Files.com SDK sends its key as X-FilesAPI-Key.
    t = await startTestApp(target, { brands: ['Service', 'Files'] });
    await seed(t, TREE);
    member = await memberOf(t);
    await grantAsSite(t, { path: 'shared', user_id: member.id, permission: 'readonly' });
  });
  afterAll(() => t.close());

  /** search_all from `folder`, every page followed; the paths found, in order. */
  async function found(text: string, as: As = SITE, folder = ''): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages += 1) {
      const response: any = await t.api.get(
        `/folders/${enc(folder)}?search=${encodeURIComponent(text)}&search_all=true&per_page=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, as,
      );
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      seen.push(...paths(response));
      cursor = response.headers.get('x-service-cursor');
      if (cursor === null) return seen;
    }
    throw new Error('the cursor never ended');
  }

  it('finds a part in the middle of a name, at any depth, in any case', async () => {
    expect(await found('report')).toEqual(['docs/Quarterly Report.pdf', 'docs/plans/2026 roadmap-REPORT.txt', 'private/beta-report.txt', 'shared/alpha-report.txt', 'shared/inner/gamma-report.txt']);
    expect(await found('TERLY REP')).toEqual(['docs/Quarterly Report.pdf']);
    expect(await found('admap-rep')).toEqual(['docs/plans/2026 roadmap-REPORT.txt']);
    // Under a folder, only what lies below it; a name is found, never a folder's name in its path.
    expect(await found('report', SITE, 'docs/plans')).toEqual(['docs/plans/2026 roadmap-REPORT.txt']);
    expect(await found('plans/2026')).toEqual(['docs/plans/2026 roadmap-REPORT.txt']);
    // Only the text after the last slash counts (a name holds none): this searches for `plans`.
    expect(await found('docs/plans')).toEqual(['docs/plans']);
  });

  it('compares names as paths compare: non-ASCII in any case and Unicode spelling', async () => {
    expect(await found('MÜLLER')).toEqual(['docs/Résumé Müller.pdf']);
    expect(await found('mu\u0308ller')).toEqual(['docs/Résumé Müller.pdf']);
    expect(await found('SUMÉ M')).toEqual(['docs/Résumé Müller.pdf']);
    expect(await found('東京デ')).toEqual(['docs/東京データ.csv']);
    expect(await found('京デ')).toEqual(['docs/東京データ.csv']);
    expect(await found('muller')).toEqual([]);
  });

  it('takes %, _ and \\ literally, in texts long and short', async () => {
    expect(await found('0%_')).toEqual(['docs/100%_done\\final.txt']);
    expect(await found('%')).toEqual(['docs/100%_done\\final.txt']);
    expect(await found('a_b')).toEqual(['docs/a_b_c.txt']);
    expect(await found('_')).toEqual(['docs/100%_done\\final.txt', 'docs/a_b_c.txt']);
    expect(await found('done\\fin')).toEqual(['docs/100%_done\\final.txt']);
    expect(await found('\\')).toEqual(['docs/100%_done\\final.txt']);
    expect(await found('00 d')).toEqual(['docs/5000 done.txt']);
    expect(await found('"')).toEqual([]);
    expect(await found('a"b')).toEqual([]);
  });

  it('finds only what the caller could list: a member with a grant on one folder', async () => {
    expect(await found('report', { key: member.key })).toEqual(['shared/alpha-report.txt', 'shared/inner/gamma-report.txt']);
    expect(await found('beta', { key: member.key })).toEqual([]);
    expect(await found('quarterly', { key: member.key })).toEqual([]);
    // Short texts read the subtree instead of the index, under the same rule.
    expect(await found('a-', { key: member.key })).toEqual(['shared/alpha-report.txt', 'shared/inner/gamma-report.txt']);
    // The folder on the way to its grant is found; what is beside it is not.
    expect(await found('share', { key: member.key })).toEqual(['shared']);
    expect(await found('priv', { key: member.key })).toEqual([]);
  });

  it('follows renames, moves and deletions at once, folders with all they hold', async () => {
    expect((await putFile(t, 'moves/before-name.txt', 'x')).status).toBe(201);
    expect(await found('fore-na')).toEqual(['moves/before-name.txt']);
    const move = (from: string, to: string) => t.api.post(`/file_actions/move/${enc(from)}`, { path: from, destination: to }, SITE);
    expect((await move('moves/before-name.txt', 'moves/sub/after-name.txt')).status).toBe(201);
    expect(await found('fore-na')).toEqual([]);
    expect(await found('ter-na')).toEqual(['moves/sub/after-name.txt']);
    // A folder moved: its name and every path below it change in one statement.
    expect((await move('moves/sub', 'moves/Renamed Folder')).status).toBe(201);
    expect(await found('ter-na')).toEqual(['moves/Renamed Folder/after-name.txt']);
    expect(await found('named fold')).toEqual(['moves/Renamed Folder']);
    expect(await found('sub')).toEqual([]);
    expect((await t.api.delete(`/files/${enc('moves/Renamed Folder')}?recursive=true`, SITE)).status).toBe(204);
    expect(await found('ter-na')).toEqual([]);
    expect(await found('named fold')).toEqual([]);
  });

  it('seals its cursor, and a cursor of another search or of an edited one is refused', async () => {
    const first = await t.api.get('/folders/?search=report&search_all=true&per_page=1', SITE);
    const cursor = first.headers.get('x-service-cursor') as string;
    expect(cursor).not.toBeNull();
    expect(Buffer.from(cursor, 'base64url').toString('utf8')).not.toMatch(/report|docs/i);
    expectError(await t.api.get(`/folders/?search=repor&search_all=true&cursor=${encodeURIComponent(cursor)}`, SITE), 400, 'bad-request/invalid-cursor');
    expectError(await t.api.get(`/folders/docs?search=report&search_all=true&cursor=${encodeURIComponent(cursor)}`, SITE), 400, 'bad-request/invalid-cursor');
  });

  it('answers the Files.com SDK\'s Folder.listFor with search and search_all, page after page', async () => {
    Files.setBaseUrl(t.baseUrl);
    Files.setApiKey(BOOTSTRAP_KEY);
    Files.setLogLevel(LogLevel.NONE);
    const listed = await SdkFolder.listFor('/', { search: 'REPORT', search_all: true, per_page: 2 });
    expect(listed.map((entry: any) => entry.path)).toEqual(await found('report'));
    const inOne = await SdkFolder.listFor('docs', { search: 'report' });
    expect(inOne.map((entry: any) => [entry.path, entry.type])).toEqual([['docs/Quarterly Report.pdf', 'file']]);
  });
});

describe.each(testDatabaseTargets())('search never leaves the request Workspace [$name]', (target) => {
  let t: TestApp;
  let mine: number;
  let theirs: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    mine = await newWorkspace(t);
    theirs = await newWorkspace(t);
    await seed(t, {
      'top/needle-top.txt': 't',
      [`_/Workspaces/${mine}/proj/needle-mine.txt`]: 'm',
      [`_/Workspaces/${theirs}/proj/needle-theirs.txt`]: 'o',
    });
  });
  afterAll(() => t.close());

  const search = (as: As, text = 'needle') => t.api.get(`/folders/?search=${text}&search_all=true`, as);

  it('finds the request Workspace\'s files alone, for its administrator, its member and a Site Administrator there', async () => {
    const admin = await memberOf(t, { workspaceId: mine, workspaceAdmin: true });
    const member = await memberOf(t, { workspaceId: mine });
    await grantAsSite(t, { path: `_/Workspaces/${mine}/proj`, user_id: member.id, permission: 'readonly' });
    for (const as of [{ key: admin.key }, { key: member.key }, { key: BOOTSTRAP_KEY, workspace: mine }]) {
      const response = await search(as);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(paths(response)).toEqual(['proj/needle-mine.txt']);
      expect(paths(await search(as, 'eedl'))).toEqual(['proj/needle-mine.txt']);
      expect(paths(await search(as, 'ne'))).toEqual(['proj/needle-mine.txt']);
      expect(JSON.stringify((await search(as, 'theirs')).body)).toBe('[]');
    }
  });
});

describe.each(testDatabaseTargets())('users: search and filter_prefix[username] [$name]', (target) => {
  let t: TestApp;
  let ws: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    ws = await newWorkspace(t);
    const other = await newWorkspace(t);
    for (const [username, name, workspace_id] of [
      ['marie.curie', 'Marie Curie', ws], ['Émile_Zola', 'Émile Zola', ws], ['50%owner', 'Half Owner', ws], ['back.slash', 'Back\\slash Person', ws], ['curie.other', 'Pierre Curie', other],
    ] as const) {
      const made = await t.api.post('/users', { username, name, workspace_id }, SITE);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
  });
  afterAll(() => t.close());

  const usernames = (response: { body: { username: string }[] }) => response.body.map((user) => user.username).sort();

  it('finds users by part of the username, name or email, in any case, only in the request Workspace', async () => {
    const admin = await memberOf(t, { workspaceId: ws, workspaceAdmin: true });
    const get = (query: string) => t.api.get(`/users?${query}`, { key: admin.key });
    expect(usernames(await get('search=CURIE'))).toEqual(['marie.curie']);
    expect(usernames(await get('search=mile%20z'))).toEqual(['Émile_Zola']);
    expect(usernames(await get(`search=${encodeURIComponent('ÉMILE')}`))).toEqual(['Émile_Zola']);
    expect(usernames(await get('search=%25'))).toEqual(['50%owner']);
    expect(usernames(await get('search=_'))).toEqual(['Émile_Zola']);
    expect(usernames(await get(`search=${encodeURIComponent('\\')}`))).toEqual(['back.slash']);
    expect(usernames(await get('filter_prefix%5Busername%5D=MARIE'))).toEqual(['marie.curie']);
    expect(usernames(await get('filter_prefix%5Busername%5D=50%25'))).toEqual(['50%owner']);
    expect(usernames(await get('filter_prefix%5Busername%5D=curie'))).toEqual([]);
    // The site's own key, in context 0, sees every Workspace's users.
    expect(usernames(await t.api.get('/users?search=curie', SITE))).toEqual(['curie.other', 'marie.curie']);
  });
});
