/**
 * The shape of the large site (a large organisation on one PostgreSQL server) and of the small
 * site it is compared with. Every Workspace is built the same way, so the small site is the large
 * one cut down to its first Workspace: the same users, groups, grants, folders, files and History
 * in Workspace 1, where the scenarios ask, and only the rest of the site missing. Any difference
 * in a request's cost is then the cost of the other 99 Workspaces' rows.
 */
export interface LargeSiteShape {
  workspaces: number;
  usersPerWorkspace: number;
  groupsPerWorkspace: number;
  /** Groups each user belongs to (all in its Workspace); a group then has users × this / groups members. */
  groupsPerUser: number;
  grantsPerWorkspace: number;
  /** Folders below each Workspace root, in chains `depth` levels deep. */
  foldersPerWorkspace: number;
  depth: number;
  filesPerFolder: number;
  /** Stored blobs the files share: entries are metadata rows, no file is written. */
  blobs: number;
  historyPerWorkspace: number;
  /** `per_page` of the paged scenarios (users, grants, History, search). */
  pageSize: number;
}

/** The large organisation: 100 Workspaces, 10^5 users, 10^4 groups, 10^6 grants, 10^5 folders, 10^7 files, 10^7 History records. */
export const FULL_LARGE_SITE: LargeSiteShape = {
  workspaces: 100,
  usersPerWorkspace: 1_000,
  groupsPerWorkspace: 100,
  groupsPerUser: 5,
  grantsPerWorkspace: 10_000,
  foldersPerWorkspace: 1_000,
  depth: 8,
  filesPerFolder: 100,
  blobs: 4,
  historyPerWorkspace: 100_000,
  pageSize: 100,
};

/** `BENCH_QUICK=1`: the same structure, seeded in seconds. */
export const QUICK_LARGE_SITE: LargeSiteShape = {
  workspaces: 10,
  usersPerWorkspace: 200,
  groupsPerWorkspace: 40,
  groupsPerUser: 5,
  grantsPerWorkspace: 2_000,
  foldersPerWorkspace: 200,
  depth: 8,
  filesPerFolder: 20,
  blobs: 4,
  historyPerWorkspace: 10_000,
  pageSize: 100,
};

/** The test suite's smoke run: the smallest site on which every scenario still has a full page. */
export const SMOKE_LARGE_SITE: LargeSiteShape = {
  workspaces: 2,
  usersPerWorkspace: 40,
  groupsPerWorkspace: 10,
  groupsPerUser: 5,
  grantsPerWorkspace: 300,
  foldersPerWorkspace: 16,
  depth: 8,
  filesPerFolder: 10,
  blobs: 2,
  historyPerWorkspace: 200,
  pageSize: 20,
};

/** The small site compared with `shape`: its first Workspace alone. */
export function smallSiteOf(shape: LargeSiteShape): LargeSiteShape {
  return { ...shape, workspaces: 1 };
}

/** Totals of a shape, for the report. */
export function siteTotals(shape: LargeSiteShape): Record<'users' | 'groups' | 'grants' | 'folders' | 'files' | 'history', number> {
  const w = shape.workspaces;
  return {
    users: w * shape.usersPerWorkspace,
    groups: w * shape.groupsPerWorkspace,
    grants: w * shape.grantsPerWorkspace,
    folders: w * shape.foldersPerWorkspace,
    files: w * shape.foldersPerWorkspace * shape.filesPerFolder,
    history: w * shape.historyPerWorkspace,
  };
}
