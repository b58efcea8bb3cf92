import { random, workspaceRoot, type SitePlan } from './site-plan.js';

export interface PlannedGrant {
  workspaceId: number;
  /** Qualified site path, display spelling. */
  path: string;
  userId: number | null;
  groupId: number | null;
  /** ALL-of grant: the groups a member must all belong to. */
  allOf: number[] | null;
  level: string;
  recursive: boolean;
}

/** Folder sizes of the listing-growth series live in Workspace 1 as `big-<size>`. */
export const bigFolder = (size: number) => `big-${size}`;

/** The page of the member's grants (its groups' included) that the growth series lists. */
export const MEMBER_GRANTS_PAGE = 20;

/**
 * The grants around what the scenarios measure, the same at every step of the growth series: on
 * Workspace 1's root and on every ancestor of the listed folder there are group, user and ALL-of
 * grants, so explanations have near misses to report, and the member's access comes through one
 * group grant three levels up. Filler grants never land here, so a step adds only grants that
 * should not matter to these checks.
 */
export function fixedGrants(plan: SitePlan, folderSizes: readonly number[]): PlannedGrant[] {
  const { shape, member } = plan;
  const ws = 1;
  const root = workspaceRoot(ws);
  const memberGroups = new Set(plan.groupsOfUser(member.index));
  const others = Array.from({ length: shape.groupsPerWorkspace }, (_, g) => g).filter((g) => !memberGroups.has(g));
  const other = (i: number) => plan.groupId(ws, others[i % others.length] as number);
  const memberGroup = plan.groupId(ws, member.groupIndex);
  const grant = (path: string, grantee: Partial<Pick<PlannedGrant, 'userId' | 'groupId' | 'allOf'>>, level: string, recursive = true): PlannedGrant => ({
    workspaceId: ws, path, userId: grantee.userId ?? null, groupId: grantee.groupId ?? null, allOf: grantee.allOf ?? null, level, recursive,
  });

  const grants: PlannedGrant[] = [
    grant(root, { groupId: other(others.length - 1) }, 'admin'),
    grant(root, { groupId: other(0) }, 'readonly'),
  ];
  const chain = plan.listedFolder.split('/');
  for (let level = 1; level <= chain.length; level += 1) {
    const path = `${root}/${chain.slice(0, level).join('/')}`;
    grants.push(
      grant(path, { groupId: other(level) }, 'list'),
      grant(path, { groupId: other(level + 7) }, 'readonly'),
      grant(path, { userId: plan.userId(ws, 10 + level) }, 'full', level % 2 === 0),
      grant(path, { userId: plan.userId(ws, 30 + level) }, 'writeonly'),
      grant(path, { allOf: [memberGroup, other(level + 3)] }, 'full'),
    );
  }
  const accessLevel = Math.min(3, chain.length);
  grants.push(grant(`${root}/${chain.slice(0, 2).join('/')}`, { groupId: memberGroup }, 'full', false));
  grants.push(grant(`${root}/${chain.slice(0, accessLevel).join('/')}`, { groupId: memberGroup }, 'readonly'));
  for (const size of folderSizes) grants.push(grant(`${root}/${bigFolder(size)}`, { groupId: memberGroup }, 'readonly'));
  // A page of the member's group's grants away from the measured branch, so that the growth
  // series' page of the member's grants (include_groups) is full at every step, 1,000 grants too.
  const offBranch = plan.folders.filter((folder) => folder !== 'dir-1' && !folder.startsWith('dir-1/')).slice(0, MEMBER_GRANTS_PAGE);
  for (const folder of offBranch) grants.push(grant(`${root}/${folder}`, { groupId: memberGroup }, 'list'));
  return grants;
}

const LEVELS: readonly [string, number][] = [['readonly', 0.4], ['full', 0.25], ['list', 0.15], ['writeonly', 0.1], ['admin', 0.04], ['history', 0.03], ['bundle', 0.03]];

/**
 * Filler grant number `index`, always the same: a user (45%), group (45%) or ALL-of (10%) grant
 * of a random Workspace, on a random folder of its tree, avoiding the measured folder's branch.
 * Past the main site's size, grants go to further copies of the tree (`archive-<n>/...`), so the
 * grants per folder stay what a real site of that size would have while the site grows tenfold.
 * The member and its groups get their share of filler grants elsewhere in the site.
 */
export function fillerGrant(plan: SitePlan, index: number): PlannedGrant {
  const { shape } = plan;
  const next = random(index * 2654435761 + 977);
  const pick = (n: number) => Math.floor(next() * n);
  const ws = 1 + (index % shape.workspaces);
  let folder = plan.folders[pick(plan.folders.length)] as string;
  if (ws === 1 && (folder === 'dir-1' || folder.startsWith('dir-1/'))) folder = `dir-2${folder.slice('dir-1'.length)}`;
  const copy = Math.floor(index / shape.grants);
  const path = `${workspaceRoot(ws)}/${copy === 0 ? '' : `archive-${copy}/`}${folder}`;
  const kind = next();
  let level = 'readonly';
  let roll = next();
  for (const [name, weight] of LEVELS) {
    if (roll < weight) { level = name; break; }
    roll -= weight;
  }
  const base = { workspaceId: ws, path, level, recursive: next() < 0.8 };
  if (kind < 0.45) return { ...base, userId: plan.userId(ws, pick(shape.usersPerWorkspace)), groupId: null, allOf: null };
  const group = pick(shape.groupsPerWorkspace);
  if (kind < 0.9) return { ...base, userId: null, groupId: plan.groupId(ws, group), allOf: null };
  const second = (group + 1 + pick(shape.groupsPerWorkspace - 1)) % shape.groupsPerWorkspace;
  return { ...base, userId: null, groupId: null, allOf: [plan.groupId(ws, group), plan.groupId(ws, second)] };
}
