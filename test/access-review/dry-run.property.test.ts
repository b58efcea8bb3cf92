import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability, Grant, Grantee, Level } from '../../src/authz/types.js';
import { referenceDecide } from '../authz/reference-model.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * On random sites and random changes, a dry run's difference is the difference the real change
 * makes, as the separately written reference model (test/authz/reference-model.ts) decides it
 * before and after the change is really applied: every pair the dry run reports is right, and no
 * affected user, nor any path where it holds a grant, is missing.
 */
const RUNS = Number(process.env.ACCESS_REVIEW_PROPERTY_RUNS ?? 25);
const PATHS = ['', 'a', 'a/b', 'c', 'a/b/d'];
const GRANT_PATHS = ['', 'a', 'a/b', 'c'];
const LEVELS: Level[] = ['admin', 'full', 'readonly', 'writeonly', 'list', 'history', 'bundle'];
const USERS = 4;
const GROUPS = 3;

type GranteeChoice = { user: number } | { group: number } | { allOf: [number, number] };
interface GrantChoice { path: string; level: Level; recursive: boolean; grantee: GranteeChoice }
type Change =
  | { kind: 'create'; grant: GrantChoice }
  | { kind: 'delete'; index: number }
  | { kind: 'add'; group: number; user: number }
  | { kind: 'remove'; group: number; user: number };

const granteeArb: fc.Arbitrary<GranteeChoice> = fc.oneof(
  fc.integer({ min: 0, max: USERS - 1 }).map((user) => ({ user })),
  fc.integer({ min: 0, max: GROUPS - 1 }).map((group) => ({ group })),
  fc.tuple(fc.integer({ min: 0, max: GROUPS - 1 }), fc.integer({ min: 0, max: GROUPS - 1 })).filter(([a, b]) => a !== b).map((allOf) => ({ allOf })),
);
const grantArb: fc.Arbitrary<GrantChoice> = fc.record({
  path: fc.constantFrom(...GRANT_PATHS),
  level: fc.constantFrom(...LEVELS),
  recursive: fc.boolean(),
  grantee: granteeArb,
});
const siteArb = fc.record({
  memberships: fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: GROUPS - 1 }), fc.integer({ min: 0, max: USERS - 1 })), { maxLength: 8, selector: ([g, u]) => `${g}:${u}` }),
  grants: fc.array(grantArb, { maxLength: 6 }),
});
const changeArb: fc.Arbitrary<Change> = fc.oneof(
  grantArb.map((grant) => ({ kind: 'create' as const, grant })),
  fc.nat(20).map((index) => ({ kind: 'delete' as const, index })),
  fc.tuple(fc.integer({ min: 0, max: GROUPS - 1 }), fc.integer({ min: 0, max: USERS - 1 })).map(([group, user]) => ({ kind: 'add' as const, group, user })),
  fc.tuple(fc.integer({ min: 0, max: GROUPS - 1 }), fc.integer({ min: 0, max: USERS - 1 })).map(([group, user]) => ({ kind: 'remove' as const, group, user })),
);

describe.each(testDatabaseTargets())('dry run agrees with the reference model [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  it('reports exactly what the real change does', async () => {
    await fc.assert(fc.asyncProperty(siteArb, changeArb, async (site, change) => {
      const db = t.database.db;
      const ws = await createWorkspace(db);
      const root = `_/workspaces/${ws}`;
      const siteKey = (relative: string) => (relative === '' ? root : `${root}/${relative}`);
      const users = await Promise.all(Array.from({ length: USERS }, () => createUser(db, { workspaceId: ws })));
      const groups: number[] = [];
      for (let g = 0; g < GROUPS; g += 1) {
        const row = await db.insertInto('groups').values({ workspace_id: ws, name: `g${g}`, name_key: `g${g}`, created_at: 0 }).returning('id').executeTakeFirstOrThrow();
        groups.push(row.id);
      }
      const userId = (index: number) => (users[index] as { id: number }).id;
      const groupId = (index: number) => groups[index] as number;
      for (const [g, u] of site.memberships) await db.insertInto('group_users').values({ group_id: groupId(g), user_id: userId(u), admin: false, created_at: 0 }).execute();
      const grantIds: number[] = [];
      for (const grant of site.grants) {
        const row = await db.insertInto('permissions').values({
          workspace_id: ws, path: siteKey(grant.path), path_key: siteKey(grant.path),
          user_id: 'user' in grant.grantee ? userId(grant.grantee.user) : null,
          group_id: 'group' in grant.grantee ? groupId(grant.grantee.group) : null,
          permission: grant.level, recursive: grant.recursive, created_at: 0,
        }).returning('id').executeTakeFirstOrThrow();
        if ('allOf' in grant.grantee) {
          for (const g of grant.grantee.allOf) await db.insertInto('permission_groups').values({ permission_id: row.id, group_id: groupId(g) }).execute();
        }
        grantIds.push(row.id);
      }

      /** The reference model's access of every user on every path, from the data now. */
      const model = async () => {
        const grantRows = await db.selectFrom('permissions').selectAll().where('workspace_id', '=', ws).execute();
        const sets = await db.selectFrom('permission_groups').selectAll().where('permission_id', 'in', [0, ...grantRows.map((g) => g.id)]).execute();
        const grants: Grant[] = grantRows.map((row) => ({
          id: row.id, pathKey: row.path_key, level: row.permission as Level, recursive: Boolean(row.recursive),
          grantee: (row.user_id !== null ? { kind: 'user', userId: row.user_id }
            : row.group_id !== null ? { kind: 'group', groupId: row.group_id }
              : { kind: 'groups', groupIds: sets.filter((s) => s.permission_id === row.id).map((s) => s.group_id) }) as Grantee,
        }));
        const members = await db.selectFrom('group_users').select(['group_id', 'user_id']).where('group_id', 'in', groups).execute();
        const access = new Map<string, { capabilities: Capability[]; workspaceAdmin: boolean; folderAdmin: boolean }>();
        for (const user of users) {
          const subject = { userId: user.id, workspaceId: ws, siteAdmin: false, workspaceAdmin: false, groupIds: new Set(members.filter((m) => m.user_id === user.id).map((m) => m.group_id)), partnerId: null };
          for (const path of PATHS) {
            const decision = referenceDecide(subject, { pathKey: siteKey(path), type: 'directory' }, grants);
            access.set(`${user.id}|${path}`, { capabilities: decision.capabilities, workspaceAdmin: decision.workspaceAdmin, folderAdmin: decision.folderAdmin });
          }
        }
        return { access, grants, members };
      };

      const as = { key: BOOTSTRAP_KEY, workspace: ws };
      const request = await requestFor(change);
      if (request === undefined) return;
      const before = await model();
      const dry = await request(true);
      const real = await request(false);
      // A refused change is refused alike, dry or not, and changes nothing.
      if (dry.status !== 200) {
        expect(dry.status).toBe(real.status);
        return;
      }
      expect(real.status).toBeLessThan(300);
      const after = await model();

      const reported = new Map<string, any>(dry.body.access_difference.map((c: any) => [`${c.user_id}|${c.path}`, c]));
      for (const [pair, change] of reported) {
        const was = before.access.get(pair);
        const is = after.access.get(pair);
        expect(change.capabilities_before, pair).toEqual(was?.capabilities);
        expect(change.capabilities_after, pair).toEqual(is?.capabilities);
        expect(change.roles_gained.includes('workspace_admin')).toBe(!was?.workspaceAdmin && Boolean(is?.workspaceAdmin));
        expect(change.roles_lost.includes('folder_admin')).toBe(Boolean(was?.folderAdmin) && !is?.folderAdmin);
      }
      // Nothing missing on the paths the change is about: a grant's path, or the paths of the group's grants.
      const changedPaths = change.kind === 'create' ? [change.grant.path]
        : change.kind === 'delete' ? [grantPathOf(change.index)]
          : [before, after].flatMap((state) => state.grants.filter((grant) => names(grant, -1, [])).map((grant) => grant.pathKey === root ? '' : grant.pathKey.slice(root.length + 1)));
      for (const [pair, was] of before.access) {
        const is = after.access.get(pair);
        if (JSON.stringify(was) === JSON.stringify(is)) continue;
        const path = pair.split('|')[1] as string;
        if (changedPaths.includes(path)) expect(reported.has(pair), `missing ${pair}`).toBe(true);
      }

      function grantPathOf(index: number) {
        return site.grants[index % Math.max(1, site.grants.length)]?.path;
      }
      function names(grant: Grant, user: number, members: { group_id: number; user_id: number }[]): boolean {
        const groupsOf = members.filter((m) => m.user_id === user).map((m) => m.group_id);
        const inGroupChanged = change.kind === 'add' || change.kind === 'remove' ? [groupId(change.group)] : [];
        const all = [...groupsOf, ...inGroupChanged];
        if (grant.grantee.kind === 'user') return grant.grantee.userId === user;
        if (grant.grantee.kind === 'group') return all.includes(grant.grantee.groupId);
        return grant.grantee.kind === 'groups' && grant.grantee.groupIds.some((g) => all.includes(g));
      }
      async function requestFor(c: Change) {
        switch (c.kind) {
          case 'create': {
            const g = c.grant.grantee;
            const body = {
              path: c.grant.path, permission: c.grant.level, recursive: c.grant.recursive,
              ...('user' in g ? { user_id: userId(g.user) } : 'group' in g ? { group_id: groupId(g.group) } : { group_ids: g.allOf.map(groupId) }),
            };
            return (dryRun: boolean) => t.api.post('/permissions', { ...body, ...(dryRun ? { dry_run: true } : {}) }, as);
          }
          case 'delete': {
            if (grantIds.length === 0) return undefined;
            const id = grantIds[c.index % grantIds.length];
            return (dryRun: boolean) => t.api.delete(`/permissions/${id}${dryRun ? '?dry_run=true' : ''}`, as);
          }
          case 'add':
            return (dryRun: boolean) => t.api.post('/group_users', { group_id: groupId(c.group), user_id: userId(c.user), ...(dryRun ? { dry_run: true } : {}) }, as);
          case 'remove': {
            const found = await db.selectFrom('group_users').select('id').where('group_id', '=', groupId(c.group)).where('user_id', '=', userId(c.user)).executeTakeFirst();
            if (found === undefined) return undefined;
            return (dryRun: boolean) => t.api.delete(`/group_users/${found.id}${dryRun ? '?dry_run=true' : ''}`, as);
          }
        }
      }
    }), { numRuns: RUNS });
  }, 120_000);
});
