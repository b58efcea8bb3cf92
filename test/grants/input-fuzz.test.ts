import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createGroup, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Whatever a client sends to the permission endpoints, the answer is a contract error or a
 * success, never a 500: random bodies and queries built from the shapes that go wrong in practice
 * (wrong types, huge ids, odd paths, strings where numbers belong).
 */
describe.each(testDatabaseTargets())('permission endpoints never answer 500 [$name]', (target) => {
  let t: TestApp;
  let ws: number;
  const known: number[] = [];
  beforeAll(async () => {
    t = await startTestApp(target);
    ws = await createWorkspace(t.database.db);
    known.push((await createUser(t.database.db, { workspaceId: ws })).id, await createGroup(t.database.db, { workspaceId: ws }));
  });
  afterAll(() => t.close());

  const segment = fc.constantFrom('a', 'B', '_', 'Workspaces', '..', '.', '', '%', 'ü', '名', '\u0000', ' ', '\\', 'x'.repeat(300));
  const path = fc.oneof(
    fc.array(segment, { maxLength: 5 }).map((parts) => parts.join('/')),
    fc.constantFrom('_/Workspaces/1', '_/Workspaces/99999999999/a', '/', '//', '_/Workspaces/1/../..'),
    fc.string({ maxLength: 40 }),
  );
  const id = fc.oneof(
    fc.constantFrom(...[0, 1, 2, 3, -1, 2_147_483_647, 2_147_483_648, 99999999999, 1.5]),
    fc.constant(null),
    fc.string({ maxLength: 12 }),
    fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 4 }),
    fc.constant({ nested: 1 }),
  );
  const level = fc.oneof(fc.constantFrom('admin', 'full', 'readonly', 'list', 'nope', ''), fc.integer(), fc.constant(null));
  const body = fc.record(
    {
      path: fc.oneof(path, fc.integer(), fc.constant(null)),
      user_id: id,
      group_id: id,
      group_ids: fc.oneof(id, fc.constantFrom('1,2', ' 1 , 2 ', '1,,2', ',', '2147483648,1')),
      username: fc.oneof(fc.string({ maxLength: 10 }), fc.constant(null)),
      permission: level,
      recursive: fc.oneof(fc.boolean(), fc.constantFrom('true', 'no', 1, null)),
      workspace_id: id,
    },
    { requiredKeys: [] },
  );
  const context = fc.constantFrom(undefined, 0, 1);

  it('POST /permissions', async () => {
    await fc.assert(
      fc.asyncProperty(body, context, async (sent, workspace) => {
        const response = await t.api.post('/permissions', sent, { key: BOOTSTRAP_KEY, ...(workspace === undefined ? {} : { workspace: workspace === 1 ? ws : 0 }) });
        expect(response.status, JSON.stringify({ sent, body: response.body })).toBeLessThan(500);
        if (response.status >= 400) expect(response.body.type).toMatch(/^(bad-request|not-found|not-authorized|processing-failure)\//);
      }),
      { numRuns: 150 },
    );
  });

  it('GET /permissions and /permissions/explain', async () => {
    const query = fc.record(
      {
        path: fc.oneof(path, fc.string({ maxLength: 10 })),
        user_id: fc.oneof(id.map(String), fc.constant(String(known[0]))),
        group_id: id.map(String),
        include_groups: fc.constantFrom('true', 'false', 'yes', ''),
        type: fc.constantFrom('file', 'directory', 'link'),
        per_page: fc.constantFrom('1', '0', '10001', 'x'),
        cursor: fc.constantFrom('', 'abc', 'WyJwZXJtaXNzaW9ucyIsMV0'),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(query, fc.boolean(), fc.boolean(), async (params, explain, inWorkspace) => {
        const search = new URLSearchParams(params as Record<string, string>).toString();
        const url = `/permissions${explain ? '/explain' : ''}?${search}`;
        const response = await t.api.get(url, { key: BOOTSTRAP_KEY, workspace: inWorkspace ? ws : 0 });
        expect(response.status, `${url} ${JSON.stringify(response.body)}`).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
  });
});
