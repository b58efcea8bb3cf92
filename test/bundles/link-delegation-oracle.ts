// What a share link may be made of, and what its visitors may then do, by the plain reference model
// (test/authz/reference-model.ts) alone: docs/sharing.md's "Who may" and "What a visitor can reach"
// written again from the text, sharing nothing with src/access/ or src/authz/.
import type { Capability, ExtentPath, Subject } from '../../src/authz/types.js';
import { referenceChildNamesTowardGrants, referenceDecide } from '../authz/reference-model.js';
import { capabilityAt, type Holding, type Place, type SiteState } from '../grants/delegation-holdings.js';

/** A link's `permissions`, and what each lets its visitors do (docs/sharing.md#fields). */
export const LINK_PERMISSIONS = ['read', 'preview_only', 'write', 'read_write', 'full'] as const;
export type LinkPermissions = (typeof LINK_PERMISSIONS)[number];
const VISITORS_MAY: Record<LinkPermissions, Capability[]> = {
  read: ['list', 'read'],
  preview_only: ['list', 'read'],
  write: ['write'],
  read_write: ['list', 'read', 'write'],
  full: ['list', 'read', 'write', 'delete'],
};

export function takesUploads(permissions: LinkPermissions): boolean {
  return VISITORS_MAY[permissions].includes('write');
}

/** The user as the model sees it now; undefined when it may do nothing (disabled, or gone). */
export function subjectOf(state: SiteState, userId: number): Subject | undefined {
  const user = state.users.find((candidate) => candidate.id === userId);
  if (user === undefined || user.disabled) return undefined;
  const groupIds = new Set(state.memberships.filter((m) => m.userId === userId).map((m) => m.groupId));
  return { userId, workspaceId: user.workspaceId, siteAdmin: user.siteAdmin, workspaceAdmin: user.workspaceAdmin, groupIds, partnerId: user.partnerId };
}

function parentOf(pathKey: string): string {
  return pathKey.includes('/') ? pathKey.slice(0, pathKey.lastIndexOf('/')) : '';
}

/**
 * Whether the user may see that `place` exists (docs/permissions.md): its folder's listing would
 * show it (list on the folder, or write there for a subfolder), or a grant of its own lies on it
 * or below it.
 */
export function sees(state: SiteState, subject: Subject, place: Place): boolean {
  const parent = parentOf(place.pathKey);
  const onParent = referenceDecide(subject, { pathKey: parent, type: 'directory' }, state.grants).capabilities;
  if (onParent.includes('list') || (place.type === 'directory' && onParent.includes('write'))) return true;
  return referenceChildNamesTowardGrants(subject, parent, state.grants).includes(nameOf(place));
}

/** The answer a new link (or a changed one) must get: accepted, or refused with this status and type. */
export type Verdict = { accepted: true } | { accepted: false; status: number; type: string };

/**
 * Whether `creatorId` may share `named` (in order; undefined for a name that is no file or folder
 * of the link's Workspace) in a link of `permissions`: each must exist and be seen by the creator
 * (else `not-found/bundle-path-not-found`, the same answer for both), the creator must hold write
 * there for a link that takes uploads (`write-and-bundle-permission-required`), and Share there
 * (`bundle-permission-required`); an upload link shares folders only. The first path that fails
 * gives the answer.
 */
export function mayShare(state: SiteState, creatorId: number, named: readonly (Place | undefined)[], permissions: LinkPermissions): Verdict {
  const subject = subjectOf(state, creatorId);
  for (const place of named) {
    if (place === undefined || subject === undefined || !sees(state, subject, place)) return { accepted: false, status: 404, type: 'not-found/bundle-path-not-found' };
    const held = referenceDecide(subject, place, state.grants).capabilities;
    if (takesUploads(permissions) && !held.includes('write')) return { accepted: false, status: 403, type: 'not-authorized/write-and-bundle-permission-required' };
    if (!held.includes('share')) return { accepted: false, status: 403, type: 'not-authorized/bundle-permission-required' };
    if (takesUploads(permissions) && place.type === 'file') return { accepted: false, status: 422, type: 'processing-failure/model-save-error' };
  }
  return { accepted: true };
}

/** What a link shares: each shared path, a folder with everything below it, a file by itself. */
export function linkExtentPaths(shared: readonly Place[]): ExtentPath[] {
  return shared.map((place) => ({ pathKey: place.pathKey, recursive: place.type === 'directory' }));
}

/**
 * Whether `place` lies in the link's paths: one of them, or below a shared folder. (A folder is
 * always shared with everything below it, so a non-recursive path is a file, alone.)
 */
export function withinLink(paths: readonly ExtentPath[], place: Place): boolean {
  return paths.some((path) => path.pathKey === place.pathKey || (path.recursive && place.pathKey.startsWith(`${path.pathKey}/`)));
}

/** What the probes ask of each place, besides listing a folder and uploading into it. */
const PROBED: Record<Place['type'], Capability[]> = { file: ['read', 'delete'], directory: ['delete'] };

/** The start of an upload's name in a folder, as the visitor's probe writes it: always a new file there. */
export const UPLOAD_PROBE = 'upload-probe';

/** A folder's listing shows this entry. */
export function shownIn(folder: Place, entry: Place): Holding {
  return `shows:${folder.pathKey}:${entry.pathKey}`;
}

/**
 * What a visitor of the link may do on `places` (a tree: every folder's entries are among them),
 * as holdings: the creator as it is now, through the link's reach (Subject.extent), on what the
 * creator still sees. `cap:…:list` on a folder: its listing answers, as for any folder the
 * visitor sees; `shows:…` each entry that listing shows: of the entries a listing names (all with
 * list on the folder; its folders only with write there; else those on the way to a grant of the
 * creator's, docs/permissions.md), a folder the visitor may list, a file it may read. `write` on a
 * folder: an upload of a new file into it; `read` and `delete` on what they name.
 */
export function visitorHoldings(state: SiteState, creatorId: number, link: { paths: readonly ExtentPath[]; permissions: LinkPermissions }, places: readonly Place[]): Set<Holding> {
  const held = new Set<Holding>();
  const creator = subjectOf(state, creatorId);
  if (creator === undefined) return held;
  const visitor: Subject = { ...creator, extent: { paths: link.paths, capabilities: VISITORS_MAY[link.permissions] } };
  const reached = (place: Place) => withinLink(link.paths, place) && sees(state, creator, place);
  const may = (place: Place) => referenceDecide(visitor, place, state.grants).capabilities;
  for (const place of places) {
    if (!reached(place)) continue;
    const here = may(place);
    for (const capability of here) {
      if (PROBED[place.type].includes(capability)) held.add(capabilityAt(place, capability));
    }
    if (place.type === 'file') continue;
    held.add(capabilityAt(place, 'list'));
    const towardGrants = referenceChildNamesTowardGrants(creator, place.pathKey, state.grants);
    for (const entry of places.filter((candidate) => parentOf(candidate.pathKey) === place.pathKey)) {
      const named = here.includes('list') || (here.includes('write') ? entry.type === 'directory' : towardGrants.includes(nameOf(entry)));
      if (named && reached(entry) && may(entry).includes(entry.type === 'directory' ? 'list' : 'read')) held.add(shownIn(place, entry));
    }
    const upload: Place = { pathKey: `${place.pathKey}/${UPLOAD_PROBE}`, type: 'file' };
    if (may(upload).includes('write')) held.add(capabilityAt(place, 'write'));
  }
  return held;
}

function nameOf(place: Place): string {
  return place.pathKey.slice(place.pathKey.lastIndexOf('/') + 1);
}

/** The shared paths a link's top still shows: those its creator still sees. */
export function shownAtTop(state: SiteState, creatorId: number, shared: readonly Place[]): Place[] {
  const creator = subjectOf(state, creatorId);
  return creator === undefined ? [] : shared.filter((place) => sees(state, creator, place));
}
