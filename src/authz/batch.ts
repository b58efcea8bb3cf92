import { narrowToExtent } from './extent.js';
import { coversBelow } from './coverage.js';
import { ALL_CAPABILITIES, capabilitiesOfMask, levelMask } from './levels.js';
import { grantMatches } from './matching.js';
import { givesFolderAdmin, isSiteAdmin, workspaceAdminByFlag, workspaceAdminGrantWorkspace } from './roles.js';
import { childKey, isStrictAncestor, parentKey, workspaceOfPath } from './site-paths.js';
import type { ChildAccess, ChildEntry, EntryType, Grant, Subject } from './types.js';

/** What a set of matching, covering grants adds up to. */
interface Contribution {
  mask: number;
  folderAdmin: boolean;
  /** Workspaces whose root grant is among them (each makes the subject that Workspace's administrator). */
  readonly adminOfWorkspaces: Set<number>;
}

function emptyContribution(): Contribution {
  return { mask: 0, folderAdmin: false, adminOfWorkspaces: new Set() };
}

function add(contribution: Contribution, grant: Grant): void {
  contribution.mask |= levelMask(grant.level);
  if (givesFolderAdmin(grant)) contribution.folderAdmin = true;
  const workspaceId = workspaceAdminGrantWorkspace(grant);
  if (workspaceId !== null) contribution.adminOfWorkspaces.add(workspaceId);
}

/**
 * The access of every child of a folder, as `decide` would give it for each child alone (the
 * property test holds the two equal), in one pass: grants on the folder and its ancestors are
 * folded once into what they give a file child and what they give a folder child, and grants on the
 * children are bucketed by path. Cost: O(grants + children), never grants x children.
 *
 * `grants` are those that can matter: on the folder, its ancestors and its children (grants deeper
 * down are ignored here; see grants-below.ts for those).
 */
export function decideChildren(
  subject: Subject,
  folderPathKey: string,
  children: readonly ChildEntry[],
  grants: readonly Grant[],
): ChildAccess[] {
  const inherited: Record<EntryType, Contribution> = { file: emptyContribution(), directory: emptyContribution() };
  const onChild = new Map<string, Contribution>();

  for (const grant of grants) {
    if (!grantMatches(subject, grant)) continue;
    const onFolder = grant.pathKey === folderPathKey;
    if (onFolder || isStrictAncestor(grant.pathKey, folderPathKey)) {
      // The same rule as a single check: every child is a direct child of the folder, and at
      // least two levels below any strict ancestor.
      for (const type of ['file', 'directory'] as const) {
        if (coversBelow(grant.recursive, onFolder, type)) add(inherited[type], grant);
      }
    } else if (parentKey(grant.pathKey) === folderPathKey) {
      let contribution = onChild.get(grant.pathKey);
      if (contribution === undefined) onChild.set(grant.pathKey, (contribution = emptyContribution()));
      add(contribution, grant);
    }
  }

  const siteAdmin = isSiteAdmin(subject);
  return children.map(({ name, type }) => {
    assertChildName(name);
    const pathKey = childKey(folderPathKey, name);
    // Computed per child: under '_/workspaces' each child is a different Workspace's root.
    const workspaceId = workspaceOfPath(pathKey);
    const fromAbove = inherited[type];
    const own = onChild.get(pathKey);
    const workspaceAdmin =
      workspaceAdminByFlag(subject, workspaceId) ||
      fromAbove.adminOfWorkspaces.has(workspaceId) ||
      (own?.adminOfWorkspaces.has(workspaceId) ?? false);
    // As in decide: an administrator of the child's Workspace is never narrowed by grants.
    const mask = siteAdmin || workspaceAdmin ? ALL_CAPABILITIES : fromAbove.mask | (own?.mask ?? 0);
    const access: ChildAccess = {
      name,
      pathKey,
      type,
      capabilities: capabilitiesOfMask(mask),
      siteAdmin,
      workspaceAdmin,
      folderAdmin: fromAbove.folderAdmin || (own?.folderAdmin ?? false),
    };
    return subject.extent === undefined ? access : narrowToExtent(subject.extent, { pathKey, type }, access);
  });
}

/**
 * A child name is one path segment. Anything else would make this answer about some other path
 * than the one listed, so it is a caller bug and fails loudly rather than answering.
 */
function assertChildName(name: string): void {
  if (name === '' || name.includes('/')) {
    throw new TypeError(`authz: child name must be a single non-empty path segment, got ${JSON.stringify(name)}`);
  }
}
