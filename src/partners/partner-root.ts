import { workspaceRootKey } from '../authz/index.js';
import { isReservedSitePath, toRequestPath, toSitePath, type SitePath } from '../access/index.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { AtriumError } from '../errors/atrium-error.js';
import type { HistoryEvent } from '../history/index.js';
import { joinPath, pathKey, workspaceRootPath } from '../lib/paths.js';
import { ensureDirectory, findEntries, insertDirectory } from '../repositories/entries.js';

// A Partner's root folder (docs/partners.md): a folder inside the Partner's Workspace, named
// relative to that Workspace's root whatever context the request is made in, and created (with
// the folders above it) when it is not there. Files already inside it stay as they are.

/**
 * The site path of a root folder as a request names it, or a refusal naming `root_folder`: a
 * path that climbs (`..`), the Workspace root itself (a Partner is confined to a part of its
 * Workspace), or, in Workspace 0, anything under the reserved `_` folder or inside a Custom
 * Workspace.
 */
export function partnerRootSite(workspaceId: number, raw: string): SitePath {
  const invalid = (message: string) => errors.paramsInvalid({ root_folder: [message] });
  let site: SitePath;
  try {
    site = toSitePath(workspaceId, raw);
  } catch (error) {
    if (error instanceof AtriumError) throw invalid(error.message);
    throw error;
  }
  const rootKey = workspaceId === 0 ? '' : workspaceRootKey(workspaceId);
  if (site.key === rootKey) throw errors.modelSaveError({ root_folder: ["can't be blank: name a folder inside the Workspace, not its root"] });
  if (site.workspaceId !== workspaceId || isReservedSitePath(site)) throw invalid("must be a folder of the Partner's Workspace");
  return site;
}

/** The root folder as it is kept and shown: relative to the Partner's Workspace root. */
export function shownRootFolder(workspaceId: number, sitePath: string): string {
  return toRequestPath(workspaceId, sitePath) ?? sitePath;
}

/**
 * Makes sure the root folder is there: the folders missing on the way are created (each a History
 * `create`, as a new folder always is), existing ones keep their spelling. A file where a folder
 * must be is refused, naming `root_folder`. Returns the folder's site path as spelt on disk.
 */
export async function ensurePartnerRoot(tx: Db, site: SitePath, now: number, userId: number | null): Promise<{ path: string; created: HistoryEvent[] }> {
  const basePath = workspaceRootPath(site.workspaceId);
  if (basePath !== '') await ensureDirectory(tx, basePath, now);
  const baseDepth = basePath === '' ? 0 : basePath.split('/').length;
  const segments = site.path.split('/').slice(baseDepth);
  const levels = segments.map((_, i) => joinPath(basePath, ...segments.slice(0, i + 1)));
  const found = await findEntries(tx, levels.map(pathKey));
  let path = basePath;
  const created: HistoryEvent[] = [];
  for (const [index, level] of levels.entries()) {
    const existing = found.get(pathKey(level));
    if (existing !== undefined && existing.type !== 'directory') {
      throw errors.modelSaveError({ root_folder: [`a file lies at ${shownRootFolder(site.workspaceId, existing.path)}, where a folder must be`] });
    }
    if (existing !== undefined) {
      path = existing.path;
      continue;
    }
    path = joinPath(path, segments[index] as string);
    // Another request may make the same folder at the same moment: whichever inserts it, it is there.
    if (await insertDirectory(tx, path, now, { userId, providedMtime: null })) {
      created.push({ action: 'create', workspaceId: site.workspaceId, path, display: `Created folder /${path}`, targets: { type: 'directory' } });
    }
  }
  return { path, created };
}
