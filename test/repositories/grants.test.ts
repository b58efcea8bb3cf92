import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Grant, Grantee, Level } from '../../src/authz/index.js';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import {
  adminGrantsNaming, granteeGrantsAtOrBelow, granteesThatCanMatch, grantPage, grantsBelowThatCanMatch, grantsThatCanMatch,
  grantWorkspacesFor, insertGrant, toEngineGrant, type GrantRecord,
} from '../../src/repositories/grants/index.js';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createGroup, createUser, createWorkspace } from '../support/factories.js';

/**
 * Every query that asks which grants can name a user builds the same grantee condition
 * (repositories/grants/grantee-set.ts). Checked here against the plain rule, on a small site
 * with user, group and ALL-of grants on paths across Workspaces: the user's own grants, its
 * groups', and every ALL-of grant naming at least one of its groups.
 */
const FOLDERS = ['', 'top', 'top/sub', '_/workspaces/1', '_/workspaces/1/a', '_/workspaces/1/a/b', '_/workspaces/2', '_/workspaces/2/x'];
const LEVELS: Level[] = ['readonly', 'full', 'list', 'admin', 'writeonly'];

interface Site {
  /** Workspace 0 and two Custom Workspaces, by their place in the paths (`_/workspaces/1`, `_/workspaces/2`). */
  workspaces: number[];
  users: { id: number; groupIds: number[] }[];
  grants: GrantRecord[];
}

/** A fixed pseudo-random sequence (mulberry32), so every run builds the same site. */
function sequence(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * n);
  };
}

async function buildSite(database: Database): Promise<Site> {
  const db = database.db;
  const workspaces = [0, await createWorkspace(db), await createWorkspace(db)];
  const groupIds: number[] = [];
  for (let i = 0; i < 6; i += 1) groupIds.push(await createGroup(db, { workspaceId: workspaces[i % 3] }));
  const users: Site['users'] = [];
  // The last user holds no grant of its own: only through its groups.
  for (let i = 0; i < 6; i += 1) {
    const user = await createUser(db, { workspaceId: workspaces[i % 3] });
    const own = groupIds.filter((_, g) => (g + i) % 3 === 0);
    for (const groupId of own) await addMember(db, groupId, user.id);
    users.push({ id: user.id, groupIds: own });
  }
  const pick = sequence(7);
  const grants: GrantRecord[] = [];
  for (let i = 0; i < 160; i += 1) {
    const folder = FOLDERS[pick(FOLDERS.length)] as string;
    const kind = pick(3);
    const first = groupIds[pick(groupIds.length)] as number;
    const second = groupIds.filter((id) => id !== first)[pick(groupIds.length - 1)] as number;
    const grantee: Grantee = kind === 0 ? { kind: 'user', userId: (users[pick(users.length - 1)] as Site['users'][number]).id }
      : kind === 1 ? { kind: 'group', groupId: first }
      : { kind: 'groups', groupIds: [first, second].sort((a, b) => a - b) };
    const workspace = folder.startsWith('_/workspaces/') ? Number(folder.split('/')[2]) : 0;
    grants.push(await insertGrant(db, {
      workspaceId: workspaces[workspace] as number, path: folder, pathKey: folder, grantee, level: LEVELS[pick(LEVELS.length)] as Level, recursive: pick(2) === 0, now: 0,
    }));
  }
  return { workspaces, users, grants };
}

function canName(grant: GrantRecord, user: Site['users'][number]): boolean {
  const grantee = grant.grantee;
  if (grantee.kind === 'user') return grantee.userId === user.id;
  if (grantee.kind === 'group') return user.groupIds.includes(grantee.groupId);
  return grantee.kind === 'groups' && grantee.groupIds.some((id) => user.groupIds.includes(id));
}

const byId = <T extends { id: number }>(list: readonly T[]): T[] => [...list].sort((a, b) => a.id - b.id);
const below = (key: string, folder: string) => (folder === '' ? key !== '' : key.startsWith(`${folder}/`));

describe.each(testDatabaseTargets())('the grants repository [$name]', (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let site: Site;
  beforeAll(async () => {
    const opened = await target.open();
    database = opened.database;
    drop = opened.drop;
    await migrateToLatest(database);
    site = await buildSite(database);
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  const engineGrants = (records: readonly GrantRecord[]): Grant[] => byId(records).map(toEngineGrant);

  it('finds the grants on paths that can name a user, and no other', async () => {
    for (const user of site.users) {
      for (const keys of [['', 'top', 'top/sub'], ['_/workspaces/1', '_/workspaces/1/a/b'], FOLDERS]) {
        const expected = engineGrants(site.grants.filter((g) => keys.includes(g.pathKey) && canName(g, user)));
        expect(byId(await grantsThatCanMatch(database.db, { userId: user.id, groupIds: user.groupIds, partnerId: null }, keys))).toEqual(expected);
      }
    }
  });

  it('finds the grants below a folder that can name a user, and no other', async () => {
    for (const user of site.users) {
      for (const folder of ['', 'top', '_/workspaces/1', '_/workspaces/1/a/b']) {
        const expected = engineGrants(site.grants.filter((g) => below(g.pathKey, folder) && canName(g, user)));
        expect(byId(await grantsBelowThatCanMatch(database.db, { userId: user.id, groupIds: user.groupIds, partnerId: null }, folder))).toEqual(expected);
      }
    }
  });

  it("finds a user's admin grants, anywhere or in one Workspace", async () => {
    for (const user of site.users) {
      const candidates = await granteesThatCanMatch(database.db, { userId: user.id, groupIds: user.groupIds, partnerId: null });
      const admin = site.grants.filter((g) => g.level === 'admin' && canName(g, user));
      expect(byId(await adminGrantsNaming(database.db, candidates))).toEqual(byId(admin));
      const workspaceId = site.workspaces[1] as number;
      expect(byId(await adminGrantsNaming(database.db, candidates, { inWorkspace: workspaceId })))
        .toEqual(byId(admin.filter((g) => g.workspaceId === workspaceId)));
    }
  });

  it('pages the grants naming a user by id, the same rows whatever the page size', async () => {
    for (const user of site.users) {
      const grantees = await granteesThatCanMatch(database.db, { userId: user.id, groupIds: user.groupIds, partnerId: null });
      const expected = byId(site.grants.filter((g) => canName(g, user)));
      const seen: GrantRecord[] = [];
      let afterId = 0;
      for (;;) {
        const page = await grantPage(database.db, { workspaceId: null, visibility: 'all', grantees, page: { sort: { field: 'id', direction: 'asc' }, after: afterId === 0 ? undefined : { value: afterId, id: afterId }, limit: 7 } });
        seen.push(...page);
        if (page.length < 7) break;
        afterId = (page[page.length - 1] as GrantRecord).id;
      }
      expect(seen).toEqual(expected);
    }
  });

  it("finds one grantee's grants at or below a path: the grants a new grant for it may replace", async () => {
    for (const grant of site.grants.slice(0, 40)) {
      const grantee = grant.grantee;
      const first = grantee.kind === 'groups' ? grantee.groupIds[0] : undefined;
      const sameKind = (g: GrantRecord) => {
        const other = g.grantee;
        if (grantee.kind === 'user') return other.kind === 'user' && other.userId === grantee.userId;
        if (grantee.kind === 'group') return other.kind === 'group' && other.groupId === grantee.groupId;
        return other.kind === 'groups' && other.groupIds.includes(first as number);
      };
      for (const andBelow of [false, true]) {
        const onPath = (g: GrantRecord) => g.pathKey === grant.pathKey || (andBelow && below(g.pathKey, grant.pathKey));
        const expected = byId(site.grants.filter((g) => sameKind(g) && onPath(g)));
        expect(await granteeGrantsAtOrBelow(database.db, grantee, grant.pathKey, andBelow)).toEqual(expected);
      }
    }
  });

  it('finds the Workspaces where a user may hold a grant', async () => {
    for (const user of site.users) {
      const workspaces = await grantWorkspacesFor(database.db, await granteesThatCanMatch(database.db, { userId: user.id, groupIds: user.groupIds, partnerId: null }));
      const naming = site.grants.filter((g) => canName(g, user));
      expect([...workspaces].sort()).toEqual([...new Set(naming.map((g) => g.workspaceId))].sort());
    }
  });
});
