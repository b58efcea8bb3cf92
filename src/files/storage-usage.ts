import { assertActsAtSiteLevel, type Call } from '../access/index.js';
import { workspaceOfPath } from '../authz/index.js';
import { storedFilesBySegment } from '../repositories/storage-usage.js';
import { listWorkspaces } from '../repositories/workspaces.js';

export interface WorkspaceUsage {
  workspaceId: number;
  workspaceName: string;
  files: number;
  bytes: number;
}

/** What the site stores now: files and bytes in all, and per Workspace (every Workspace, empty ones too). */
export interface SiteUsage {
  measuredAt: number;
  files: number;
  bytes: number;
  workspaces: readonly WorkspaceUsage[];
}

/** How many Workspaces are read per page while listing them all. */
const WORKSPACE_PAGE = 1000;

/**
 * GET /site/usage, for Site Administrators at the site level (it spans every Workspace). Bytes are
 * the files' sizes as stored: uploads in progress are not files yet, and Atrium keeps no deleted
 * files. A file counts in the Workspace its path lies in, by the same rule that decides access.
 */
export async function siteStorageUsage(a: Call): Promise<SiteUsage> {
  assertActsAtSiteLevel(a.caller);
  const usage = new Map<number, { files: number; bytes: number }>();
  for (const group of await storedFilesBySegment(a.db)) {
    const workspaceId = group.segment === '' ? 0 : workspaceOfPath(`_/workspaces/${group.segment}`);
    const sum = usage.get(workspaceId) ?? { files: 0, bytes: 0 };
    usage.set(workspaceId, { files: sum.files + group.files, bytes: sum.bytes + group.bytes });
  }
  const workspaces: WorkspaceUsage[] = [];
  for (let afterId = -1; ;) {
    const page = await listWorkspaces(a.db, { afterId, limit: WORKSPACE_PAGE });
    for (const workspace of page) {
      const sum = usage.get(workspace.id) ?? { files: 0, bytes: 0 };
      workspaces.push({ workspaceId: workspace.id, workspaceName: workspace.name, ...sum });
    }
    if (page.length < WORKSPACE_PAGE) break;
    afterId = page[page.length - 1]!.id;
  }
  const total = [...usage.values()].reduce((all, sum) => ({ files: all.files + sum.files, bytes: all.bytes + sum.bytes }), { files: 0, bytes: 0 });
  return { measuredAt: a.now, ...total, workspaces };
}
