import { workspaceRootId } from './site-paths.js';
import type { Grant, Subject } from './types.js';

/**
 * N when the grant makes the users it matches Workspace Administrator of Custom Workspace N:
 * level admin, recursive, on exactly the root '_/workspaces/N' (contract 2). An admin grant on a
 * subfolder, or a non-recursive one on the root, does not: it only makes Folder Admins.
 */
export function workspaceAdminGrantWorkspace(grant: Pick<Grant, 'pathKey' | 'level' | 'recursive'>): number | null {
  if (grant.level !== 'admin' || !grant.recursive) return null;
  return workspaceRootId(grant.pathKey);
}

/**
 * Whether a matching grant that covers a path makes the subject Folder Admin of it: any admin
 * grant except a Workspace root grant, which gives the wider Workspace Administrator role instead
 * and is reported as that role only.
 */
export function givesFolderAdmin(grant: Pick<Grant, 'pathKey' | 'level' | 'recursive'>): boolean {
  return grant.level === 'admin' && workspaceAdminGrantWorkspace(grant) === null;
}

/**
 * The user's own workspace_admin flag, for a path in `workspaceId`. It applies only to the
 * Workspace the user belongs to, and never to Workspace 0, whose only administrators are Site
 * Administrators. Both flags are compared with `=== true`: a value that slipped through untyped
 * (SQLite's 1, a string) fails closed instead of making someone an administrator by truthiness.
 */
export function workspaceAdminByFlag(subject: Subject, workspaceId: number): boolean {
  return workspaceId >= 1 && subject.workspaceAdmin === true && subject.workspaceId === workspaceId && !isPartnerUser(subject);
}

/**
 * Site Administrator comes from the flag alone and is never narrowed by grants. The contract only
 * lets Workspace 0 users hold the flag; enforcing that is the user store's job, not this check's.
 * A Partner user never holds it (nor the Workspace flag above): the user store refuses both, and
 * should a bad row carry one anyway, the engine still gives a Partner user its Partner's grants only.
 */
export function isSiteAdmin(subject: Subject): boolean {
  return subject.siteAdmin === true && !isPartnerUser(subject);
}

/** Whether the subject is a Partner user, whose only access is its Partner's grants. */
export function isPartnerUser(subject: Subject): boolean {
  return subject.partnerId !== null && subject.partnerId !== undefined;
}
