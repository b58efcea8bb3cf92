// A deliberately plain model of the authorization rules (contract 2 and 5, product document),
// written apart from the engine and sharing nothing with it but the type names. It works on lists
// of path segments and sets of capability names, enumerates every grant for every question, and
// favours being obviously right over being fast.
import type { Capability, EntryType, Grant, Subject, Target } from '../../src/authz/types.js';

const ORDER: Capability[] = ['list', 'read', 'write', 'delete', 'history', 'share', 'manage'];

const LEVEL_GIVES: Record<string, Capability[]> = {
  admin: ['list', 'read', 'write', 'delete', 'history', 'share', 'manage'],
  full: ['list', 'read', 'write', 'delete'],
  readonly: ['list', 'read'],
  writeonly: ['write'],
  list: ['list'],
  history: ['list', 'history'],
  bundle: ['list', 'read', 'share'],
};

export interface ReferenceAccess {
  capabilities: Capability[];
  siteAdmin: boolean;
  workspaceAdmin: boolean;
  folderAdmin: boolean;
}

export interface ReferenceDecision extends ReferenceAccess {
  workspaceId: number;
  /** Grants that match the subject and cover the target, ascending. */
  appliedGrantIds: number[];
  /** Grants on the target or an ancestor that did not apply, ascending. */
  nearMissGrantIds: number[];
}

function segmentsOf(path: string): string[] {
  if (path === '') return [];
  return path.split('/');
}

/** True when `prefix` is the first segments of `path` (equal counts). */
function beginsWith(path: string[], prefix: string[]): boolean {
  if (prefix.length > path.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    if (path[i] !== prefix[i]) return false;
  }
  return true;
}

function isWorkspaceNumber(text: string | undefined): boolean {
  if (text === undefined || text.length === 0) return false;
  for (const character of text) {
    if (character < '0' || character > '9') return false;
  }
  if (text[0] === '0') return false;
  return Number(text) <= Number.MAX_SAFE_INTEGER;
}

export function referenceWorkspaceOf(path: string): number {
  const s = segmentsOf(path);
  if (s.length >= 3 && s[0] === '_' && s[1] === 'workspaces' && isWorkspaceNumber(s[2])) {
    return Number(s[2]);
  }
  return 0;
}

function isWorkspaceRoot(path: string): boolean {
  const s = segmentsOf(path);
  return s.length === 3 && s[0] === '_' && s[1] === 'workspaces' && isWorkspaceNumber(s[2]);
}

function isOnPathOrAbove(grantPath: string, targetPath: string): boolean {
  return beginsWith(segmentsOf(targetPath), segmentsOf(grantPath));
}

function covers(grant: Grant, target: Target): boolean {
  const g = segmentsOf(grant.pathKey);
  const t = segmentsOf(target.pathKey);
  if (!beginsWith(t, g)) return false;
  if (t.length === g.length) return true;
  if (grant.recursive) return true;
  return t.length === g.length + 1 && target.type === 'file';
}

// Partners hold these levels only; a Partner grant of another level is granted to nobody.
const PARTNER_MAY_HOLD = ['full', 'readonly', 'writeonly', 'list'];

function isPartnerUser(subject: Subject): boolean {
  return subject.partnerId !== null;
}

function matches(subject: Subject, grant: Grant): boolean {
  const grantee = grant.grantee;
  // A Partner user holds its Partner's grants and nothing else; nobody else holds a Partner's.
  if (grantee.kind === 'partner') return subject.partnerId === grantee.partnerId && PARTNER_MAY_HOLD.includes(grant.level);
  if (isPartnerUser(subject)) return false;
  if (grantee.kind === 'user') return grantee.userId === subject.userId;
  if (grantee.kind === 'group') return subject.groupIds.has(grantee.groupId);
  if (grantee.groupIds.length === 0) return false;
  for (const groupId of grantee.groupIds) {
    if (!subject.groupIds.has(groupId)) return false;
  }
  return true;
}

function isRootAdminGrant(grant: Grant): boolean {
  return grant.level === 'admin' && grant.recursive && isWorkspaceRoot(grant.pathKey);
}

export function referenceDecide(subject: Subject, target: Target, grants: Grant[]): ReferenceDecision {
  const workspaceId = referenceWorkspaceOf(target.pathKey);
  const applied: Grant[] = [];
  const nearMissGrantIds: number[] = [];
  for (const grant of grants) {
    if (matches(subject, grant) && covers(grant, target)) applied.push(grant);
    else if (isOnPathOrAbove(grant.pathKey, target.pathKey)) nearMissGrantIds.push(grant.id);
  }

  let workspaceAdmin = false;
  if (workspaceId >= 1) {
    if (subject.workspaceId === workspaceId && subject.workspaceAdmin && !isPartnerUser(subject)) workspaceAdmin = true;
    for (const grant of applied) {
      if (isRootAdminGrant(grant) && referenceWorkspaceOf(grant.pathKey) === workspaceId) workspaceAdmin = true;
    }
  }

  let folderAdmin = false;
  for (const grant of applied) {
    if (grant.level === 'admin' && !isRootAdminGrant(grant)) folderAdmin = true;
  }

  const have = new Set<Capability>();
  for (const grant of applied) {
    for (const capability of LEVEL_GIVES[grant.level] ?? []) have.add(capability);
  }
  const siteAdmin = subject.siteAdmin && !isPartnerUser(subject);
  if (siteAdmin || workspaceAdmin) {
    for (const capability of ORDER) have.add(capability);
  }

  const decision: ReferenceDecision = {
    workspaceId,
    capabilities: ORDER.filter((capability) => have.has(capability)),
    siteAdmin,
    workspaceAdmin,
    folderAdmin,
    appliedGrantIds: applied.map((grant) => grant.id).sort((a, b) => a - b),
    nearMissGrantIds: nearMissGrantIds.sort((a, b) => a - b),
  };
  return subject.extent === undefined ? decision : throughLink(subject, target, decision);
}

/**
 * A share link's reach (docs/sharing.md), applied to what the creator holds: the target must be
 * one of the link's paths, below a recursive one, or a file right in a non-recursive folder. There
 * it keeps of the creator's capabilities only list, read, write and delete, only those the link
 * names, and never delete on a shared path itself; elsewhere nothing. No role at all.
 */
function throughLink(subject: Subject, target: Target, decision: ReferenceDecision): ReferenceDecision {
  const extent = subject.extent!;
  const t = segmentsOf(target.pathKey);
  let reached = false;
  let isSharedPath = false;
  for (const path of extent.paths) {
    const p = segmentsOf(path.pathKey);
    if (t.length === p.length && beginsWith(t, p)) {
      reached = true;
      isSharedPath = true;
    } else if (path.recursive && t.length > p.length && beginsWith(t, p)) {
      reached = true;
    } else if (!path.recursive && target.type === 'file' && t.length === p.length + 1 && beginsWith(t, p)) {
      reached = true;
    }
  }
  const kept: Capability[] = [];
  if (reached) {
    for (const capability of decision.capabilities) {
      if (capability === 'history' || capability === 'share' || capability === 'manage') continue;
      if (!extent.capabilities.includes(capability)) continue;
      if (capability === 'delete' && isSharedPath) continue;
      kept.push(capability);
    }
  }
  return { ...decision, capabilities: kept, siteAdmin: false, workspaceAdmin: false, folderAdmin: false };
}

export function referenceChildren(
  subject: Subject,
  folder: string,
  children: { name: string; type: EntryType }[],
  grants: Grant[],
): ReferenceAccess[] {
  return children.map((child) => {
    const path = folder === '' ? child.name : folder + '/' + child.name;
    const decision = referenceDecide(subject, { pathKey: path, type: child.type }, grants);
    return {
      capabilities: decision.capabilities,
      siteAdmin: decision.siteAdmin,
      workspaceAdmin: decision.workspaceAdmin,
      folderAdmin: decision.folderAdmin,
    };
  });
}

export function referenceChildNamesTowardGrants(subject: Subject, folder: string, grants: Grant[]): string[] {
  const f = segmentsOf(folder);
  const names = new Set<string>();
  for (const grant of grants) {
    const g = segmentsOf(grant.pathKey);
    if (g.length > f.length && beginsWith(g, f) && matches(subject, grant)) names.add(g[f.length] as string);
  }
  return [...names].sort();
}

function sameGroupSet(a: readonly number[], b: readonly number[]): boolean {
  for (const x of a) if (!b.includes(x)) return false;
  for (const x of b) if (!a.includes(x)) return false;
  return true;
}

function sameGranteeAs(a: Grant, b: Grant): boolean {
  const x = a.grantee;
  const y = b.grantee;
  if (x.kind === 'user' && y.kind === 'user') return x.userId === y.userId;
  if (x.kind === 'group' && y.kind === 'group') return x.groupId === y.groupId;
  if (x.kind === 'groups' && y.kind === 'groups') return sameGroupSet(x.groupIds, y.groupIds);
  if (x.kind === 'partner' && y.kind === 'partner') return x.partnerId === y.partnerId;
  return false;
}

export function referenceReplacedIds(created: Grant, existing: Grant[]): number[] {
  const createdGives = LEVEL_GIVES[created.level] ?? [];
  // A Partner grant no Partner may hold gives nobody anything, so it can stand in for nothing.
  if (created.grantee.kind === 'partner' && !PARTNER_MAY_HOLD.includes(created.level)) return [];
  const ids: number[] = [];
  for (const old of existing) {
    if (old.id === created.id) continue;
    if (!sameGranteeAs(old, created)) continue;
    const samePath = old.pathKey === created.pathKey;
    const o = segmentsOf(old.pathKey);
    const c = segmentsOf(created.pathKey);
    const descendant = o.length > c.length && beginsWith(o, c);
    if (!(samePath || (created.recursive && descendant))) continue;
    const oldGives = LEVEL_GIVES[old.level] ?? [];
    if (!oldGives.every((capability) => createdGives.includes(capability))) continue;
    if (old.recursive && !created.recursive) continue;
    // A Workspace root grant's role is only subsumed by a grant on that same root.
    if (isRootAdminGrant(old) && !samePath) continue;
    ids.push(old.id);
  }
  return ids.sort((a, b) => a - b);
}
