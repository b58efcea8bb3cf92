import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability, EntryType, Grant, Grantee, Level, Subject } from '../../src/authz/types.js';
import { referenceDecide } from '../authz/reference-model.js';
import { testDatabaseTargets } from '../support/databases.js';
import { runsOn } from '../support/property-runs.js';
import { createApiKey, createUser, createWorkspace } from '../support/factories.js';
import type { User } from '../../src/repositories/users.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * On random small sites (users with and without flags, some disabled, a Workspace 0 user in the
 * Workspace's groups, groups, direct, group and ALL-of grants on nested paths, recursive or not),
 * GET /permissions/reach, followed page by page, agrees with deciding each user one by one:
 * - for the Site Administrator, with the separately written reference model (test/authz/);
 * - for a random user of the Workspace (a regular user, a Folder Admin, a Workspace Administrator
 *   by flag or by grant), with GET /permissions/explain asked about each user in turn: reach lists
 *   exactly the users explain answers for and finds able to do something, with the same
 *   capabilities and roles.
 */
const PATHS = ['', 'a', 'a/b', 'a/b/d', 'c', 'c/e'];
const GRANT_PATHS = ['', 'a', 'a/b', 'c'];
const LEVELS: Level[] = ['admin', 'full', 'readonly', 'writeonly', 'list', 'history', 'bundle'];
/** "The highest level when several grants apply", as docs/permissions.md states it. */
const RANK: Level[] = ['admin', 'full', 'bundle', 'readonly', 'history', 'writeonly', 'list'];
const USERS = 5;
const GROUPS = 3;

type GranteeChoice = { user: number } | { group: number } | { allOf: number[] };
interface GrantChoice { path: string; level: Level; recursive: boolean; grantee: GranteeChoice }

const oneIn = (n: number) => fc.integer({ min: 1, max: n }).map((x) => x === 1);
const granteeArb: fc.Arbitrary<GranteeChoice> = fc.oneof(
  fc.integer({ min: 0, max: USERS - 1 }).map((user) => ({ user })),
  fc.integer({ min: 0, max: GROUPS - 1 }).map((group) => ({ group })),
  fc.uniqueArray(fc.integer({ min: 0, max: GROUPS - 1 }), { minLength: 2, maxLength: 3 }).map((allOf) => ({ allOf })),
);
const siteArb = fc.record({
  flags: fc.array(fc.record({ workspaceAdmin: oneIn(4), disabled: oneIn(5) }), { minLength: USERS, maxLength: USERS }),
  // User index USERS is the Workspace 0 user, who may be a member of the Workspace's groups.
  memberships: fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: GROUPS - 1 }), fc.integer({ min: 0, max: USERS })), { maxLength: 10, selector: ([g, u]) => `${g}:${u}` }),
  grants: fc.array(fc.record({
    path: fc.constantFrom(...GRANT_PATHS),
    level: fc.constantFrom(...LEVELS),
    recursive: fc.boolean(),
    grantee: granteeArb,
  }), { maxLength: 8 }) as fc.Arbitrary<GrantChoice[]>,
  viewer: fc.integer({ min: 0, max: USERS - 1 }),
  perPage: fc.integer({ min: 1, max: 4 }),
  type: fc.constantFrom<EntryType>('file', 'directory'),
});

interface Row { user_id: number; permission: string; capabilities: Capability[]; role: string | null; roles: string[]; because: { permission_id: number | null; source: string }[] }

describe.each(testDatabaseTargets())('reach agrees with deciding each user one by one [$name]', (target) => {
  const RUNS = runsOn(target, 'REACH_PROPERTY_RUNS', 25);
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  /** Every row of a reach, following the cursor. */
  async function reachAll(query: string, key: string, ws: number, perPage: number): Promise<Row[]> {
    const rows: Row[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages += 1) {
      const response: { status: number; text: string; body: Row[]; headers: Headers } = await t.api.get(`/permissions/reach?${query}&per_page=${perPage}${cursor === null ? '' : `&cursor=${cursor}`}`, { key, workspace: ws });
      expect(response.status, response.text).toBe(200);
      rows.push(...response.body);
      cursor = response.headers.get('x-service-cursor');
      if (cursor === null) return rows;
      expect(response.body).toHaveLength(perPage);
    }
    throw new Error('too many pages');
  }

  const roleOf = (d: { siteAdmin: boolean; workspaceAdmin: boolean; folderAdmin: boolean }) =>
    (d.siteAdmin ? 'site_admin' : d.workspaceAdmin ? 'workspace_admin' : d.folderAdmin ? 'folder_admin' : null);

  it('lists exactly the users who can do something there, with the engine\'s answer for each', async () => {
    await fc.assert(fc.asyncProperty(siteArb, async (site) => {
      const db = t.database.db;
      const ws = await createWorkspace(db);
      const root = `_/workspaces/${ws}`;
      const siteKey = (relative: string) => (relative === '' ? root : `${root}/${relative}`);
      const users: User[] = [];
      for (const flags of site.flags) {
        const user = await createUser(db, { workspaceId: ws, workspaceAdmin: flags.workspaceAdmin });
        if (flags.disabled) await db.updateTable('users').set({ disabled: true }).where('id', '=', user.id).execute();
        users.push({ ...user, disabled: flags.disabled });
      }
      users.push(await createUser(db, { workspaceId: 0 }));
      const groups: number[] = [];
      for (let g = 0; g < GROUPS; g += 1) {
        const row = await db.insertInto('groups').values({ workspace_id: ws, name: `g${g}`, name_key: `g${g}`, created_at: 0 }).returning('id').executeTakeFirstOrThrow();
        groups.push(row.id);
      }
      const userAt = (index: number) => users[index] as (typeof users)[number];
      const groupId = (index: number) => groups[index] as number;
      for (const [g, u] of site.memberships) await db.insertInto('group_users').values({ group_id: groupId(g), user_id: userAt(u).id, admin: false, created_at: 0 }).execute();
      const grants: Grant[] = [];
      for (const grant of site.grants) {
        const row = await db.insertInto('permissions').values({
          workspace_id: ws, path: siteKey(grant.path), path_key: siteKey(grant.path),
          user_id: 'user' in grant.grantee ? userAt(grant.grantee.user).id : null,
          group_id: 'group' in grant.grantee ? groupId(grant.grantee.group) : null,
          permission: grant.level, recursive: grant.recursive, created_at: 0,
        }).returning('id').executeTakeFirstOrThrow();
        let grantee: Grantee;
        if ('allOf' in grant.grantee) {
          for (const g of grant.grantee.allOf) await db.insertInto('permission_groups').values({ permission_id: row.id, group_id: groupId(g) }).execute();
          grantee = { kind: 'groups', groupIds: grant.grantee.allOf.map(groupId) };
        } else grantee = 'user' in grant.grantee ? { kind: 'user', userId: userAt(grant.grantee.user).id } : { kind: 'group', groupId: groupId(grant.grantee.group) };
        grants.push({ id: row.id, pathKey: siteKey(grant.path), level: grant.level, recursive: grant.recursive, grantee });
      }
      const siteAdmins = await db.selectFrom('users').selectAll().where('site_admin', '=', true).where('disabled', '=', false).execute();
      const subjects: Subject[] = [
        ...users.filter((u) => !u.disabled).map((u) => ({
          userId: u.id, workspaceId: u.workspaceId, siteAdmin: false, workspaceAdmin: u.workspaceAdmin,
          groupIds: new Set(site.memberships.filter(([, m]) => userAt(m).id === u.id).map(([g]) => groupId(g))), partnerId: null,
        })),
        ...siteAdmins.map((u) => ({ userId: u.id, workspaceId: 0, siteAdmin: true, workspaceAdmin: false, groupIds: new Set<number>(), partnerId: null })),
      ];
      const viewer = userAt(site.viewer);
      const viewerKey = viewer.disabled ? undefined : await createApiKey(db, { userId: viewer.id, workspaceId: ws });

      for (const path of PATHS) {
        const query = `path=${encodeURIComponent(path)}&type=${site.type}`;
        // The Site Administrator's view, against the reference model.
        const expected = subjects.flatMap((subject) => {
          const d = referenceDecide(subject, { pathKey: siteKey(path), type: site.type }, grants);
          if (d.capabilities.length === 0) return [];
          const levels = grants.filter((g) => d.appliedGrantIds.includes(g.id)).map((g) => RANK.indexOf(g.level));
          return [{
            user_id: subject.userId,
            permission: d.capabilities.includes('manage') ? 'admin' : RANK[Math.min(...levels)],
            capabilities: d.capabilities,
            role: roleOf(d),
            grantIds: d.appliedGrantIds,
          }];
        }).sort((a, b) => a.user_id - b.user_id);
        const asSite = await reachAll(query, BOOTSTRAP_KEY, ws, site.perPage);
        expect(asSite.map((row) => ({
          user_id: row.user_id, permission: row.permission, capabilities: row.capabilities, role: row.role,
          grantIds: row.because.flatMap((c) => (c.permission_id === null ? [] : [c.permission_id])),
        })), `${path} as Site Administrator`).toEqual(expected);

        // A Workspace user's view, against explain asked about each user in turn.
        if (viewerKey === undefined) continue;
        const byExplain = [];
        for (const user of [...users, ...siteAdmins.map((u) => ({ id: u.id, disabled: false }))].sort((a, b) => a.id - b.id)) {
          const explained = await t.api.get(`/permissions/explain?${query}&user_id=${user.id}`, { key: viewerKey, workspace: ws });
          if (explained.status === 404) continue;
          expect(explained.status, explained.text).toBe(200);
          const body = explained.body as {
            capabilities: Capability[]; site_admin: boolean; workspace_admin: boolean; folder_admin: boolean; reasons: { permission_id: number | null; source: string }[];
          };
          if (user.disabled || body.capabilities.length === 0) continue;
          byExplain.push({
            user_id: user.id,
            capabilities: body.capabilities,
            role: roleOf({ siteAdmin: body.site_admin, workspaceAdmin: body.workspace_admin, folderAdmin: body.folder_admin }),
            // The grants explain names to this caller (hidden ones withheld alike).
            shownGrantIds: [...new Set(body.reasons.flatMap((r) => (r.permission_id === null ? [] : [r.permission_id])))].sort((a, b) => a - b),
            hidden: body.reasons.some((r) => r.source === 'hidden_grant'),
          });
        }
        const asViewer = await reachAll(query, viewerKey, ws, site.perPage);
        expect(asViewer.map((row) => ({
          user_id: row.user_id, capabilities: row.capabilities, role: row.role,
          shownGrantIds: row.because.flatMap((c) => (c.permission_id === null ? [] : [c.permission_id])).sort((a, b) => a - b),
          hidden: row.because.some((c) => c.source === 'hidden_grant'),
        })), `${path} as user ${viewer.id}`).toEqual(byExplain);
      }
    }), { numRuns: RUNS });
  }, 240_000);
});
