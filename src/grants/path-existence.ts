import { workspaceRootKey, type EntryType } from '../authz/index.js';
import { PathAccess, subjectOfCaller, type Call, type SitePath } from '../access/index.js';
import { findEntry } from '../repositories/entries.js';

/**
 * The type of what stands at `site`, when the caller may see it; undefined when nothing does or
 * when the caller may not see it. Both cases answer the same, as the file operations answer both
 * with `not-found`, so an explanation cannot be used to learn that a hidden path exists. The
 * request Workspace's root always exists (the site root has no entry of its own).
 */
export async function visibleEntryType({ db, caller, requestWorkspaceId }: Call, site: SitePath): Promise<EntryType | undefined> {
  const rootKey = requestWorkspaceId === 0 ? '' : workspaceRootKey(requestWorkspaceId);
  if (site.key === rootKey) return 'directory';
  const entry = await findEntry(db, site.key);
  if (entry === undefined) return undefined;
  const access = await PathAccess.forPath(db, { subject: await subjectOfCaller(db, caller), rootKey }, entry.pathKey);
  return (await access.visible(entry.pathKey, entry.type)) ? entry.type : undefined;
}
