import {
  givesFolderAdmin,
  isStrictAncestor,
  matchGrantee,
  workspaceAdminByFlag,
  workspaceAdminGrantWorkspace,
  workspaceOfPath,
  type Subject,
} from '../authz/index.js';
import type { Caller } from './caller.js';
import type { Db } from '../db/database.js';
import {
  adminGrantsNaming,
  allOfGrantsNamingAny,
  granteesThatCanMatch,
  toEngineGrant,
  type AllOfGrantee,
  type GranteeGroup,
  type GranteeSet,
  type GrantRecord,
  type ListVisibility,
  type Subtree,
} from '../repositories/grants/index.js';
import { type User } from '../repositories/users.js';
import { subjectOf } from './authority.js';
import { grantHolderOf } from './path-grants.js';
import { actsAtSiteLevel, reachesWorkspace } from './site-level.js';

/**
 * Where a caller's authority over grants reaches, from current data (never cached):
 * - Site Administrator: everywhere;
 * - the Workspaces it administers (own workspace_admin flag, or an admin recursive root grant);
 * - the subtrees where it is Folder Admin (any other admin grant), each within the Workspace its
 *   grant lies in: Folder Admin authority never crosses into another Workspace, because delegating
 *   across Workspaces is the Site Administrator's alone (contract 5.3);
 * - its own grants: direct, through its groups, and the ALL-of grants it satisfies.
 */
export interface PermissionReach {
  /** Site Administrator authority at the site level (a confined one administers its home instead). */
  readonly siteAdmin: boolean;
  /** null for a site-wide key, which has no user. */
  readonly subject: Subject | null;
  readonly administeredWorkspaceIds: ReadonlySet<number>;
  readonly folderAdminSubtrees: readonly Subtree[];
  readonly own: GranteeSet;
}

export async function permissionReachOf(db: Db, caller: Caller): Promise<PermissionReach> {
  const user = caller.user;
  if (user === null) return siteWideKeyReach(caller);
  const subject = await subjectOf(db, user);
  const groupIds = [...subject.groupIds];
  // The ALL-of grants naming its groups are read once: for its admin grants and its own grants.
  const allOf = await allOfGrantsNamingAny(db, groupIds);
  const adminGrants = await adminGrantsNaming(db, { userId: user.id, groupIds, allOfGrantIds: allOf.map((record) => record.id) });
  return reachFrom(caller, subject, adminGrants, granteeSetFrom(subject, allOf));
}

/**
 * The caller's reach as far as request context `requestWorkspaceId` shows it: exact for
 * mayListUser, mayListGroup and listVisibility in that context. A Site Administrator, or the
 * administrator of the context by its own flag, sees everything there whatever its grants say,
 * so its grants are not read at all; anyone else gets its whole reach (permissionReachOf).
 */
export async function permissionReachIn(db: Db, caller: Caller, requestWorkspaceId: number): Promise<PermissionReach> {
  const user = caller.user;
  if (user === null) return siteWideKeyReach(caller);
  const byFlag = user.workspaceAdmin && user.workspaceId === requestWorkspaceId;
  if (!caller.siteAdmin && !byFlag) return permissionReachOf(db, caller);
  const subject = await subjectOf(db, user);
  if (caller.siteAdmin || workspaceAdministeredByFlag(subject) === requestWorkspaceId) return reachFrom(caller, subject, [], noGrantee);
  return permissionReachOf(db, caller);
}

/**
 * The caller's reach as far as one path and its ancestors show it, from `records`, every grant on
 * those paths: exact for overseesPath and canSeeGrant on any of those paths and their grants
 * (every subtree holding a path starts at the path or one of its ancestors, and a Workspace's root
 * is an ancestor of everything in it), and a part of the whole reach elsewhere. Explain uses it,
 * so that its cost follows the grants on one path, never the caller's grants across the site.
 */
export async function reachOverPath(db: Db, caller: Caller, records: readonly GrantRecord[]): Promise<PermissionReach> {
  const user = caller.user;
  if (user === null) return siteWideKeyReach(caller);
  const subject = await subjectOf(db, user);
  const allOf = records.flatMap(({ id, grantee }): AllOfGrantee[] => (grantee.kind === 'groups' ? [{ id, grantee }] : []));
  return reachFrom(caller, subject, records.filter((record) => record.level === 'admin'), granteeSetFrom(subject, allOf));
}

/**
 * mayListUser's rule without a whole reach: the answers that need no grant first (Site
 * Administrator, itself, its own Workspace by flag), then only the caller's admin grants in the
 * user's Workspace.
 */
export async function mayListUserGrants(db: Db, caller: Caller, requestWorkspaceId: number, user: User): Promise<boolean> {
  const self = caller.user;
  if (actsAtSiteLevel(caller) || self?.id === user.id) return true;
  if (caller.siteAdmin) return reachesWorkspace(caller, user.workspaceId);
  if (self === null) return false;
  if (requestWorkspaceId !== 0 && user.workspaceId !== requestWorkspaceId) return false;
  const subject = await subjectOf(db, self);
  if (workspaceAdministeredByFlag(subject) === user.workspaceId) return true;
  const candidates = await granteesThatCanMatch(db, grantHolderOf(subject));
  const adminGrants = await adminGrantsNaming(db, candidates, { inWorkspace: user.workspaceId });
  return mayListUser(reachFrom(caller, subject, adminGrants, noGrantee), requestWorkspaceId, user);
}

function siteWideKeyReach(caller: Caller): PermissionReach {
  return { siteAdmin: actsAtSiteLevel(caller), subject: null, administeredWorkspaceIds: new Set(confinedSiteAdminHome(caller)), folderAdminSubtrees: [], own: noGrantee };
}

/**
 * A Site Administrator's credential confined to its home (contract 4.3) has a Site Administrator's
 * authority there and nowhere else: over grants, that of the home's administrator, so it sees what
 * an administrator of its home sees (not the Site Administrators of Workspace 0, say).
 */
function confinedSiteAdminHome(caller: Caller): number[] {
  return caller.siteAdmin && !actsAtSiteLevel(caller) ? [caller.homeWorkspaceId] : [];
}

/** The reach given by the caller's flag and by those of `adminRecords` (admin grants) that match it. */
function reachFrom(caller: Caller, subject: Subject, adminRecords: readonly GrantRecord[], own: GranteeSet): PermissionReach {
  const administered = new Set<number>(confinedSiteAdminHome(caller));
  const subtrees: Subtree[] = [];
  const byFlag = workspaceAdministeredByFlag(subject);
  if (byFlag !== null) administered.add(byFlag);
  for (const record of adminRecords) {
    const grant = toEngineGrant(record);
    if (!matchGrantee(subject, grant.grantee).matched) continue;
    const rootOf = workspaceAdminGrantWorkspace(grant);
    if (rootOf !== null) administered.add(rootOf);
    else if (givesFolderAdmin(grant)) subtrees.push({ key: grant.pathKey, recursive: grant.recursive, workspaceId: workspaceOfPath(grant.pathKey) });
  }
  return { siteAdmin: actsAtSiteLevel(caller), subject, administeredWorkspaceIds: administered, folderAdminSubtrees: subtrees, own };
}

/** The Workspace the user administers by its own flag, if any (the engine's rule: own Custom Workspace only). */
function workspaceAdministeredByFlag(subject: Subject): number | null {
  return workspaceAdminByFlag(subject, subject.workspaceId) ? subject.workspaceId : null;
}

const noGrantee: GranteeSet = { userId: null, groupIds: [], allOfGrantIds: [] };

/**
 * The grants that name a user: direct, each of its groups, and every ALL-of grant it satisfies.
 * Which ALL-of grants those are is the engine's call (matchGrantee), never a SQL approximation.
 */
export async function granteeSetOf(db: Db, subject: Subject): Promise<GranteeSet> {
  return granteeSetFrom(subject, await allOfGrantsNamingAny(db, [...subject.groupIds]));
}

/** granteeSetOf from the ALL-of grants naming the subject's groups, already loaded. */
function granteeSetFrom(subject: Subject, allOfNamingItsGroups: readonly AllOfGrantee[]): GranteeSet {
  // A Partner user holds its Partner's grants and nothing else (matchGrantee's rule, as a set).
  if (subject.partnerId !== null) return { userId: null, groupIds: [], allOfGrantIds: [], partnerId: subject.partnerId };
  return {
    userId: subject.userId,
    groupIds: [...subject.groupIds],
    allOfGrantIds: allOfNamingItsGroups.filter((record) => matchGrantee(subject, record.grantee).matched).map((record) => record.id),
  };
}

/** Administrator of the whole request context: every grant in it is visible. */
function administersContext(reach: PermissionReach, requestWorkspaceId: number): boolean {
  return reach.siteAdmin || (requestWorkspaceId >= 1 && reach.administeredWorkspaceIds.has(requestWorkspaceId));
}

/**
 * Workspaces whose users and groups the caller may name (as grantees, or to list their grants):
 * those it administers or holds Folder Admin authority in, within the request context.
 */
function reachableWorkspaceIds(reach: PermissionReach, requestWorkspaceId: number): Set<number> {
  const ids = new Set([...reach.administeredWorkspaceIds, ...reach.folderAdminSubtrees.map((s) => s.workspaceId)]);
  if (requestWorkspaceId !== 0) return ids.has(requestWorkspaceId) ? new Set([requestWorkspaceId]) : new Set();
  return ids;
}

/** Whether the caller may list (and explain) this user's grants: itself, or a user in its reach. */
export function mayListUser(reach: PermissionReach, requestWorkspaceId: number, user: User): boolean {
  if (reach.siteAdmin || reach.subject?.userId === user.id) return true;
  return reachableWorkspaceIds(reach, requestWorkspaceId).has(user.workspaceId);
}

/** Whether the caller may list this group's grants: one of its own groups, or a group in its reach. */
export function mayListGroup(reach: PermissionReach, requestWorkspaceId: number, group: GranteeGroup): boolean {
  if (reach.siteAdmin || reach.subject?.groupIds.has(group.id) === true) return true;
  return reachableWorkspaceIds(reach, requestWorkspaceId).has(group.workspaceId);
}

/**
 * The SQL form of "what may this caller list in this context" (contract 5.4), or 'all' for an
 * administrator of the context. canSeeGrant is the same rule for one grant.
 */
export function listVisibility(reach: PermissionReach, requestWorkspaceId: number): 'all' | ListVisibility {
  if (administersContext(reach, requestWorkspaceId)) return 'all';
  const inContext = (workspaceId: number) => requestWorkspaceId === 0 || workspaceId === requestWorkspaceId;
  return {
    workspaceIds: [...reach.administeredWorkspaceIds].filter(inContext),
    subtrees: reach.folderAdminSubtrees.filter((s) => inContext(s.workspaceId)),
    own: reach.own,
  };
}

/** Whether the caller may see one grant (its context is checked separately). */
export function canSeeGrant(reach: PermissionReach, record: GrantRecord): boolean {
  return overseesPath(reach, record.workspaceId, record.pathKey) || isOwn(reach.own, record);
}

/**
 * Whether the caller oversees a path: Site Administrator, administrator of its Workspace, or Folder
 * Admin of a subtree holding it (the same subtree rule as listVisibility's SQL).
 */
export function overseesPath(reach: PermissionReach, workspaceId: number, pathKey: string): boolean {
  if (reach.siteAdmin || reach.administeredWorkspaceIds.has(workspaceId)) return true;
  return reach.folderAdminSubtrees.some(
    (s) => s.workspaceId === workspaceId && (s.key === pathKey || (s.recursive && isStrictAncestor(s.key, pathKey))),
  );
}

function isOwn(own: GranteeSet, record: GrantRecord): boolean {
  const grantee = record.grantee;
  switch (grantee.kind) {
    case 'user':
      return own.userId === grantee.userId;
    case 'group':
      return own.groupIds.includes(grantee.groupId);
    case 'groups':
      return own.allOfGrantIds.includes(record.id);
    case 'partner':
      return own.partnerId === grantee.partnerId;
  }
}
