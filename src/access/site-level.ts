import { errors } from '../errors/catalogue.js';
import type { Caller } from './caller.js';

/**
 * Whether the credential is confined to its home Workspace (contract 4.3): a `files_only` key, a
 * key created in a Custom Workspace, and any credential of a Custom Workspace user or of a Partner
 * user, also one of a Partner in Workspace 0 (docs/partners.md), and a share link, in its own
 * Workspace (docs/sharing.md). Such a credential acts only
 * inside its home, whatever its user may do with another credential.
 */
export function isConfined(caller: Caller): boolean {
  if (caller.user !== null && (caller.user.workspaceId !== 0 || caller.user.partnerId !== null)) return true;
  const credential = caller.credential;
  if (credential.kind === 'share_link') return true;
  return credential.kind === 'api_key' && (credential.permissionSet === 'files_only' || credential.workspaceId !== 0);
}

/**
 * Whether something that belongs to Workspace `workspaceId` (a folder path, a History export) lies
 * where the caller acts: anywhere for a credential that is not confined; only in its home for one
 * that is (contract 4.3), whatever its user could reach with another credential.
 */
export function reachesWorkspace(caller: Caller, workspaceId: number): boolean {
  return !isConfined(caller) || workspaceId === caller.homeWorkspaceId;
}

/**
 * Site Administrator authority over the whole site: a Site Administrator's credential (or a
 * site-wide key) that is not confined. A confined one has a Site Administrator's authority inside
 * its home Workspace only, which is what `caller.siteAdmin` means wherever the request works in
 * that Workspace; what reaches beyond it (site settings, Workspaces themselves, Site
 * Administrators, anything across Workspaces) needs this.
 */
export function actsAtSiteLevel(caller: Caller): boolean {
  return caller.siteAdmin && !isConfined(caller);
}

/**
 * The policy of the site-level actions (contract 4.3 and 8): reading or changing the site's
 * settings, creating, renaming and deleting Workspaces, creating site-wide keys. Anyone else,
 * a confined Site Administrator's credential included, gets `not-authorized/site-admin-required`.
 */
export function assertActsAtSiteLevel(caller: Caller): void {
  if (!actsAtSiteLevel(caller)) throw errors.siteAdminRequired();
}

/**
 * Whether a grant, a membership or a key may involve an account or group of `memberOf` when the
 * request works in Workspace `workspaceId`: its own Workspace's always; Workspace 0's (the
 * cross-Workspace delegation of contract 5.3) at the site level only. Answers what the caller
 * is told otherwise: `hidden` (not-found, as an id that does not exist) for a caller that may not
 * see such accounts, `site-level` (site-admin-required) for a confined Site Administrator, who may
 * see them but not reach them from its home, `other-workspace` for an account of another Custom
 * Workspace, which stays within it.
 */
export function accountReach(caller: Caller, memberOf: number, workspaceId: number): 'yes' | 'hidden' | 'site-level' | 'other-workspace' {
  if (memberOf === workspaceId) return 'yes';
  if (!caller.siteAdmin) return 'hidden';
  if (!actsAtSiteLevel(caller)) return 'site-level';
  return memberOf === 0 ? 'yes' : 'other-workspace';
}

/**
 * Making or unmaking a Site Administrator (`site_admin` on a user): a Site Administrator at the
 * site level only, and only for a Workspace 0 account. Anyone who is no Site Administrator is told
 * the field is beyond it (contract 4.2); a confined Site Administrator's credential that it needs
 * the site level.
 */
export function assertMaySetSiteAdmin(caller: Caller, targetWorkspaceId: number, makes: boolean): void {
  if (!caller.siteAdmin) throw errors.insufficientPermissionForParams('Only a Site Administrator may change site_admin.');
  assertActsAtSiteLevel(caller);
  if (makes && targetWorkspaceId !== 0) throw errors.modelSaveError({ site_admin: ['is only for users of Workspace 0'] });
}

/**
 * Everything about a caller that decides what it may see, as one string, for caches of answers
 * rendered per caller (http/rendered-body.ts): its user with the flags authority is decided from
 * (or the site-wide key), and whether the credential is confined. Its groups and grants are data,
 * whose changes move the cache's version instead.
 */
export function authorityKeyOf(caller: Caller): string {
  const user = caller.user;
  const who = user === null ? 'site-wide key' : [user.id, user.workspaceId, user.siteAdmin, user.workspaceAdmin].join(':');
  const link = caller.credential.kind === 'share_link' ? `share link ${caller.credential.bundleId}` : '';
  return [who, caller.siteAdmin ? 'site admin' : '', isConfined(caller) ? `confined to ${caller.homeWorkspaceId}` : '', link].join('\u0000');
}

