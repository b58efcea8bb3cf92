import { workspaceRootKey, type Subject } from '../authz/index.js';
import type { Caller } from './caller.js';
import type { Db } from '../db/database.js';
import { groupIdsOfUser } from '../repositories/memberships.js';
import { type User } from '../repositories/users.js';
import { decideOnPath } from './path-grants.js';

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
    partnerId: user.partnerId,
  };
}

/**
 * A site-wide key has no user but Site Administrator authority (contract 3.4): it decides as a
 * subject that is site_admin and matches no grant (no user has id -1, it has no group).
 */
const SITE_WIDE_KEY_SUBJECT: Subject = { userId: -1, workspaceId: 0, siteAdmin: true, workspaceAdmin: false, groupIds: new Set(), partnerId: null };

/** The engine's subject for whoever calls: its user's, or the site-wide key's. */
export async function subjectOfCaller(db: Db, caller: Caller): Promise<Subject> {
  if (caller.user === null) return SITE_WIDE_KEY_SUBJECT;
  const subject = await subjectOf(db, caller.user);
  // Through a share link the engine narrows the creator's access to the link's reach.
  return caller.credential.kind === 'share_link' ? { ...subject, extent: caller.credential.extent } : subject;
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
  const { decision } = await decideOnPath(db, subject, { pathKey: workspaceRootKey(workspaceId), type: 'directory' });
  return decision.workspaceAdmin;
}
