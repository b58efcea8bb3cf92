import { assertActsAtSiteLevel, type Call } from '../access/index.js';
import { workspaceOfPath } from '../authz/index.js';
import type { Db } from '../db/database.js';
import { storedFilesBySegment, trashedFilesBySegment, versionsBySegment, type SegmentUsage } from '../repositories/storage-usage.js';
import { listWorkspaces } from '../repositories/workspaces.js';

/** Files (or versions) and their bytes. */
export interface Stored {
  files: number;
  bytes: number;
}

/** What one Workspace stores: its files, its deletions in the trash, and the earlier versions its files keep. */
export interface WorkspaceUsage extends Stored {
  workspaceId: number;
  workspaceName: string;
  trash: Stored;
  versions: Stored;
}

/** What the site stores now: in all and per Workspace (every Workspace, empty ones too). */
export interface SiteUsage extends Stored {
  measuredAt: number;
  trash: Stored;
  versions: Stored;
  workspaces: readonly WorkspaceUsage[];
}

/** How many Workspaces are read per page while listing them all. */
const WORKSPACE_PAGE = 1000;

const NONE: Stored = Object.freeze({ files: 0, bytes: 0 });
const plus = (a: Stored, b: Stored): Stored => ({ files: a.files + b.files, bytes: a.bytes + b.bytes });

/** Sums by Workspace id: a key's segment names the Custom Workspace it lies in, by the same rule that decides access. */
function byWorkspace(groups: readonly SegmentUsage[]): Map<number, Stored> {
  const usage = new Map<number, Stored>();
  for (const group of groups) {
    const workspaceId = group.segment === '' ? 0 : workspaceOfPath(`_/workspaces/${group.segment}`);
    usage.set(workspaceId, plus(usage.get(workspaceId) ?? NONE, group));
  }
  return usage;
}

const total = (usage: Map<number, Stored>): Stored => [...usage.values()].reduce(plus, NONE);

/** The files, the trash and the versions, each summed by Workspace: what both answers below are made from. */
async function usageByWorkspace(db: Db): Promise<{ files: Map<number, Stored>; trash: Map<number, Stored>; versions: Map<number, Stored> }> {
  const [files, trash, versions] = await Promise.all([storedFilesBySegment(db), trashedFilesBySegment(db), versionsBySegment(db)]);
  return { files: byWorkspace(files), trash: byWorkspace(trash), versions: byWorkspace(versions) };
}

/**
 * What the site stores, in all: files, the trash, and versions (docs/files.md#trash-and-versions).
 * No caller's authority: for the metrics, which have their own.
 */
export async function storedTotals(db: Db): Promise<{ files: Stored; trash: Stored; versions: Stored }> {
  const { files, trash, versions } = await usageByWorkspace(db);
  return { files: total(files), trash: total(trash), versions: total(versions) };
}

/**
 * GET /site/usage, for Site Administrators at the site level (it spans every Workspace). Bytes are
 * the files' sizes as stored: uploads in progress are not files yet. Deletions in the trash and
 * the earlier versions files keep count apart, in the Workspace of the path they had.
 */
export async function siteStorageUsage(a: Call): Promise<SiteUsage> {
  assertActsAtSiteLevel(a.caller);
  const { files, trash, versions } = await usageByWorkspace(a.db);
  const workspaces: WorkspaceUsage[] = [];
  for (let afterId = -1; ;) {
    const page = await listWorkspaces(a.db, { afterId, limit: WORKSPACE_PAGE });
    for (const workspace of page) {
      workspaces.push({
        workspaceId: workspace.id, workspaceName: workspace.name, ...(files.get(workspace.id) ?? NONE),
        trash: trash.get(workspace.id) ?? NONE, versions: versions.get(workspace.id) ?? NONE,
      });
    }
    if (page.length < WORKSPACE_PAGE) break;
    afterId = page[page.length - 1]!.id;
  }
  return { measuredAt: a.now, ...total(files), trash: total(trash), versions: total(versions), workspaces };
}
