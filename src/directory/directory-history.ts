import type { HistoryAction, HistoryEvent } from '../history/index.js';
import { isoTime } from '../lib/time.js';
import type { Group } from '../repositories/groups.js';
import type { User } from '../repositories/users.js';
import type { Workspace } from '../repositories/workspaces.js';

// The History records of directory changes (docs/history.md). A user's and a group's records
// belong to their Workspace; Workspaces themselves are the site's, so their records are site-level.

/** What History keeps of a user: names and flags, never its password or its hash. */
function userFields(user: User): Record<string, unknown> {
  return {
    username: user.username,
    name: user.name,
    email: user.email,
    site_admin: user.siteAdmin,
    workspace_admin: user.workspaceAdmin,
    disabled: user.disabled,
    workspace_id: user.workspaceId,
    external_id: user.externalId,
    given_name: user.nameParts.givenName,
    family_name: user.nameParts.familyName,
    // The profile and access fields, but not the notes: History is read by more than the administrators who may see them.
    time_zone: user.profile.timeZone,
    language: user.profile.language,
    company: user.profile.company,
    allowed_ips: user.profile.allowedIps,
    user_root: user.profile.userRoot,
    authenticate_until: user.profile.authenticateUntil,
    require_password_change: user.profile.requirePasswordChange,
    ssl_required: user.profile.sslRequired,
    require_2fa: user.profile.require2fa,
    sftp_permission: user.profile.sftpPermission,
    dav_permission: user.profile.davPermission,
    ftp_permission: user.profile.ftpPermission,
    restapi_permission: user.profile.restapiPermission,
    partner_id: user.partnerId,
    partner_admin: user.partnerAdmin,
    authentication_method: user.authentication.method,
    sso_strategy_id: user.authentication.ssoStrategyId,
  };
}

/** The fields that differ between two versions of a user, as { before, after }. */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const names = Object.keys(after).filter((name) => before[name] !== after[name]);
  return { before: Object.fromEntries(names.map((name) => [name, before[name]])), after: Object.fromEntries(names.map((name) => [name, after[name]])) };
}

export function userCreated(user: User, groupIds: readonly number[]): HistoryEvent {
  return {
    action: 'user_create',
    workspaceId: user.workspaceId,
    display: `Created user ${user.username}`,
    targets: { id: user.id, ...userFields(user), ...(groupIds.length === 0 ? {} : { group_ids: [...groupIds] }) },
  };
}

/** A change of a user: the fields before and after; a new or removed password only as the word, never the value. */
export function userUpdated(before: User, after: User, passwordChanged: boolean): HistoryEvent {
  const { before: was, after: is } = changedFields(userFields(before), userFields(after));
  const changed = [...Object.keys(is), ...(passwordChanged ? ['password'] : [])];
  return {
    action: 'user_update',
    workspaceId: after.workspaceId,
    display: `Changed user ${after.username}: ${changed.join(', ') || 'nothing'}`,
    targets: { id: after.id, username: after.username, changed, before: was, after: is },
  };
}

/** An administrator ended a user's sign-in lockout, which would have lasted until `lockedUntil`. */
export function userUnlocked(user: User, lockedUntil: number): HistoryEvent {
  return {
    action: 'user_update',
    workspaceId: user.workspaceId,
    display: `Unlocked user ${user.username}: lockout_expires`,
    targets: {
      id: user.id, username: user.username, changed: ['lockout_expires'],
      before: { lockout_expires: isoTime(lockedUntil) }, after: { lockout_expires: null },
    },
  };
}

/** An administrator's reset of a user's second factors (POST /users/<id>/2fa/reset, `clear_2fa`). */
export function twoFactorReset(user: User, by: string): HistoryEvent {
  return {
    action: 'two_factor_destroy',
    workspaceId: user.workspaceId,
    display: `${by} reset the two-factor authentication of ${user.username}: its second factors and recovery codes removed, its sessions ended`,
    targets: { user: { id: user.id, username: user.username } },
  };
}

export function userDeleted(user: User): HistoryEvent {
  return { action: 'user_destroy', workspaceId: user.workspaceId, display: `Deleted user ${user.username}`, targets: { id: user.id, ...userFields(user) } };
}

/** Members as History shows them: ids, with names where known. */
export interface MemberChange {
  added: readonly { userId: number; admin: boolean }[];
  removed: readonly { userId: number; username?: string }[];
  /** Members whose Group Admin flag changed, to the value given. */
  adminChanged: readonly { userId: number; username?: string; admin: boolean }[];
}

const NO_MEMBER_CHANGE: MemberChange = { added: [], removed: [], adminChanged: [] };

export function groupEvent(action: HistoryAction, group: Group, options: { before?: Group; members?: MemberChange; profileChanged?: readonly string[] } = {}): HistoryEvent {
  const profileChanged = options.profileChanged ?? [];
  const members = options.members ?? NO_MEMBER_CHANGE;
  const renamed = options.before !== undefined && options.before.name !== group.name;
  const parts = [
    ...(renamed ? [`renamed from ${options.before?.name}`] : []),
    ...(members.added.length > 0 ? [`${members.added.length} member(s) added`] : []),
    ...(members.removed.length > 0 ? [`${members.removed.length} member(s) removed`] : []),
    ...members.adminChanged.map((m) => `${m.username ?? `user ${m.userId}`} ${m.admin ? 'made' : 'no longer'} Group Admin`),
    ...(profileChanged.length > 0 ? [`changed ${profileChanged.join(', ')}`] : []),
  ];
  const verb = action === 'group_create' ? 'Created' : action === 'group_destroy' ? 'Deleted' : 'Changed';
  return {
    action,
    workspaceId: group.workspaceId,
    display: `${verb} group ${group.name}${parts.length > 0 ? `: ${parts.join('; ')}` : ''}`,
    targets: {
      id: group.id,
      name: group.name,
      ...(renamed ? { before: { name: options.before?.name }, after: { name: group.name } } : {}),
      ...(members.added.length > 0 ? { members_added: members.added.map((m) => ({ user_id: m.userId, admin: m.admin })) } : {}),
      ...(members.removed.length > 0 ? { members_removed: members.removed.map((m) => ({ user_id: m.userId, username: m.username ?? null })) } : {}),
      ...(profileChanged.length > 0 ? { changed: [...profileChanged] } : {}),
      ...(members.adminChanged.length > 0 ? { admin_changed: members.adminChanged.map((m) => ({ user_id: m.userId, username: m.username ?? null, admin: m.admin })) } : {}),
    },
  };
}

export function workspaceEvent(action: HistoryAction, workspace: Workspace, before?: Workspace): HistoryEvent {
  const verb = action === 'workspace_create' ? 'Created' : action === 'workspace_destroy' ? 'Deleted' : 'Renamed';
  const renamed = before !== undefined && before.name !== workspace.name;
  return {
    action,
    workspaceId: null,
    // Quoted names are built with JSON.stringify: it escapes quotes inside a name.
    display: `${verb} Workspace ${workspace.id} ${renamed ? `${JSON.stringify(before.name)} → ${JSON.stringify(workspace.name)}` : JSON.stringify(workspace.name)}`,
    targets: { id: workspace.id, name: workspace.name, ...(renamed ? { before: { name: before.name }, after: { name: workspace.name } } : {}) },
  };
}
