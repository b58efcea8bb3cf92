/**
 * The shape of the seeded site. The full run follows the issue (10 Workspaces, 10,000 users,
 * 1,000 groups of 20 members, 100,000 grants, folders 6 levels deep with 20 entries each); the
 * quick run keeps the same structure at a size that seeds in a second.
 */
export interface SiteShape {
  workspaces: number;
  usersPerWorkspace: number;
  groupsPerWorkspace: number;
  membersPerGroup: number;
  /** Levels of folders below each Workspace root; the deepest folders hold only files. */
  depth: number;
  subfoldersPerFolder: number;
  entriesPerFolder: number;
  /** Grants in the site when the main scenarios run. */
  grants: number;
}

export const FULL_SITE: SiteShape = {
  workspaces: 10,
  usersPerWorkspace: 1_000,
  groupsPerWorkspace: 100,
  membersPerGroup: 20,
  depth: 6,
  subfoldersPerFolder: 3,
  entriesPerFolder: 20,
  grants: 100_000,
};

export const QUICK_SITE: SiteShape = {
  workspaces: 2,
  usersPerWorkspace: 100,
  groupsPerWorkspace: 10,
  membersPerGroup: 20,
  depth: 3,
  subfoldersPerFolder: 3,
  entriesPerFolder: 20,
  grants: 10_000,
};
