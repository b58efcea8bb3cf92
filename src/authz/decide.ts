import { narrowToExtent } from './extent.js';
import { coverageOf } from './coverage.js';
import { ALL_CAPABILITIES, capabilitiesOfMask, levelMask } from './levels.js';
import { matchGrant } from './matching.js';
import { givesFolderAdmin, isSiteAdmin, workspaceAdminByFlag, workspaceAdminGrantWorkspace } from './roles.js';
import { workspaceOfPath } from './site-paths.js';
import type {
  Capability,
  Decision,
  Grant,
  NearMiss,
  NearMissReason,
  Reason,
  ReasonSource,
  Subject,
  Target,
} from './types.js';

/**
 * What `subject` may do on `target`, and why. `grants` are the grants that can matter: those on the
 * target's path and its ancestors (others are ignored, so passing more is safe, only slower).
 * The cost is linear in the number of grants (plus sorting them by id for a stable explanation).
 */
export function decide(subject: Subject, target: Target, grants: readonly Grant[]): Decision {
  const workspaceId = workspaceOfPath(target.pathKey);
  const siteAdmin = isSiteAdmin(subject);
  const reasons: Reason[] = [];
  const nearMisses: NearMiss[] = [];
  let mask = 0;
  let workspaceAdmin = false;
  let folderAdmin = false;

  if (siteAdmin) {
    const source: ReasonSource = { kind: 'role', role: 'site_admin' };
    reasons.push({ kind: 'role', role: 'site_admin', source }, ...capabilityReasons(ALL_CAPABILITIES, source));
  }
  if (workspaceAdminByFlag(subject, workspaceId)) {
    workspaceAdmin = true;
    const source: ReasonSource = { kind: 'role', role: 'workspace_admin_flag', workspaceId };
    reasons.push({ kind: 'role', role: 'workspace_admin', source }, ...capabilityReasons(ALL_CAPABILITIES, source));
  }

  for (const grant of [...grants].sort((a, b) => a.id - b.id)) {
    const coverage = coverageOf(grant, target);
    if (coverage === 'unrelated') continue;
    const match = matchGrant(subject, grant);

    if (coverage === 'covers' && match.matched) {
      const via = match.via;
      const grantWorkspace = workspaceAdminGrantWorkspace(grant);
      // A covering root grant always names the target's own Workspace; the comparison keeps a
      // root grant of one Workspace from ever making anyone administrator of another.
      if (grantWorkspace !== null && grantWorkspace === workspaceId) {
        workspaceAdmin = true;
        reasons.push({
          kind: 'role',
          role: 'workspace_admin',
          source: { kind: 'role', role: 'workspace_admin_grant', workspaceId, permissionId: grant.id, via },
        });
      }
      const source: ReasonSource = { kind: 'grant', permissionId: grant.id, via };
      if (givesFolderAdmin(grant)) {
        folderAdmin = true;
        reasons.push({ kind: 'role', role: 'folder_admin', source });
      }
      const grantMask = levelMask(grant.level);
      mask |= grantMask;
      reasons.push(...capabilityReasons(grantMask, source));
      continue;
    }

    const whyNot: NearMissReason[] = [];
    if (!match.matched) whyNot.push(match.reason);
    if (coverage === 'not_recursive') whyNot.push({ code: 'not_recursive' });
    nearMisses.push({
      permissionId: grant.id,
      pathKey: grant.pathKey,
      level: grant.level,
      recursive: grant.recursive,
      reasons: whyNot,
    });
  }

  // An administrator of the target's Workspace has everything there, whatever its grants say:
  // grants only ever add, so no grant can narrow a Site or Workspace Administrator.
  if (siteAdmin || workspaceAdmin) mask = ALL_CAPABILITIES;

  const decision: Decision = {
    target,
    workspaceId,
    capabilities: capabilitiesOfMask(mask),
    siteAdmin,
    workspaceAdmin,
    folderAdmin,
    reasons,
    nearMisses,
  };
  return subject.extent === undefined ? decision : narrowToExtent(subject.extent, target, decision);
}

/** Whether `subject` has `capability` on `target`. */
export function can(subject: Subject, target: Target, capability: Capability, grants: readonly Grant[]): boolean {
  return decide(subject, target, grants).capabilities.includes(capability);
}

function capabilityReasons(mask: number, source: ReasonSource): Reason[] {
  return capabilitiesOfMask(mask).map((capability) => ({ kind: 'capability', capability, source }));
}
