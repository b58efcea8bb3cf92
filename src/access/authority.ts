import { decide, workspaceRootKey, type Decision, type Subject, type Target } from '../authz/index.js';
import type { Caller } from './caller.js';
import type { Db } from '../db/database.js';
import { grantsThatCanMatch } from '../repositories/grants.js';
import { groupIdsOfUser } from '../repositories/memberships.js';
import type { User } from '../repositories/users.js';

/**
 * Loads what a decision about a caller needs, from current data on every request: nothing about a
 * user's authority is cached or copied into a key, so a change applies to the very next request.
 */
export async function subjectOf(db: Db, user: User): Promise<Subject> {
  return {
    userId: user.id,
    workspaceId: user.workspaceId,
    siteAdmin: user.siteAdmin,
    workspaceAdmin: user.workspaceAdmin,
    groupIds: new Set(await groupIdsOfUser(db, user.id)),
  };
}

/**
 * A site-wide key has no user but Site Administrator authority (contract 3.4): it decides as a
 * subject that is site_admin and matches no grant (no user has id -1, it has no group).
 */
const SITE_WIDE_KEY_SUBJECT: Subject = { userId: -1, workspaceId: 0, siteAdmin: true, workspaceAdmin: false, groupIds: new Set() };

/** The engine's subject for whoever calls: its user's, or the site-wide key's. */
export function subjectOfCaller(db: Db, caller: Caller): Promise<Subject> {
  return caller.user === null ? Promise.resolve(SITE_WIDE_KEY_SUBJECT) : subjectOf(db, caller.user);
}

/** A path key and every ancestor up to the site root (''): the paths whose grants can cover it. */
export function selfAndAncestorKeys(pathKey: string): string[] {
  const keys = [''];
  if (pathKey === '') return keys;
  const segments = pathKey.split('/');
  for (let i = 1; i <= segments.length; i += 1) keys.push(segments.slice(0, i).join('/'));
  return keys;
}

/** The engine's full decision for a user on a path, from the grants that can matter. */
export async function decideFor(db: Db, subject: Subject, target: Target): Promise<Decision> {
  const grants = await grantsThatCanMatch(db, subject.userId, [...subject.groupIds], selfAndAncestorKeys(target.pathKey));
  return decide(subject, target, grants);
}

/**
 * "Administrator of context N" (contract 2): a Site Administrator (a site_admin user or a site-wide
 * key), or for N >= 1 a Workspace Administrator of N, by the user's own flag or by an admin,
 * recursive grant on N's root, direct or through a group.
 */
export async function isAdministratorOf(db: Db, caller: Caller, workspaceId: number): Promise<boolean> {
  if (caller.siteAdmin) return true;
  const user = caller.user;
  if (user === null || workspaceId === 0) return false;
  if (user.workspaceAdmin && user.workspaceId === workspaceId) return true;
  const subject = await subjectOf(db, user);
  const decision = await decideFor(db, subject, { pathKey: workspaceRootKey(workspaceId), type: 'directory' });
  return decision.workspaceAdmin;
}
