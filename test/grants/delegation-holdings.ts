// What each user holds on a small site, by the plain reference model (test/authz/reference-model.ts):
// the delegation invariant compares these before and after an action. Written apart from the
// server: it reads the site's rows and asks the model, sharing nothing with src/access/.
import type { Capability, EntryType, Grant, Subject } from '../../src/authz/types.js';
import { referenceDecide } from '../authz/reference-model.js';

/** The protocols a user's and a group's flags open (`<protocol>_permission`). */
export const PROTOCOLS = ['sftp', 'dav', 'restapi', 'ftp'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export interface SiteUser {
  id: number;
  workspaceId: number;
  siteAdmin: boolean;
  workspaceAdmin: boolean;
  disabled: boolean;
  /** The protocols the user's own flags leave open. */
  doors: readonly Protocol[];
  /** The Partner the user belongs to, and whether it is one of its Partner Admins. */
  partnerId: number | null;
  partnerAdmin: boolean;
}

export interface SitePartner {
  id: number;
  workspaceId: number;
}

export interface SiteGroup {
  id: number;
  workspaceId: number;
  /** The protocols the group's flags open for its members. */
  doors: readonly Protocol[];
}

export interface SiteMembership {
  groupId: number;
  userId: number;
  admin: boolean;
}

/** The rows of one small site, as read back from the database. */
export interface SiteState {
  users: SiteUser[];
  groups: SiteGroup[];
  memberships: SiteMembership[];
  grants: Grant[];
  partners: SitePartner[];
}

/** A place whose access is compared: a path key and whether it is a folder or a file. */
export interface Place {
  pathKey: string;
  type: EntryType;
}

/**
 * One thing a user can hold, as a string: `site` (Site Administrator), `wa:<N>` (Workspace
 * Administrator of N), `ga:<G>` (Group Admin of G), `pa:<P>` (Partner Admin of Partner P),
 * `cap:<path>:<capability>`, `door:<protocol>` (may use that protocol: its own flag is on, or a flag
 * of a group of its own Workspace it belongs to).
 */
export type Holding = string;

export function workspaceAdministration(workspaceId: number): Holding {
  return `wa:${workspaceId}`;
}

export function groupAdministration(groupId: number): Holding {
  return `ga:${groupId}`;
}

export function partnerAdministration(partnerId: number): Holding {
  return `pa:${partnerId}`;
}

export function doorHolding(protocol: Protocol): Holding {
  return `door:${protocol}`;
}

/** Everything `userId` holds on `places` in `state`, optionally as if it were also a member of `extraGroupId`. */
export function holdingsOf(state: SiteState, places: readonly Place[], customWorkspaces: readonly number[], userId: number, extraGroupId?: number): Set<Holding> {
  const held = new Set<Holding>();
  const user = state.users.find((candidate) => candidate.id === userId);
  if (user === undefined) return held;
  const groupIds = new Set(state.memberships.filter((m) => m.userId === userId).map((m) => m.groupId));
  if (extraGroupId !== undefined) groupIds.add(extraGroupId);
  // The doors are the account's settings, held whether or not it is disabled now: enabling an
  // account gives it back its own doors, it opens none. Only a group of its own Workspace opens one.
  const groupsOfItsWorkspace = state.groups.filter((group) => groupIds.has(group.id) && group.workspaceId === user.workspaceId);
  for (const protocol of PROTOCOLS) {
    if (user.doors.includes(protocol) || groupsOfItsWorkspace.some((group) => group.doors.includes(protocol))) held.add(doorHolding(protocol));
  }
  if (user.disabled) return held;
  const subject: Subject = { userId, workspaceId: user.workspaceId, siteAdmin: user.siteAdmin, workspaceAdmin: user.workspaceAdmin, groupIds, partnerId: null };
  if (user.siteAdmin) held.add('site');
  if (user.partnerAdmin && user.partnerId !== null) held.add(partnerAdministration(user.partnerId));
  for (const workspaceId of customWorkspaces) {
    if (referenceDecide(subject, { pathKey: `_/workspaces/${workspaceId}`, type: 'directory' }, state.grants).workspaceAdmin) {
      held.add(workspaceAdministration(workspaceId));
    }
  }
  for (const membership of state.memberships) {
    if (membership.userId === userId && membership.admin) held.add(groupAdministration(membership.groupId));
  }
  for (const place of places) {
    for (const capability of referenceDecide(subject, place, state.grants).capabilities) held.add(capabilityAt(place, capability));
  }
  return held;
}

export function capabilityAt(place: Place, capability: Capability): Holding {
  return `cap:${place.type}:${place.pathKey}:${capability}`;
}

/**
 * What the caller may hand on: what it holds, and the authority its roles give over what it does
 * not hold itself (a Site Administrator everything; an administrator of a Workspace the Group
 * Admin role of that Workspace's groups and the Partner Admin role of its Partners; a Partner
 * Admin nothing beyond what it holds, and not its role). `state` holds the site's groups and Partners, those the
 * action created included.
 */
export function mayHandOn(state: Pick<SiteState, 'groups' | 'partners'>, callerHoldings: ReadonlySet<Holding>, holding: Holding): boolean {
  if (callerHoldings.has('site')) return true;
  // A Partner Admin's role is handed on by the Workspace's administrators only, never by a
  // Partner Admin, who may raise nobody's authority, not even to its own.
  if (holding.startsWith('pa:')) {
    const partner = state.partners.find((candidate) => partnerAdministration(candidate.id) === holding);
    return partner !== undefined && partner.workspaceId !== 0 && callerHoldings.has(workspaceAdministration(partner.workspaceId));
  }
  if (callerHoldings.has(holding)) return true;
  if (holding.startsWith('ga:')) {
    const group = state.groups.find((candidate) => groupAdministration(candidate.id) === holding);
    return group !== undefined && group.workspaceId !== 0 && callerHoldings.has(workspaceAdministration(group.workspaceId));
  }
  return false;
}
