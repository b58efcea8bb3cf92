import { decide, workspaceOfPath, type AdminRole, type Capability, type EntryType, type Grant, type GrantVia, type Level, type Subject } from '../../authz/index.js';
import { selfAndAncestorKeys } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import { usersByIds } from '../../repositories/access-review.js';
import { administratorIdsByFlag, grantsOnPaths, membershipPairsOfGroups, toEngineGrant, type GrantRecord } from '../../repositories/grants/index.js';
import { usersOfPartners, type User } from '../../repositories/users.js';

// "Who can reach this path", for any number of paths, with no caller: the raw answer that the
// reach listing, the effective-access export (and later a dry run) filter by what their caller may
// see. It never has a rule of its own: it gathers the users a path's grants can name and decides
// each with the engine (authz/decide), the same call every request is decided by.

/** A path to answer for: its site key and what stands there (a file or a folder). */
export interface ReachTarget {
  key: string;
  type: EntryType;
}

/** One reason a user reaches a path: a grant (and how it names the user), or a flag. */
export type ReachCause =
  | { kind: 'site_admin' }
  | { kind: 'workspace_admin_flag'; workspaceId: number }
  /** `role`: the administrator role the grant gives here (an admin grant), or null. */
  | { kind: 'grant'; record: GrantRecord; via: GrantVia; role: 'workspace_admin' | 'folder_admin' | null };

/** One user who reaches a path, with what it may do there and why. */
export interface UserReach {
  user: User;
  /** In the order of contract 5.1, as the engine answers them. */
  capabilities: readonly Capability[];
  /** The effective level: `admin` with `manage`, otherwise the highest level of the grants that apply (LEVEL_RANK). */
  level: Level;
  /** Administrator roles held on the path, the widest first. */
  roles: readonly AdminRole[];
  /** Roles by flag first, then every grant that applies, by id. */
  because: readonly ReachCause[];
}

/** Levels from highest to lowest, for "the highest when several grants apply". */
export const LEVEL_RANK: readonly Level[] = ['admin', 'full', 'bundle', 'readonly', 'history', 'writeonly', 'list'];

/**
 * What deciding users on a set of paths needs, read once: for each path, the grants on it and its
 * ancestors and the users they can name (directly, as members of a named group, as members of an
 * ALL-of set's groups), plus the administrators by flag; and each candidate's memberships of the
 * named groups (the only memberships a decision on these paths can look at).
 */
export interface ReachPlan {
  readonly targets: readonly ReachTarget[];
  /** Every grant on the targets and their ancestors, by id. */
  readonly grants: readonly GrantRecord[];
  /** Per target key: the grants a decision there depends on, and the candidates in id order. */
  readonly byTarget: ReadonlyMap<string, { grants: readonly Grant[]; candidateIds: readonly number[] }>;
  /** Each candidate's groups among those the grants name. */
  readonly groupsOf: ReadonlyMap<number, readonly number[]>;
}

/**
 * Reads a plan for `targets`. `grants` may be passed when the caller has already read every grant
 * on the targets and their ancestors (the reach listing reads them for its authority check).
 */
export async function planReach(db: Db, targets: readonly ReachTarget[], grants?: readonly GrantRecord[]): Promise<ReachPlan> {
  const ancestorsOf = new Map(targets.map((target) => [target.key, selfAndAncestorKeys(target.key)]));
  const records = grants ?? (await grantsOnPaths(db, [...new Set([...ancestorsOf.values()].flat())]));
  const namedGroupIds = new Set<number>();
  const namedPartnerIds = new Set<number>();
  for (const { grantee } of records) {
    if (grantee.kind === 'group') namedGroupIds.add(grantee.groupId);
    else if (grantee.kind === 'groups') for (const id of grantee.groupIds) namedGroupIds.add(id);
    else if (grantee.kind === 'partner') namedPartnerIds.add(grantee.partnerId);
  }
  const usersOfPartner = new Map<number, number[]>();
  for (const { id, partnerId } of await usersOfPartners(db, [...namedPartnerIds])) {
    const list = usersOfPartner.get(partnerId);
    if (list === undefined) usersOfPartner.set(partnerId, [id]);
    else list.push(id);
  }
  const groupsOf = new Map<number, number[]>();
  const membersOf = new Map<number, number[]>();
  const listIn = (map: Map<number, number[]>, key: number): number[] => {
    let list = map.get(key);
    if (list === undefined) map.set(key, (list = []));
    return list;
  };
  for (const { userId, groupId } of await membershipPairsOfGroups(db, [...namedGroupIds])) {
    listIn(groupsOf, userId).push(groupId);
    listIn(membersOf, groupId).push(userId);
  }
  const administrators = await administratorIdsByFlag(db, targets.map((target) => workspaceOfPath(target.key)));
  const administratorUsers = await usersByIds(db, administrators);

  const byTarget = new Map<string, { grants: Grant[]; candidateIds: number[] }>();
  for (const target of targets) {
    const keys = new Set(ancestorsOf.get(target.key));
    const onPath = records.filter((record) => keys.has(record.pathKey));
    const candidates = new Set<number>();
    for (const { grantee } of onPath) {
      if (grantee.kind === 'user') candidates.add(grantee.userId);
      else if (grantee.kind === 'group') for (const id of membersOf.get(grantee.groupId) ?? []) candidates.add(id);
      else if (grantee.kind === 'partner') for (const id of usersOfPartner.get(grantee.partnerId) ?? []) candidates.add(id);
      else if (grantee.groupIds.length > 0) {
        // ALL-of: the members of its first group are a superset of the users it can match; the
        // engine decides which of them are in every group.
        for (const id of membersOf.get(grantee.groupIds[0] as number) ?? []) candidates.add(id);
      }
    }
    const workspaceId = workspaceOfPath(target.key);
    for (const user of administratorUsers) {
      if (user.siteAdmin || (user.workspaceAdmin && user.workspaceId === workspaceId)) candidates.add(user.id);
    }
    byTarget.set(target.key, { grants: onPath.map(toEngineGrant), candidateIds: [...candidates].sort((a, b) => a - b) });
  }
  return { targets, grants: records, byTarget, groupsOf };
}

/**
 * The engine's answer for each of `users` on one planned target: those who may do anything there,
 * in the order given. A disabled user reaches nothing (it cannot sign in), as an access review
 * counts it. Pure: no database.
 */
export function decideReach(plan: ReachPlan, target: ReachTarget, users: readonly User[]): UserReach[] {
  const planned = plan.byTarget.get(target.key);
  if (planned === undefined) return [];
  const recordsById = new Map(plan.grants.map((record) => [record.id, record]));
  const reached: UserReach[] = [];
  for (const user of users) {
    if (user.disabled) continue;
    const subject: Subject = {
      userId: user.id,
      workspaceId: user.workspaceId,
      siteAdmin: user.siteAdmin,
      workspaceAdmin: user.workspaceAdmin,
      groupIds: new Set(plan.groupsOf.get(user.id) ?? []),
      partnerId: user.partnerId,
    };
    const decision = decide(subject, { pathKey: target.key, type: target.type }, planned.grants);
    const roles: AdminRole[] = [];
    if (decision.siteAdmin) roles.push('site_admin');
    if (decision.workspaceAdmin) roles.push('workspace_admin');
    if (decision.folderAdmin) roles.push('folder_admin');
    if (decision.capabilities.length === 0 && roles.length === 0) continue;
    const because: ReachCause[] = [];
    const byGrant = new Map<number, Extract<ReachCause, { kind: 'grant' }>>();
    for (const reason of decision.reasons) {
      const source = reason.source;
      if (source.kind === 'role' && source.role === 'site_admin') {
        if (!because.some((cause) => cause.kind === 'site_admin')) because.push({ kind: 'site_admin' });
      } else if (source.kind === 'role' && source.role === 'workspace_admin_flag') {
        if (!because.some((cause) => cause.kind === 'workspace_admin_flag')) because.push({ kind: 'workspace_admin_flag', workspaceId: source.workspaceId });
      } else {
        const record = recordsById.get(source.permissionId);
        if (record === undefined) continue;
        const cause = byGrant.get(record.id) ?? { kind: 'grant', record, via: source.via, role: null };
        if (reason.kind === 'role' && (reason.role === 'workspace_admin' || reason.role === 'folder_admin')) cause.role = reason.role;
        if (!byGrant.has(record.id)) {
          byGrant.set(record.id, cause);
          because.push(cause);
        }
      }
    }
    because.sort((a, b) => causeOrder(a) - causeOrder(b));
    reached.push({ user, capabilities: decision.capabilities, level: effectiveLevel(decision.capabilities, because), roles, because });
  }
  return reached;
}

function causeOrder(cause: ReachCause): number {
  if (cause.kind === 'site_admin') return -2;
  if (cause.kind === 'workspace_admin_flag') return -1;
  return cause.record.id;
}

function effectiveLevel(capabilities: readonly Capability[], because: readonly ReachCause[]): Level {
  if (capabilities.includes('manage')) return 'admin';
  let best = LEVEL_RANK.length - 1;
  for (const cause of because) {
    if (cause.kind === 'grant') best = Math.min(best, LEVEL_RANK.indexOf(cause.record.level));
  }
  return LEVEL_RANK[best] as Level;
}

/** Candidates are loaded this many at a time, so that a path open to a huge group streams. */
export const REACH_USER_BATCH = 1_000;

/**
 * Every user who reaches each target, decided by the engine from the current data of `db` (which
 * may be a transaction with changes of its own not yet committed), users in id order. No
 * visibility filter: this is the whole truth, for features that filter it for their caller or
 * compare it before and after a change.
 */
export async function reachOn(db: Db, targets: readonly ReachTarget[]): Promise<Map<string, UserReach[]>> {
  const plan = await planReach(db, targets);
  const allIds = [...new Set([...plan.byTarget.values()].flatMap((planned) => planned.candidateIds))];
  const users = new Map<number, User>();
  for (let i = 0; i < allIds.length; i += REACH_USER_BATCH) {
    for (const user of await usersByIds(db, allIds.slice(i, i + REACH_USER_BATCH))) users.set(user.id, user);
  }
  const answer = new Map<string, UserReach[]>();
  for (const target of targets) {
    const ids = plan.byTarget.get(target.key)?.candidateIds ?? [];
    answer.set(target.key, decideReach(plan, target, ids.flatMap((id) => users.get(id) ?? [])));
  }
  return answer;
}

/** The users with these ids that exist, in id order. */
export async function usersInIdOrder(db: Db, ids: readonly number[]): Promise<User[]> {
  return (await usersByIds(db, ids)).sort((a, b) => a.id - b.id);
}
