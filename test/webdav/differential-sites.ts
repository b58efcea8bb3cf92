import fc from 'fast-check';
import { expect } from 'vitest';
import type { Level } from '../../src/authz/types.js';
import { insertPartner } from '../../src/repositories/partners.js';
import { insertUser } from '../../src/repositories/users.js';
import { createApiKey, createUser, createWorkspace, unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, type TestApp } from '../support/test-app.js';
import type { Operation } from './differential-doors.js';

/**
 * The random sites and operations of the differential tests (WebDAV and SFTP against REST): users of
 * a Custom Workspace, groups, grants to users, groups and ALL-of sets of groups at random levels,
 * recursive or not, sometimes a Workspace Administrator, over one small starting tree; and a
 * Partner rooted at `p`, which holds a copy of that tree, with one Partner user (the last user)
 * and random Partner grants, so that the doors must agree on a Partner user's root too.
 */
export const USERS = 3;
/** The index of the Partner user among the site's users (after the USERS users of the Workspace). */
export const PARTNER_USER = USERS;
/** The Partner's root folder, relative to the Workspace root. */
export const PARTNER_ROOT = 'p';
const PARTNER_LEVELS: Level[] = ['full', 'readonly', 'writeonly', 'list'];
const GROUPS = 3;
const LEVELS: Level[] = ['admin', 'full', 'readonly', 'writeonly', 'list', 'history', 'bundle'];
const GRANT_PATHS = ['', 'a', 'a/b', 'c', 'e'];

/** The tree every copy starts with (folders, then files with their text). */
const FOLDERS = ['a', 'a/b', 'a/b/d', 'c', 'e'];
const FILES: Record<string, string> = { 'r.txt': 'root file', 'a/f.txt': 'in a', 'a/b/g.txt': 'in a/b', 'c/h.txt': 'in c' };

// Paths the operations pick from: existing and missing, files and folders, and other spellings of the same.
const FOLDERISH = ['', 'a', 'a/b', 'a/b/d', 'c', 'e', 'n', 'A/B'];
export const FILEISH = ['r.txt', 'a/f.txt', 'a/b/g.txt', 'c/h.txt', 'n.txt', 'a/n.txt', 'A/F.TXT'];
export const SOURCES = [...FOLDERISH.filter((p) => p !== ''), ...FILEISH];
const NEW_FILES = ['r.txt', 'a/f.txt', 'new.txt', 'a/new.txt', 'e/new.txt', 'a/b/d/new.txt', 'n/new.txt', 'a', 'c/h.txt/x'];
const NEW_FOLDERS = ['a', 'new', 'e/sub', 'a/b/new', 'n/sub', 'c/h.txt', 'A'];
const DESTINATIONS = ['new', 'a/new', 'e/moved', 'a/b/d/deep', 'c/h.txt', 'r.txt', 'a/b', 'a/b/g.txt', 'n/x'];

type GranteeChoice = { user: number } | { group: number } | { allOf: [number, number] };
interface GrantChoice { path: string; level: Level; recursive: boolean; grantee: GranteeChoice }
interface PartnerGrantChoice { path: string; level: Level; recursive: boolean }
export interface SiteChoice { memberships: [number, number][]; grants: GrantChoice[]; workspaceAdmin: number | null; partnerGrants: PartnerGrantChoice[] }
/** An operation and the index of the user who performs it. */
export type Step = Operation & { user: number };

const granteeArb: fc.Arbitrary<GranteeChoice> = fc.oneof(
  fc.integer({ min: 0, max: USERS - 1 }).map((user) => ({ user })),
  fc.integer({ min: 0, max: GROUPS - 1 }).map((group) => ({ group })),
  fc.tuple(fc.integer({ min: 0, max: GROUPS - 1 }), fc.integer({ min: 0, max: GROUPS - 1 })).filter(([a, b]) => a !== b).map((allOf) => ({ allOf })),
);

export const siteArb: fc.Arbitrary<SiteChoice> = fc.record({
  memberships: fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: GROUPS - 1 }), fc.integer({ min: 0, max: USERS - 1 })), { maxLength: 6, selector: ([g, u]) => `${g}:${u}` }),
  // Mostly recursive, as grants usually are, so that more operations get through to compare.
  grants: fc.array(fc.record({ path: fc.constantFrom(...GRANT_PATHS), level: fc.constantFrom(...LEVELS), recursive: fc.constantFrom(true, true, false), grantee: granteeArb }), { minLength: 1, maxLength: 6 }),
  // Now and then one user is its Workspace's administrator, who may do anything there.
  workspaceAdmin: fc.option(fc.integer({ min: 0, max: USERS - 1 }), { freq: 5 }),
  // Paths inside the Partner's root, as the Partner user names them.
  partnerGrants: fc.array(fc.record({ path: fc.constantFrom(...GRANT_PATHS), level: fc.constantFrom(...PARTNER_LEVELS), recursive: fc.constantFrom(true, true, false) }), { maxLength: 3 }),
});

/** A path a step names, as the Workspace's root names it: a Partner user's lie in the Partner's root. */
export function workspacePathOf(user: number, path: string): string {
  if (user !== PARTNER_USER) return path;
  return path === '' ? PARTNER_ROOT : `${PARTNER_ROOT}/${path}`;
}

/** Random operations; a door that cannot copy, or deletes only some paths, says so. */
export function stepArb(door: { copies: boolean; deletes: readonly string[] }): fc.Arbitrary<Step> {
  const user = fc.integer({ min: 0, max: PARTNER_USER });
  const relocations = door.copies ? fc.constantFrom('move' as const, 'copy' as const) : fc.constant('move' as const);
  return fc.oneof(
    fc.record({ kind: fc.constant('list' as const), path: fc.constantFrom(...FOLDERISH), user }),
    fc.record({ kind: fc.constant('read' as const), path: fc.constantFrom(...FILEISH), user }),
    fc.record({ kind: fc.constant('write' as const), path: fc.constantFrom(...NEW_FILES), content: fc.string({ maxLength: 20 }), user }),
    fc.record({ kind: fc.constant('mkdir' as const), path: fc.constantFrom(...NEW_FOLDERS), user }),
    fc.record({ kind: fc.constant('delete' as const), path: fc.constantFrom(...door.deletes), user }),
    fc.record({ kind: relocations, from: fc.constantFrom(...SOURCES), to: fc.constantFrom(...DESTINATIONS), user }),
  );
}

/**
 * A fresh Custom Workspace built from the choice: users with keys (the Partner user last), groups,
 * memberships, grants, the Partner with its grants, the starting tree at the root and in the
 * Partner's root.
 */
export async function buildSite(t: TestApp, site: SiteChoice): Promise<{ ws: number; keys: string[]; usernames: string[] }> {
  const db = t.database.db;
  const ws = await createWorkspace(db);
  const users: { id: number; username: string }[] = [];
  for (let u = 0; u < USERS; u += 1) users.push(await createUser(db, { workspaceId: ws, workspaceAdmin: site.workspaceAdmin === u }));
  const partner = await insertPartner(db, { workspaceId: ws, name: unique('partner'), rootFolder: PARTNER_ROOT, now: 0, settings: {} });
  users.push(await insertUser(db, { workspaceId: ws, username: unique('partner-user'), passwordHash: null, siteAdmin: false, workspaceAdmin: false, partnerId: partner.id, now: 0 }));
  const keys = await Promise.all(users.map((u) => createApiKey(db, { userId: u.id, workspaceId: ws })));
  const groups: number[] = [];
  for (let g = 0; g < GROUPS; g += 1) {
    const row = await db.insertInto('groups').values({ workspace_id: ws, name: `g${g}`, name_key: `g${g}`, created_at: 0 }).returning('id').executeTakeFirstOrThrow();
    groups.push(row.id);
  }
  const userId = (index: number) => (users[index] as { id: number }).id;
  const groupId = (index: number) => groups[index] as number;
  for (const [g, u] of site.memberships) await db.insertInto('group_users').values({ group_id: groupId(g), user_id: userId(u), admin: false, created_at: 0 }).execute();
  for (const grant of site.grants) {
    const path = grant.path === '' ? `_/Workspaces/${ws}` : `_/Workspaces/${ws}/${grant.path}`;
    const row = await db.insertInto('permissions').values({
      workspace_id: ws, path, path_key: path.toLowerCase(),
      user_id: 'user' in grant.grantee ? userId(grant.grantee.user) : null,
      group_id: 'group' in grant.grantee ? groupId(grant.grantee.group) : null,
      permission: grant.level, recursive: grant.recursive, created_at: 0,
    }).returning('id').executeTakeFirstOrThrow();
    if ('allOf' in grant.grantee) {
      for (const g of grant.grantee.allOf) await db.insertInto('permission_groups').values({ permission_id: row.id, group_id: groupId(g) }).execute();
    }
  }
  for (const grant of site.partnerGrants) {
    const path = `_/Workspaces/${ws}/${workspacePathOf(PARTNER_USER, grant.path)}`;
    await db.insertInto('permissions').values({
      workspace_id: ws, path, path_key: path.toLowerCase(), user_id: null, group_id: null, partner_id: partner.id, permission: grant.level, recursive: grant.recursive, created_at: 0,
    }).execute();
  }
  const as = { key: BOOTSTRAP_KEY };
  for (const base of ['', `${PARTNER_ROOT}/`]) {
    if (base !== '') expect((await t.api.post(`/folders/_/Workspaces/${ws}/${PARTNER_ROOT}`, {}, as)).status).toBe(201);
    for (const folder of FOLDERS) expect((await t.api.post(`/folders/_/Workspaces/${ws}/${base}${folder}`, {}, as)).status).toBe(201);
    for (const [file, text] of Object.entries(FILES)) {
      expect((await t.api.call('PUT', `/files/_/Workspaces/${ws}/${base}${file}`, { ...as, rawBody: text, headers: { 'content-type': 'application/octet-stream' } })).status).toBe(201);
    }
  }
  return { ws, keys, usernames: users.map((u) => u.username) };
}
