import { decide, decideChildren, parentKey, type AdminRole, type Capability, type Grant, type Subject } from '../authz/index.js';
import { selfAndAncestorKeys } from '../access/index.js';
import type { Db } from '../db/database.js';
import { grantsOnPathsNaming, groupIdsOfUsers, usersByIds } from '../repositories/access-review.js';
import { findEntries } from '../repositories/entries.js';
import { toEngineGrant } from '../repositories/grants/index.js';

/** What one user may do on one path: its capabilities and the administrator roles it holds there. */
export interface UserAccess {
  capabilities: readonly Capability[];
  roles: readonly AdminRole[];
}

/** Paths and users an access review looks at. */
export interface ReviewScope {
  /** Every path looked at, by key, with the spelling to show. */
  paths: readonly { key: string; path: string }[];
  userIds: readonly number[];
}

/** Access by user id, then by path key. A user who may do nothing on a path has no entry there. */
export type AccessSnapshot = Map<number, Map<string, UserAccess>>;

/** The usernames of a scope's users (those that exist), for showing a difference. */
export async function usernamesIn(db: Db, scope: ReviewScope): Promise<Map<number, string>> {
  return new Map((await usersByIds(db, scope.userIds)).map((user) => [user.id, user.username]));
}

/**
 * Every scoped user's access on every scoped path, decided by the engine from the current data of
 * `db` (which may be a transaction that has made a change not yet committed). A disabled or
 * deleted user reaches nothing: it cannot sign in. Reads are in bulk (the users, their groups, the
 * grants on the paths and their ancestors that can match them, the entries); decisions go through the engine's batch
 * form (decideChildren, held equal to decide by its property test), one call per user and folder,
 * with only the grants on that folder, its ancestors and the children asked about.
 */
export async function snapshotAccess(db: Db, scope: ReviewScope): Promise<AccessSnapshot> {
  const snapshot: AccessSnapshot = new Map();
  const users = (await usersByIds(db, scope.userIds)).filter((user) => !user.disabled);
  if (users.length === 0 || scope.paths.length === 0) return snapshot;
  const groups = await groupIdsOfUsers(db, users.map((user) => user.id));
  const allKeys = [...new Set(scope.paths.flatMap(({ key }) => selfAndAncestorKeys(key)))];
  const groupIds = [...new Set([...groups.values()].flat())];
  const partnerIds = [...new Set(users.flatMap((user) => (user.partnerId === null ? [] : [user.partnerId])))];
  const grants = new GranteeIndex((await grantsOnPathsNaming(db, allKeys, { userIds: users.map((user) => user.id), groupIds, partnerIds })).map(toEngineGrant));
  const entries = await findEntries(db, scope.paths.map(({ key }) => key));
  const typeOf = (key: string) => entries.get(key)?.type ?? 'directory';

  for (const user of users) {
    const subject: Subject = {
      userId: user.id,
      workspaceId: user.workspaceId,
      siteAdmin: user.siteAdmin,
      workspaceAdmin: user.workspaceAdmin,
      groupIds: new Set(groups.get(user.id) ?? []),
      partnerId: user.partnerId,
    };
    // Only the grants that can match this user, by path: a few, whatever the scope's size.
    const grantsByKey = byKey(grants.thatCanMatch(subject));
    const access = new Map<string, UserAccess>();
    snapshot.set(user.id, access);
    const keep = (key: string, decided: { capabilities: readonly Capability[]; siteAdmin: boolean; workspaceAdmin: boolean; folderAdmin: boolean }) => {
      const roles: AdminRole[] = [];
      if (decided.siteAdmin) roles.push('site_admin');
      if (decided.workspaceAdmin) roles.push('workspace_admin');
      if (decided.folderAdmin) roles.push('folder_admin');
      if (decided.capabilities.length > 0 || roles.length > 0) access.set(key, { capabilities: decided.capabilities, roles });
    };
    // Paths grouped by their folder, so that each folder's inherited grants are folded once.
    const byFolder = new Map<string, string[]>();
    for (const { key } of scope.paths) {
      const folder = parentKey(key);
      if (folder === null) {
        keep(key, decide(subject, { pathKey: key, type: 'directory' }, grantsByKey.get(key) ?? []));
        continue;
      }
      const inFolder = byFolder.get(folder);
      if (inFolder === undefined) byFolder.set(folder, [key]);
      else inFolder.push(key);
    }
    for (const [folder, keys] of byFolder) {
      const grants = [...selfAndAncestorKeys(folder), ...keys].flatMap((key) => grantsByKey.get(key) ?? []);
      const children = keys.map((key) => ({ name: key.slice(folder === '' ? 0 : folder.length + 1), type: typeOf(key) }));
      decideChildren(subject, folder, children, grants).forEach((decided) => keep(decided.pathKey, decided));
    }
  }
  return snapshot;
}

/** Grants indexed by whom they name, so each user's candidates are found without walking them all. */
class GranteeIndex {
  private readonly byUser = new Map<number, Grant[]>();
  private readonly byGroup = new Map<number, Grant[]>();
  private readonly byPartner = new Map<number, Grant[]>();

  constructor(grants: readonly Grant[]) {
    for (const grant of grants) {
      const { grantee } = grant;
      if (grantee.kind === 'user') push(this.byUser, grantee.userId, grant);
      else if (grantee.kind === 'group') push(this.byGroup, grantee.groupId, grant);
      else if (grantee.kind === 'partner') push(this.byPartner, grantee.partnerId, grant);
      // An ALL-of grant is listed under each of its groups; the engine decides whether all are held.
      else for (const groupId of grantee.groupIds) push(this.byGroup, groupId, grant);
    }
  }

  thatCanMatch(subject: Subject): Grant[] {
    const found = new Set<Grant>(this.byUser.get(subject.userId) ?? []);
    for (const groupId of subject.groupIds) for (const grant of this.byGroup.get(groupId) ?? []) found.add(grant);
    if (subject.partnerId !== null) for (const grant of this.byPartner.get(subject.partnerId) ?? []) found.add(grant);
    return [...found];
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function byKey(grants: readonly Grant[]): Map<string, Grant[]> {
  const map = new Map<string, Grant[]>();
  for (const grant of grants) push(map, grant.pathKey, grant);
  return map;
}
