import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/lib/cursor.js';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { memberOf, newWorkspace, rawRequest, seed, type Member } from './files-support.js';

/**
 * Whatever a client sends to the folder and file endpoints, the answer is a contract error or a
 * success, never a 500: odd paths (raw and encoded), forged cursors, refs, tokens and bodies.
 */
describe.each(testDatabaseTargets())('folder and file endpoints never answer 500 [$name]', (target) => {
  let t: TestApp;
  let member: Member;
  let ws: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    ws = await newWorkspace(t);
    await seed(t, { 'a/b.txt': 'b', 'a/c/': '' });
    member = await memberOf(t, { workspaceId: ws });
  });
  afterAll(() => t.close());

  const segment = fc.constantFrom('a', 'B', '_', 'Workspaces', '..', '.', '', '%', '%2F', '%2e%2e', '%00', 'ü', '名', ' ', '\\', 'b.txt', 'x'.repeat(300), '%ZZ', '%C3', '?', '#');
  // Sent as they are, except what no HTTP client puts raw in a request line (spaces, non-ASCII).
  const wire = (path: string) => path.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
  const urlPath = fc.oneof(fc.array(segment, { maxLength: 5 }).map((parts) => wire(parts.join('/'))), fc.string({ maxLength: 30 }).map(encodeURIComponent));
  const text = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('\u0000', '../x', '_/Workspaces/1', '/', ''), fc.integer(), fc.constant(null), fc.constant({ a: 1 }));
  const cursor = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.string({ maxLength: 20 }).map((name) => encodeCursor('folder:whatever', `f:${name}`)),
    fc.constantFrom('\u0000', 'd:', 'f:a\u0000b', 'x:y', 'f:a/b').map((value) => encodeCursor('folder:whatever', value)),
  );
  const request = fc.record({
    method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT'),
    resource: fc.constantFrom('folders', 'files', 'file_actions/metadata', 'file_actions/move', 'file_actions/copy', 'file_actions/begin_upload', 'uploads', 'downloads'),
    path: urlPath,
    query: fc.oneof(fc.constant(''), cursor.map((c) => `?cursor=${encodeURIComponent(c)}`), fc.constantFrom('?per_page=0', '?per_page=99999', '?recursive=maybe', '?action=stream', '?mkdir_parents=2')),
    body: fc.option(fc.record({ action: fc.oneof(fc.constantFrom('put', 'end', 'nope'), text), ref: text, part: fc.oneof(fc.integer(), text), destination: text, mkdir_parents: text, recursive: text }, { requiredKeys: [] }), { nil: undefined }),
    who: fc.constantFrom('admin', 'member'),
    workspace: fc.constantFrom(undefined, 0),
  });

  it('answers every request with a contract status', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const key = r.who === 'admin' ? BOOTSTRAP_KEY : member.key;
        const workspace = r.who === 'admin' ? r.workspace : undefined;
        const response = await rawRequest(t, r.method, `/api/rest/v1/${r.resource}/${r.path}${r.query}`, { key, ...(workspace === undefined ? {} : { workspace }) }, r.body === undefined ? undefined : JSON.stringify(r.body));
        expect(response.status, JSON.stringify({ r, body: response.body })).toBeLessThan(500);
        if (response.status >= 400) expect(typeof response.body?.type).toBe('string');
      }),
      { numRuns: 400 },
    );
    // The site is still whole. Its contents may have changed (an administrator may move or delete
    // what the fuzzer names), but every entry's folder exists and every file's contents can be read.
    const entries = await t.database.db.selectFrom('entries').select(['path_key', 'parent_key', 'type', 'storage_key']).execute();
    const folders = new Set(entries.filter((e) => e.type === 'directory').map((e) => e.path_key));
    for (const entry of entries) {
      expect({ entry: entry.path_key, parentExists: entry.parent_key === '' || folders.has(entry.parent_key) }).toEqual({ entry: entry.path_key, parentExists: true });
      if (entry.type === 'file') (await t.core.storage.read(entry.storage_key as string)).destroy();
    }
    expect((await t.api.get('/folders', { key: BOOTSTRAP_KEY })).status).toBe(200);
  }, 120_000);

  it('answers every combination of the listing\'s search and filter parameters with a contract status', async () => {
    const pattern = fc.oneof(fc.string({ maxLength: 12 }), fc.stringMatching(/^[*?[\]!^\\a-c%_-]{0,10}$/), fc.constantFrom('\u0000', '[', '[]', '[z-a]', '\\', 'a/b', '/', 'é'.normalize('NFD')));
    const listing = fc.record({
      search: fc.option(pattern, { nil: undefined }),
      filter: fc.option(pattern, { nil: undefined }),
      search_all: fc.option(fc.constantFrom('true', 'false', '1', 'yes'), { nil: undefined }),
      type: fc.option(fc.constantFrom('file', 'folder', 'directory', 'link', ''), { nil: undefined }),
      modified_at_datetime: fc.option(fc.oneof(fc.string({ maxLength: 25 }), fc.constantFrom('2020-01-01', '2020-02-30', '2020-01-01T00:00:00Z')), { nil: undefined }),
      'sort_by[size]': fc.option(fc.constantFrom('asc', 'desc'), { nil: undefined }),
      cursor: fc.option(fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.constantFrom('in/-/a', 'in/f/a/b.txt', 'past/-/a', 'in/-/', 'in/d/../x', 'past/-/a\u0000').map((value) => encodeCursor('search:whatever', value)),
      ), { nil: undefined }),
      per_page: fc.option(fc.constantFrom('1', '2', '0'), { nil: undefined }),
    }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(listing, fc.constantFrom('', 'a', 'a/b.txt', 'nowhere'), fc.constantFrom('admin', 'member'), async (query, path, who) => {
        const search = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== undefined) as [string, string][]).toString();
        const response = await rawRequest(t, 'GET', `/api/rest/v1/folders/${encodeURIComponent(path)}?${search}`, { key: who === 'admin' ? BOOTSTRAP_KEY : member.key });
        expect(response.status, JSON.stringify({ query, path, body: response.body })).toBeLessThan(500);
        if (response.status >= 400) expect(typeof response.body?.type).toBe('string');
        else expect(Array.isArray(response.body)).toBe(true);
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
