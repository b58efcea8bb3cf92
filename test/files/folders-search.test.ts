import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/lib/cursor.js';
import { pathKey } from '../../src/lib/paths.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { enc, expectError, grantAsSite, listedPaths, memberOf, newWorkspace, seed, type As, type Member } from './files-support.js';

const ADMIN: As = { key: BOOTSTRAP_KEY };
const OLD = Date.UTC(2020, 0, 1);
const RECENT = Date.UTC(2021, 5, 1);

/**
 * `lib` holds names that differ in case, an accented one, names with LIKE's own characters, and
 * subfolders at two depths; `recent` entries were modified later than the rest.
 */
const TREE: Record<string, string> = {
  'lib/Report-2024.txt': 'r24',
  'lib/report-2025.TXT': 'r25 longer',
  'lib/notes.md': 'n',
  'lib/Résumé.pdf': 'cv',
  'lib/a_b.txt': 'ab',
  'lib/axb.txt': 'axb',
  'lib/under_score%.txt': 'u',
  'lib/reports/q1-report.txt': 'q1',
  'lib/archive/old-report.txt': 'old',
  'lib/archive/deep/report-final.txt': 'final',
  'lib/secret/report-secret.txt': 'secret',
  'lib/secret/inner/report-inner.txt': 'inner',
};
const RECENTLY_MODIFIED = ['lib/report-2025.TXT', 'lib/reports', 'lib/notes.md'];

const paths = (response: { body: { path: string }[] }) => response.body.map((entry) => entry.path);

describe.each(testDatabaseTargets())('folder listing: search, search_all, filter, type and time [$name]', (target) => {
  let t: TestApp;
  /** Lists `lib` and its files, and the whole of `lib/archive`; cannot list `lib/secret` or `lib/reports`. */
  let partial: Member;
  /** Has a grant deep inside `lib/secret` only. */
  let deep: Member;
  beforeAll(async () => {
    t = await startTestApp(target);
    await seed(t, TREE);
    await t.database.db.updateTable('entries').set({ mtime: OLD }).where('path_key', 'like', 'lib/%').execute();
    await t.database.db.updateTable('entries').set({ mtime: RECENT }).where('path_key', 'in', RECENTLY_MODIFIED.map(pathKey)).execute();
    [partial, deep] = await Promise.all([memberOf(t), memberOf(t)]);
    // A grant that is not recursive covers the folder and its files, never its subfolders.
    await grantAsSite(t, { path: 'lib', user_id: partial.id, permission: 'readonly', recursive: false });
    await grantAsSite(t, { path: 'lib/archive', user_id: partial.id, permission: 'readonly' });
    await grantAsSite(t, { path: 'lib/secret/inner', user_id: deep.id, permission: 'list' });
  });
  afterAll(() => t.close());

  const get = (folder: string, query: string, as: As = ADMIN) => t.api.get(`/folders/${enc(folder)}?${query}`, as);

  /** Every entry of a listing, following the cursor page by page; no page is larger than asked. */
  async function listAll(folder: string, query: string, perPage: number, as: As = ADMIN): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 100; pages += 1) {
      const response: any = await get(folder, `${query}&per_page=${perPage}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, as);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.length).toBeLessThanOrEqual(perPage);
      seen.push(...paths(response));
      cursor = response.headers.get('x-service-cursor');
      if (cursor === null) return seen;
    }
    throw new Error('the cursor never ended');
  }

  describe('search in one folder', () => {
    it('keeps the entries whose name contains the text, in any case, folders first', async () => {
      const response = await get('lib', 'search=REPORT');
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(paths(response)).toEqual(['lib/reports', 'lib/Report-2024.txt', 'lib/report-2025.TXT']);
      expect(response.body[0]).toMatchObject({ display_name: 'reports', type: 'directory', permissions: 'lrwd' });
      // The folder's own entries only: the matches below it are not listed.
      expect(paths(response)).not.toContain('lib/reports/q1-report.txt');
    });

    it('compares names as paths compare: Unicode NFC, case-insensitively', async () => {
      expect(paths(await get('lib', 'search=R%C3%89SU'))).toEqual(['lib/Résumé.pdf']);
      // The same text decomposed (e and a combining accent) finds the same name.
      expect(paths(await get('lib', `search=${encodeURIComponent('re\u0301su')}`))).toEqual(['lib/Résumé.pdf']);
      expect(paths(await get('lib', 'search=resu'))).toEqual([]);
    });

    it('takes _ and % as the characters they are', async () => {
      expect(paths(await get('lib', 'search=_'))).toEqual(['lib/a_b.txt', 'lib/under_score%.txt']);
      expect(paths(await get('lib', 'search=%25'))).toEqual(['lib/under_score%.txt']);
    });

    it('refuses a search or filter holding a control character, which no name holds', async () => {
      for (const query of ['search=a%00b', 'filter=*%0A', 'search=%1F']) {
        const response = await get('lib', query);
        expectError(response, 400, 'bad-request/request-params-invalid');
        expect(response.body.model_errors, query).toHaveProperty(query.slice(0, query.indexOf('=')));
      }
    });

    it('ignores the text before the last slash, and an empty search asks nothing', async () => {
      expect(paths(await get('lib', 'search=anything%2Fnotes'))).toEqual(['lib/notes.md']);
      expect(paths(await get('lib', 'search='))).toEqual(paths(await get('lib', '')));
    });

    it('orders the matches as sort_by asks, and pages through them with per_page=2', async () => {
      expect(paths(await get('lib', 'search=report&sort_by%5Bsize%5D=desc'))).toEqual(['lib/reports', 'lib/report-2025.TXT', 'lib/Report-2024.txt']);
      expect(await listAll('lib', 'search=r', 2)).toEqual(paths(await get('lib', 'search=r')));
      expect(await listAll('lib', 'search=r&sort_by%5Bmodified_at_datetime%5D=desc', 2)).toEqual(paths(await get('lib', 'search=r&sort_by%5Bmodified_at_datetime%5D=desc')));
      expect(await listAll('lib', 'search=r', 2)).toEqual([
        'lib/archive', 'lib/reports', 'lib/secret', 'lib/Report-2024.txt', 'lib/report-2025.TXT', 'lib/Résumé.pdf', 'lib/under_score%.txt',
      ]);
    });

    it('searches only what the caller may see in the folder', async () => {
      expect(paths(await get('lib', 'search=report', { key: deep.key }))).toEqual([]);
      expect(paths(await get('lib', 'search=e', { key: deep.key }))).toEqual(['lib/secret']);
      expect(paths(await get('lib', 'search=report', { key: partial.key }))).toEqual(['lib/reports', 'lib/Report-2024.txt', 'lib/report-2025.TXT']);
    });

    it('matches a file listed as itself only when its name matches', async () => {
      expect(paths(await get('lib/notes.md', 'search=note'))).toEqual(['lib/notes.md']);
      expect(paths(await get('lib/notes.md', 'search=report'))).toEqual([]);
    });
  });

  describe('search_all: the whole subtree', () => {
    const EVERY_REPORT = [
      'lib/reports', 'lib/Report-2024.txt', 'lib/report-2025.TXT',
      'lib/archive/old-report.txt', 'lib/archive/deep/report-final.txt',
      'lib/reports/q1-report.txt',
      'lib/secret/report-secret.txt', 'lib/secret/inner/report-inner.txt',
    ];

    it('finds matches at every depth with their full paths, folder by folder in path order', async () => {
      const response = await get('lib', 'search=report&search_all=true');
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(paths(response)).toEqual(EVERY_REPORT);
      expect(response.body[4]).toMatchObject({ path: 'lib/archive/deep/report-final.txt', display_name: 'report-final.txt', type: 'file', size: 5, permissions: 'lrwd' });
      expect(response.headers.get('x-service-cursor')).toBeNull();
      // From the root, the same matches; from a subfolder, those below it.
      expect(paths(await get('', 'search=report&search_all=true'))).toEqual(EVERY_REPORT);
      expect(paths(await get('lib/secret', 'search=report&search_all=1'))).toEqual(['lib/secret/report-secret.txt', 'lib/secret/inner/report-inner.txt']);
      // search_all=false is the folder's own search.
      expect(paths(await get('lib', 'search=report&search_all=false'))).toEqual(EVERY_REPORT.slice(0, 3));
    });

    it('pages through the subtree with per_page=2, each match exactly once', async () => {
      expect(await listAll('lib', 'search=report&search_all=true', 2)).toEqual(EVERY_REPORT);
      expect(await listAll('lib', 'search=report&search_all=true', 1)).toEqual(EVERY_REPORT);
      expect(await listAll('', 'filter=*.txt&search_all=true&type=file', 3)).toEqual([
        'lib/a_b.txt', 'lib/axb.txt', 'lib/Report-2024.txt', 'lib/report-2025.TXT', 'lib/under_score%.txt',
        'lib/archive/old-report.txt', 'lib/archive/deep/report-final.txt', 'lib/reports/q1-report.txt',
        'lib/secret/report-secret.txt', 'lib/secret/inner/report-inner.txt',
      ]);
    });

    it('never shows what the caller could not list: a folder it cannot list is not searched', async () => {
      const expected = ['lib/reports', 'lib/Report-2024.txt', 'lib/report-2025.TXT', 'lib/archive/old-report.txt', 'lib/archive/deep/report-final.txt'];
      const response = await get('lib', 'search=report&search_all=true', { key: partial.key });
      expect(paths(response)).toEqual(expected);
      expect(JSON.stringify(response.body)).not.toMatch(/secret|inner|q1/);
      expect(await listAll('lib', 'search=report&search_all=true', 1, { key: partial.key })).toEqual(expected);
      // Its listings say the same: lib/secret and lib/reports list nothing for it.
      expect(await listedPaths(t, 'lib/secret', { key: partial.key })).toEqual([]);
      expect(await listedPaths(t, 'lib/reports', { key: partial.key })).toEqual([]);
      // The caller with a grant deep inside finds what lies there, and nothing on the way.
      expect(paths(await get('', 'search=report&search_all=true', { key: deep.key }))).toEqual(['lib/secret/inner/report-inner.txt']);
      expect(paths(await get('', 'search=e&search_all=true', { key: deep.key }))).toEqual([
        'lib/secret', 'lib/secret/inner', 'lib/secret/inner/report-inner.txt',
      ]);
    });

    it('seals its cursor: an edited or forged one is refused, and one kept past a grant\'s removal shows nothing more', async () => {
      const first = await get('lib', 'search=report&search_all=true&per_page=1', { key: partial.key });
      const cursor = first.headers.get('x-service-cursor') as string;
      expect(cursor).not.toBeNull();
      // The position inside names no path, not even the entry the page ended with.
      expect(Buffer.from(cursor, 'base64url').toString('utf8')).not.toMatch(/reports|report-/);
      const matchKey = JSON.stringify(['report', null, null, null]);
      const listing = `search:${createHash('sha256').update(`lib\u0000${matchKey}`).digest('base64url').slice(0, 16)}`;
      for (const forged of ['in/-/secret', 'in/f/secret/inner/report-inner.txt', encodeCursor(listing, 'x').slice(0, 8)]) {
        expectError(await get('lib', `search=report&search_all=true&cursor=${encodeCursor(listing, forged)}`, { key: partial.key }), 400, 'bad-request/invalid-cursor');
      }
      const [, sealed] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
      const flipped = Buffer.from(sealed, 'base64url');
      flipped[flipped.length - 1] = (flipped[flipped.length - 1] as number) ^ 1;
      expectError(await get('lib', `search=report&search_all=true&cursor=${encodeCursor(listing, flipped.toString('base64url'))}`, { key: partial.key }), 400, 'bad-request/invalid-cursor');
      // The cursor belongs to its search: with another text it does not open.
      expectError(await get('lib', `search=reports&search_all=true&cursor=${encodeURIComponent(cursor)}`, { key: partial.key }), 400, 'bad-request/invalid-cursor');
      const rest = await get('lib', `search=report&search_all=true&cursor=${encodeURIComponent(cursor)}`, { key: partial.key });
      expect(paths(rest)).toEqual(['lib/Report-2024.txt', 'lib/report-2025.TXT', 'lib/archive/old-report.txt', 'lib/archive/deep/report-final.txt']);
    });

    it('searches a file path as the file itself, and refuses an order other than by path', async () => {
      expect(paths(await get('lib/notes.md', 'search=notes&search_all=true'))).toEqual(['lib/notes.md']);
      const bySize = await get('lib', 'search=report&search_all=true&sort_by%5Bsize%5D=desc');
      expectError(bySize, 400, 'bad-request/invalid-sort-filter-combination');
      expect(bySize.body.model_errors).toHaveProperty('sort_by');
      expect(paths(await get('lib', 'search=report&search_all=true&sort_by%5Bpath%5D=asc'))).toEqual(EVERY_REPORT);
    });

    it('without a search, lists every entry below the folder the caller may list', async () => {
      expect(await listAll('lib', 'search_all=true&type=folder', 2, { key: partial.key })).toEqual([
        'lib/archive', 'lib/reports', 'lib/secret', 'lib/archive/deep',
      ]);
    });
  });

  describe('filter: a pattern on the whole name', () => {
    it('reads *, ?, sets and negated sets, case-insensitively', async () => {
      expect(paths(await get('lib', 'filter=*.txt'))).toEqual(['lib/a_b.txt', 'lib/axb.txt', 'lib/Report-2024.txt', 'lib/report-2025.TXT', 'lib/under_score%.txt']);
      expect(paths(await get('lib', 'filter=a%3Fb.txt'))).toEqual(['lib/a_b.txt', 'lib/axb.txt']);
      expect(paths(await get('lib', 'filter=a_b*'))).toEqual(['lib/a_b.txt']);
      expect(paths(await get('lib', 'filter=%5Bar%5D*'))).toEqual(['lib/archive', 'lib/reports', 'lib/a_b.txt', 'lib/axb.txt', 'lib/Report-2024.txt', 'lib/report-2025.TXT', 'lib/Résumé.pdf']);
      expect(paths(await get('lib', 'filter=%5B!a-r%5D*'))).toEqual(['lib/secret', 'lib/under_score%.txt']);
      expect(paths(await get('lib', 'filter=REPORT-202%5B45%5D.TXT'))).toEqual(['lib/Report-2024.txt', 'lib/report-2025.TXT']);
      expect(paths(await get('lib', 'filter=r%C3%A9sum%C3%A9.*'))).toEqual(['lib/Résumé.pdf']);
      expect(paths(await get('lib', 'filter=report'))).toEqual([]);
    });

    it('combines with search, type, sort and pages', async () => {
      expect(paths(await get('lib', 'search=report&filter=*.txt'))).toEqual(['lib/Report-2024.txt', 'lib/report-2025.TXT']);
      expect(paths(await get('lib', 'filter=*s&type=folder'))).toEqual(['lib/reports']);
      expect(paths(await get('lib', 'filter=*.txt&sort_by%5Bsize%5D=desc'))).toEqual(['lib/report-2025.TXT', 'lib/Report-2024.txt', 'lib/axb.txt', 'lib/a_b.txt', 'lib/under_score%.txt']);
      for (const perPage of [1, 2]) {
        // A set is checked row by row past the database; the pages agree all the same.
        expect(await listAll('lib', 'filter=%5Bar%5D*', perPage)).toEqual(paths(await get('lib', 'filter=%5Bar%5D*')));
        expect(await listAll('lib', 'filter=*.txt&sort_by%5Bsize%5D=asc', perPage)).toEqual(paths(await get('lib', 'filter=*.txt&sort_by%5Bsize%5D=asc')));
      }
    });

    it('refuses a malformed pattern, naming filter', async () => {
      for (const pattern of ['%5Babc', 'x%5C', '%5Bz-a%5D*', '%5B%5D']) {
        const response = await get('lib', `filter=${pattern}`);
        expectError(response, 400, 'bad-request/request-params-invalid');
        expect(response.body.model_errors, pattern).toHaveProperty('filter');
      }
      // The generic filter[field]=value form is no name pattern.
      const object = await get('lib', 'filter%5Bname%5D=x');
      expectError(object, 400, 'bad-request/request-params-invalid');
      expect(object.body.model_errors).toHaveProperty('filter');
    });
  });

  describe('type, modified_at_datetime and the parameters without effect', () => {
    it('keeps only folders or only files', async () => {
      expect(paths(await get('lib', 'type=folder'))).toEqual(['lib/archive', 'lib/reports', 'lib/secret']);
      expect(paths(await get('lib', 'type=directory'))).toEqual(['lib/archive', 'lib/reports', 'lib/secret']);
      expect(paths(await get('lib', 'type=file&search=report'))).toEqual(['lib/Report-2024.txt', 'lib/report-2025.TXT']);
      expect(await listAll('lib', 'type=file', 2)).toEqual(paths(await get('lib', 'type=file')));
      const bad = await get('lib', 'type=symlink');
      expectError(bad, 400, 'bad-request/request-params-invalid');
      expect(bad.body.model_errors).toHaveProperty('type');
    });

    it('keeps only entries modified after modified_at_datetime', async () => {
      expect(paths(await get('lib', 'modified_at_datetime=2021-01-01T00:00:00Z'))).toEqual(['lib/reports', 'lib/notes.md', 'lib/report-2025.TXT']);
      expect(paths(await get('lib', 'type=file&modified_at_datetime=2021-01-01'))).toEqual(['lib/notes.md', 'lib/report-2025.TXT']);
      // Strictly after: an entry modified at that very time is not kept.
      expect(paths(await get('lib', `type=file&modified_at_datetime=${new Date(RECENT).toISOString()}`))).toEqual([]);
      expect(paths(await get('lib', 'search_all=true&modified_at_datetime=2021-01-01T00:00:00%2B02:00'))).toEqual(['lib/reports', 'lib/notes.md', 'lib/report-2025.TXT']);
      const bad = await get('lib', 'modified_at_datetime=yesterday');
      expectError(bad, 400, 'bad-request/request-params-invalid');
      expect(bad.body.model_errors).toHaveProperty('modified_at_datetime');
    });

    it('answers with_previews and with_priority_color with their fields, null, and accepts preview_size', async () => {
      const plain = await get('lib', 'search=notes');
      expect(Object.keys(plain.body[0])).not.toContain('preview');
      const asked = await get('lib', 'search=notes&with_previews=true&with_priority_color=true&preview_size=large');
      expect(asked.status).toBe(200);
      expect(asked.body).toEqual([{ ...plain.body[0], preview_id: null, preview: null, priority_color: null }]);
      expect(Object.keys((await get('lib', 'search=notes&with_previews=false')).body[0])).not.toContain('preview');
      for (const [query, field] of [['preview_size=huge', 'preview_size'], ['with_previews=maybe', 'with_previews'], ['search_all=yes', 'search_all']]) {
        const bad = await get('lib', query as string);
        expectError(bad, 400, 'bad-request/request-params-invalid');
        expect(bad.body.model_errors, query).toHaveProperty(field as string);
      }
    });

    it('refuses search_custom_metadata_key: no entry carries custom metadata', async () => {
      const response = await get('lib', 'search=x&search_custom_metadata_key=department');
      expectError(response, 400, 'bad-request/request-params-invalid');
      expect(response.body.model_errors).toHaveProperty('search_custom_metadata_key');
      expect((await get('lib', 'search=notes&search_custom_metadata_key=')).status).toBe(200);
    });
  });

  describe('cursors belong to one search', () => {
    it('refuses a cursor made by another search, filter, type, time or depth, or by the plain listing', async () => {
      const cursorOf = async (query: string) => {
        const response = await get('lib', `${query}&per_page=1`);
        const cursor = response.headers.get('x-service-cursor');
        expect(cursor, query).not.toBeNull();
        return encodeURIComponent(cursor as string);
      };
      const made = {
        plain: await cursorOf(''),
        search: await cursorOf('search=r'),
        filter: await cursorOf('filter=*'),
        files: await cursorOf('type=file'),
        recent: await cursorOf('modified_at_datetime=2021-01-01'),
        all: await cursorOf('search=r&search_all=true'),
      };
      const queries: Record<keyof typeof made, string> = {
        plain: '', search: 'search=r', filter: 'filter=*', files: 'type=file', recent: 'modified_at_datetime=2021-01-01', all: 'search=r&search_all=true',
      };
      for (const [madeBy, cursor] of Object.entries(made)) {
        for (const [usedWith, query] of Object.entries(queries)) {
          const response = await get('lib', `${query}&per_page=1&cursor=${cursor}`);
          if (madeBy === usedWith) expect(response.status, `${madeBy} with ${usedWith}`).toBe(200);
          else expect({ madeBy, usedWith, status: response.status, type: response.body.type }).toEqual({ madeBy, usedWith, status: 400, type: 'bad-request/invalid-cursor' });
        }
      }
      // The same search in another spelling selects the same entries: its cursor serves.
      expect((await get('lib', `search=R&per_page=1&cursor=${made.search}`)).status).toBe(200);
    });
  });
});

describe.each(testDatabaseTargets())('search_all within Workspaces and confined keys [$name]', (target) => {
  let t: TestApp;
  let ws: number;
  let other: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    ws = await newWorkspace(t);
    other = await newWorkspace(t);
    await seed(t, {
      'Top/secret-top.txt': 't',
      [`_/Workspaces/${ws}/Mine/secret-mine.txt`]: 'm',
      [`_/Workspaces/${other}/Theirs/secret-theirs.txt`]: 'o',
    });
  });
  afterAll(() => t.close());

  it('searches the request Workspace alone, with paths as it shows them', async () => {
    const admin = await memberOf(t, { workspaceId: ws, workspaceAdmin: true });
    const response = await t.api.get('/folders/?search=secret&search_all=true', { key: admin.key });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(paths(response)).toEqual(['Mine/secret-mine.txt']);
  });

  it('leaves out the Custom Workspaces for a key confined to Workspace 0, as its listing of the root does', async () => {
    const siteAdmin = await createUser(t.database.db, { siteAdmin: true });
    const confined = await createApiKey(t.database.db, { userId: siteAdmin.id, permissionSet: 'files_only' });
    expect(paths(await t.api.get('/folders/?search=secret&search_all=true', { key: confined }))).toEqual(['Top/secret-top.txt']);
    // The site's own key sees them all (in the order of the root's listing, which the database's collation sets for `_`).
    const site = await t.api.get('/folders/?search=secret&search_all=true', { key: BOOTSTRAP_KEY });
    expect(paths(site).sort()).toEqual([`_/Workspaces/${ws}/Mine/secret-mine.txt`, `_/Workspaces/${other}/Theirs/secret-theirs.txt`, 'Top/secret-top.txt'].sort());
  });
});

describe.each(testDatabaseTargets())('a search costs a bounded amount per request in large folders and trees [$name]', (target) => {
  let t: TestApp;
  const FILES_IN_BIG = 10_050;
  const FOLDERS_IN_TREE = 1_200;
  beforeAll(async () => {
    t = await startTestApp(target);
    await seed(t, { 'big/': '', 'tree/': '' });
    const row = (path: string, type: 'directory' | 'file') => ({
      path, path_key: pathKey(path), parent_key: pathKey(path.slice(0, path.lastIndexOf('/'))),
      type, size: type === 'file' ? 1 : null, storage_key: null, created_at: 0, mtime: 0,
    });
    const rows = [
      ...Array.from({ length: FILES_IN_BIG }, (_, i) => row(`big/f${String(i).padStart(5, '0')}.dat`, 'file')),
      row('big/match-1.txt', 'file'), row('big/zlast.dat', 'file'),
      ...Array.from({ length: FOLDERS_IN_TREE }, (_, i) => row(`tree/d${String(i).padStart(4, '0')}`, 'directory')),
      row(`tree/d${FOLDERS_IN_TREE - 1}/needle.txt`, 'file'),
    ];
    // In slices: PostgreSQL takes at most 65,535 parameters in one statement.
    for (let i = 0; i < rows.length; i += 2_000) await t.database.db.insertInto('entries').values(rows.slice(i, i + 2_000)).execute();
  });
  afterAll(() => t.close());

  /** The pages of a listing, following the cursor. */
  async function pagesOf(url: string): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 20; i += 1) {
      const response: any = await t.api.get(`${url}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, ADMIN);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      pages.push(paths(response));
      cursor = response.headers.get('x-service-cursor');
      if (cursor === null) return pages;
    }
    throw new Error('the cursor never ended');
  }

  it('finds what the database can match alone in one page of a folder of ten thousand entries', async () => {
    expect(await pagesOf('/folders/big?search=match')).toEqual([['big/match-1.txt']]);
    expect(await pagesOf('/folders/big?filter=zlast*')).toEqual([['big/zlast.dat']]);
    expect((await pagesOf('/folders/big?filter=f0000?.dat&per_page=4')).flat()).toEqual(Array.from({ length: 10 }, (_, i) => `big/f0000${i}.dat`));
  });

  it('checks at most 10,000 rows of a pattern with a set per request, and goes on where it stopped', async () => {
    const pages = await pagesOf('/folders/big?filter=%5Bz%5D*');
    expect(pages[0]).toEqual([]);
    expect(pages.flat()).toEqual(['big/zlast.dat']);
  });

  it('finds a name of three characters or more through the name index, in one page of the whole site', async () => {
    expect(await pagesOf('/folders/?search=needle&search_all=true')).toEqual([[`tree/d${FOLDERS_IN_TREE - 1}/needle.txt`]]);
    expect(await pagesOf('/folders/tree?search=EEDL&search_all=true')).toEqual([[`tree/d${FOLDERS_IN_TREE - 1}/needle.txt`]]);
  });

  it('reads at most 10,000 entries per request of a shorter search_all, and goes on where it stopped', async () => {
    // 'ne' is too short for a trigram: the site is read in order, and the needle lies past the first 10,000 entries.
    const pages = await pagesOf('/folders/?search=ne&search_all=true');
    expect(pages[0]).toEqual([]);
    expect(pages.flat()).toEqual([`tree/d${FOLDERS_IN_TREE - 1}/needle.txt`]);
  });
});
