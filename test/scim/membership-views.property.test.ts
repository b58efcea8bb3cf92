import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createGroup, createUser, unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { PATCH_OP, ScimClient } from './scim-client.js';

const USERS = 4;
const GROUPS = 2;

type Change =
  | { door: 'scim-add' | 'scim-remove' | 'rest-add' | 'rest-remove'; group: number; user: number }
  | { door: 'scim-replace'; group: number; users: number[] };

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ door: fc.constantFrom('scim-add' as const, 'scim-remove' as const, 'rest-add' as const, 'rest-remove' as const), group: fc.nat(GROUPS - 1), user: fc.nat(USERS - 1) }),
  fc.record({ door: fc.constant('scim-replace' as const), group: fc.nat(GROUPS - 1), users: fc.uniqueArray(fc.nat(USERS - 1), { maxLength: USERS }) }),
);

describe.each(testDatabaseTargets())('SCIM and REST membership views [$name]', (target) => {
  let t: TestApp;
  let scim: ScimClient;
  beforeAll(async () => {
    t = await startTestApp(target);
    scim = new ScimClient(t.baseUrl, BOOTSTRAP_KEY);
  });
  afterAll(() => t.close());

  it('stay identical, and equal to the changes made, whatever mix of SCIM and REST changes is applied', async () => {
    await fc.assert(fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 8 }), async (changes) => {
      const workspaceId = (await t.api.post('/workspaces', { name: unique('prop') }, { key: BOOTSTRAP_KEY })).body.id as number;
      const users = await Promise.all(Array.from({ length: USERS }, () => createUser(t.database.db, { workspaceId })));
      const groups = await Promise.all(Array.from({ length: GROUPS }, () => createGroup(t.database.db, { workspaceId })));
      const model = groups.map(() => new Set<number>());
      const as = { key: BOOTSTRAP_KEY, workspace: workspaceId };

      for (const c of changes) {
        const group = groups[c.group] as number;
        const members = model[c.group] as Set<number>;
        if (c.door === 'scim-replace') {
          const ids = c.users.map((i) => (users[i] as { id: number }).id);
          const response = await scim.patch(`/Groups/${group}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'members', value: ids.map((id) => ({ value: String(id) })) }] });
          expect(response.status).toBe(200);
          members.clear();
          for (const id of ids) members.add(id);
          continue;
        }
        const userId = (users[c.user] as { id: number }).id;
        if (c.door === 'scim-add') {
          expect((await scim.patch(`/Groups/${group}`, { schemas: [PATCH_OP], Operations: [{ op: 'Add', path: 'members', value: [{ value: String(userId) }] }] })).status).toBe(200);
          members.add(userId);
        } else if (c.door === 'scim-remove') {
          expect((await scim.patch(`/Groups/${group}`, { schemas: [PATCH_OP], Operations: [{ op: 'Remove', path: `members[value eq "${userId}"]` }] })).status).toBe(200);
          members.delete(userId);
        } else if (c.door === 'rest-add') {
          const response = await t.api.post('/group_users', { group_id: group, user_id: userId }, as);
          expect(response.status).toBe(members.has(userId) ? 422 : 201);
          members.add(userId);
        } else {
          const found = await t.api.get(`/group_users?group_id=${group}&user_id=${userId}`, as);
          const row = (found.body as { id: number }[])[0];
          expect(row !== undefined).toBe(members.has(userId));
          if (row !== undefined) expect((await t.api.delete(`/group_users/${row.id}`, as)).status).toBe(204);
          members.delete(userId);
        }
      }

      for (const [index, group] of groups.entries()) {
        const expected = [...(model[index] as Set<number>)].map(String).sort();
        const viaScim = (await scim.get(`/Groups/${group}`)).body.members.map((m: { value: string }) => m.value).sort();
        const viaRest = (await t.api.get(`/groups/${group}`, as)).body.user_ids as string;
        expect(viaScim).toEqual(expected);
        expect(viaRest === '' ? [] : viaRest.split(',').sort()).toEqual(expected);
      }
      for (const user of users) {
        const expected = groups.filter((_, i) => (model[i] as Set<number>).has(user.id)).map(String).sort();
        const viaScim = (await scim.get(`/Users/${user.id}`)).body.groups.map((g: { value: string }) => g.value).sort();
        const viaRest = (await t.api.get(`/users/${user.id}`, as)).body.group_ids as string;
        expect(viaScim).toEqual(expected);
        expect(viaRest === '' ? [] : viaRest.split(',').sort()).toEqual(expected);
      }
    }), { numRuns: 20 });
  }, 120_000);
});
