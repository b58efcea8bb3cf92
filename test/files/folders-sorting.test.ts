import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/lib/cursor.js';
import { pathKey } from '../../src/lib/paths.js';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { expectError, grantAsSite, memberOf, seed, type As } from './files-support.js';

interface Row { name: string; type: 'directory' | 'file'; size: number | null; mtime: number; provided?: number }

/**
 * A folder with ties in every sort: equal sizes, equal times, names that differ only in case; some
 * entries with a client's time (`provided_mtime`) before or after their own, tying with others'.
 */
const ROWS: Row[] = [
  { name: 'dirb', type: 'directory', size: null, mtime: 1_000, provided: 3_000 },
  { name: 'DirA', type: 'directory', size: null, mtime: 2_000 },
  { name: 'dirc', type: 'directory', size: null, mtime: 2_000 },
  { name: 'fa', type: 'file', size: 10, mtime: 3_000, provided: 500 },
  { name: 'FB', type: 'file', size: 5, mtime: 1_000 },
  { name: 'fc', type: 'file', size: 10, mtime: 2_000 },
  { name: 'fd', type: 'file', size: 5, mtime: 3_000 },
  { name: 'fe', type: 'file', size: 20, mtime: 1_000, provided: 5_000 },
  { name: 'Ff', type: 'file', size: 10, mtime: 3_000 },
  { name: 'fg', type: 'file', size: 0, mtime: 2_000, provided: 3_000 },
];

type Field = 'path' | 'size' | 'modified_at_datetime' | 'provided_modified_at';
const FIELDS: Field[] = ['path', 'size', 'modified_at_datetime', 'provided_modified_at'];

/**
 * The documented order, written independently of the server: folders first; then the field in the
 * direction asked, ties by name (case-insensitive) in the same direction. Folders have no size:
 * sorted by size they are listed by name, A to Z, in either direction. `provided_modified_at` is the
 * client's time where one was given, else `mtime`.
 */
function expectedOrder(rows: readonly Row[], field: Field, direction: 'asc' | 'desc'): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  const byName = (a: Row, b: Row) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1);
  return [...rows].sort((a, b) => {
    if (a.type !== b.type) return a.type === 'directory' ? -1 : 1;
    if (field === 'size' && a.type === 'directory') return byName(a, b);
    const value = (row: Row) => {
      if (field === 'size') return row.size as number;
      if (field === 'path') return 0;
      return field === 'provided_modified_at' ? (row.provided ?? row.mtime) : row.mtime;
    };
    return sign * (value(a) - value(b) || byName(a, b));
  }).map((row) => row.name);
}

describe.each(testDatabaseTargets())('folder listing sorted by sort_by [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
    await seed(t, { 'sorted/': '' });
    await t.database.db.insertInto('entries').values(ROWS.map((row) => ({
      path: `sorted/${row.name}`, path_key: pathKey(`sorted/${row.name}`), parent_key: 'sorted',
      type: row.type, size: row.size, storage_key: null, created_at: 0, mtime: row.mtime, provided_mtime: row.provided ?? null,
    }))).execute();
  });
  afterAll(() => t.close());

  const sortQuery = (field: string, direction: string) => `sort_by%5B${field}%5D=${direction}`;

  /** Every entry of a listing, following the cursor page by page. */
  async function listAll(query: string, perPage: number, as: As = { key: BOOTSTRAP_KEY }, folder = 'sorted'): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages += 1) {
      const response: any = await t.api.get(`/folders/${folder}?${query}&per_page=${perPage}${cursor === null ? '' : `&cursor=${cursor}`}`, as);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.length).toBeLessThanOrEqual(perPage);
      seen.push(...response.body.map((entry: { display_name: string }) => entry.display_name));
      cursor = response.headers.get('x-service-cursor');
      if (cursor === null) return seen;
    }
    throw new Error('the cursor never ended');
  }

  for (const field of FIELDS) {
    for (const direction of ['asc', 'desc'] as const) {
      it(`sorts by ${field} ${direction}, folders first, and pages through the ties exactly once`, async () => {
        const expected = expectedOrder(ROWS, field, direction);
        const whole = await t.api.get(`/folders/sorted?${sortQuery(field, direction)}`, { key: BOOTSTRAP_KEY });
        expect(whole.status, JSON.stringify(whole.body)).toBe(200);
        expect(whole.body.map((entry: { display_name: string }) => entry.display_name)).toEqual(expected);
        for (const perPage of [1, 2, 3]) {
          expect(await listAll(sortQuery(field, direction), perPage), `per_page=${perPage}`).toEqual(expected);
        }
      });
    }
  }

  it('sorts by path ascending when no sort_by is given, and takes the direction in any case', async () => {
    expect(await listAll('', 4)).toEqual(expectedOrder(ROWS, 'path', 'asc'));
    expect(await listAll(sortQuery('size', 'DESC'), 4)).toEqual(expectedOrder(ROWS, 'size', 'desc'));
  });

  it('refuses a cursor made in another sort with bad-request/invalid-cursor-type-for-sort', async () => {
    const first = await t.api.get(`/folders/sorted?${sortQuery('size', 'desc')}&per_page=4`, { key: BOOTSTRAP_KEY });
    const cursor = first.headers.get('x-service-cursor') as string;
    expect(cursor).not.toBeNull();
    for (const other of [sortQuery('size', 'asc'), sortQuery('modified_at_datetime', 'desc'), sortQuery('path', 'asc'), '']) {
      expectError(await t.api.get(`/folders/sorted?${other}&per_page=4&cursor=${cursor}`, { key: BOOTSTRAP_KEY }), 400, 'bad-request/invalid-cursor-type-for-sort');
    }
    // A forged cursor of the right sort whose position cannot belong to it: refused, not misread.
    const folder = `folder:${createHash('sha256').update('sorted').digest('base64url').slice(0, 16)}`;
    for (const value of ['size.asc/f//fa', 'size.asc/d/5/dirb', 'path.asc/f/5/fa']) {
      const query = value.startsWith('size') ? sortQuery('size', 'asc') : '';
      expectError(await t.api.get(`/folders/sorted?${query}&cursor=${encodeCursor(folder, value)}`, { key: BOOTSTRAP_KEY }), 400, 'bad-request/invalid-cursor');
    }
    expect((await t.api.get(`/folders/sorted?${sortQuery('size', 'asc')}&cursor=${encodeCursor(folder, 'size.asc/f/5/fd')}`, { key: BOOTSTRAP_KEY })).body
      .map((entry: { display_name: string }) => entry.display_name)).toEqual(['fa', 'fc', 'Ff', 'fe']);
    // The two modification-time fields are two orders: a cursor of one does not serve the other.
    const byTime = await t.api.get(`/folders/sorted?${sortQuery('modified_at_datetime', 'asc')}&per_page=4`, { key: BOOTSTRAP_KEY });
    expectError(
      await t.api.get(`/folders/sorted?${sortQuery('provided_modified_at', 'asc')}&per_page=4&cursor=${byTime.headers.get('x-service-cursor')}`, { key: BOOTSTRAP_KEY }),
      400,
      'bad-request/invalid-cursor-type-for-sort',
    );
  });

  it('refuses an unknown field, two fields at once and a direction that is not asc or desc', async () => {
    expectError(await t.api.get(`/folders/sorted?${sortQuery('name', 'asc')}`, { key: BOOTSTRAP_KEY }), 400, 'bad-request/invalid-sort-field');
    expectError(await t.api.get(`/folders/sorted?${sortQuery('created_at', 'desc')}`, { key: BOOTSTRAP_KEY }), 400, 'bad-request/invalid-sort-field');
    expectError(
      await t.api.get(`/folders/sorted?${sortQuery('size', 'asc')}&${sortQuery('path', 'desc')}`, { key: BOOTSTRAP_KEY }),
      400,
      'bad-request/multiple-sort-params-not-allowed',
    );
    const sideways = await t.api.get(`/folders/sorted?${sortQuery('size', 'sideways')}`, { key: BOOTSTRAP_KEY });
    expectError(sideways, 400, 'bad-request/request-params-invalid');
    expect(sideways.body.model_errors).toHaveProperty('sort_by');
    expectError(await t.api.get('/folders/sorted?sort_by=size', { key: BOOTSTRAP_KEY }), 400, 'bad-request/request-params-invalid');
  });

  it('sorts what a caller with grants below the folder sees: only the way to its grants, in order', async () => {
    const member = await memberOf(t);
    const granted = ['fa', 'FB', 'fe', 'Ff', 'dirc', 'DirA'];
    for (const name of granted) await grantAsSite(t, { path: `sorted/${name}`, user_id: member.id, permission: 'readonly' });
    const visible = ROWS.filter((row) => granted.includes(row.name));
    for (const field of ['size', 'modified_at_datetime'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        for (const perPage of [1, 4]) {
          expect(await listAll(sortQuery(field, direction), perPage, { key: member.key }), `${field} ${direction} ${perPage}`)
            .toEqual(expectedOrder(visible, field, direction));
        }
      }
    }
  });

  it('sorts what a caller with write alone sees: the subfolders', async () => {
    const member = await memberOf(t);
    await grantAsSite(t, { path: 'sorted', user_id: member.id, permission: 'writeonly' });
    const folders = ROWS.filter((row) => row.type === 'directory');
    for (const direction of ['asc', 'desc'] as const) {
      expect(await listAll(sortQuery('modified_at_datetime', direction), 1, { key: member.key })).toEqual(expectedOrder(folders, 'modified_at_datetime', direction));
    }
  });
});
