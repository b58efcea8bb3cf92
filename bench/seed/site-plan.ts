import type { SiteShape } from './site-shape.js';

/**
 * Where everything of the seeded site lives: ids, names and paths are computed, not looked up, so
 * the seeding can write straight into the tables in bulk and the scenarios know what to ask for.
 */
export interface SitePlan {
  shape: SiteShape;
  /** Users with their Workspace; ids from 2 (1 is the bench's Site Administrator). */
  userId(workspaceId: number, index: number): number;
  groupId(workspaceId: number, index: number): number;
  /** Local indexes of the users in a group of a Workspace. */
  groupMembers(groupIndex: number): number[];
  /** Groups (local indexes) a user (local index) belongs to. */
  groupsOfUser(userIndex: number): number[];
  /** Folder paths below a Workspace root (relative, display spelling), parents before children. */
  folders: readonly string[];
  /** The 20-entry folder the listing scenarios read, relative to Workspace 1, at the deepest level. */
  listedFolder: string;
  /** The member whose access to `listedFolder` comes through a group grant. */
  member: { workspaceId: 1; index: number; groupIndex: number };
  /** A Workspace Administrator (by flag) of Workspace 1. */
  workspaceAdmin: { workspaceId: 1; index: 0 };
}

export const BENCH_ADMIN_ID = 1;
export const FOLDER_NAME = (i: number) => `dir-${i}`;
export const FILE_NAME = (i: number, width = 2) => `file-${String(i).padStart(width, '0')}.txt`;

export function planSite(shape: SiteShape): SitePlan {
  const { usersPerWorkspace: users, groupsPerWorkspace: groups, membersPerGroup: members } = shape;
  const groupMembers = (groupIndex: number) =>
    Array.from({ length: members }, (_, k) => (groupIndex * members + k) % users);
  const groupsOfUser = (userIndex: number) => {
    const result: number[] = [];
    for (let g = 0; g < groups; g += 1) if (groupMembers(g).includes(userIndex)) result.push(g);
    return result;
  };
  const memberIndex = 1;
  const memberGroups = groupsOfUser(memberIndex);
  const memberGroup = memberGroups[0];
  if (memberGroup === undefined) throw new Error('the site shape leaves the member without a group');
  return {
    shape,
    userId: (workspaceId, index) => 2 + (workspaceId - 1) * users + index,
    groupId: (workspaceId, index) => 1 + (workspaceId - 1) * groups + index,
    groupMembers,
    groupsOfUser,
    folders: folderTree(shape),
    listedFolder: Array.from({ length: shape.depth }, () => FOLDER_NAME(1)).join('/'),
    member: { workspaceId: 1, index: memberIndex, groupIndex: memberGroup },
    workspaceAdmin: { workspaceId: 1, index: 0 },
  };
}

/** Every folder below a Workspace root, breadth first: each holds `subfoldersPerFolder` folders until `depth`. */
function folderTree(shape: SiteShape): string[] {
  const folders: string[] = [];
  let level = [''];
  for (let depth = 1; depth <= shape.depth; depth += 1) {
    const next: string[] = [];
    for (const parent of level) {
      for (let i = 1; i <= shape.subfoldersPerFolder; i += 1) next.push(parent === '' ? FOLDER_NAME(i) : `${parent}/${FOLDER_NAME(i)}`);
    }
    folders.push(...next);
    level = next;
  }
  return folders;
}

export function workspaceRoot(workspaceId: number): string {
  return `_/Workspaces/${workspaceId}`;
}

/** Small deterministic PRNG (mulberry32): the same seed builds the same site on every run. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
