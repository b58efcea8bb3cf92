// Site path keys: canonical, lower-cased, no leading or trailing '/', '' is the site root.
// All comparisons are exact string comparisons; callers canonicalise.

const WORKSPACES_PREFIX = '_/workspaces/';

/** The parent's key, or null for the site root. */
export function parentKey(pathKey: string): string | null {
  if (pathKey === '') return null;
  const slash = pathKey.lastIndexOf('/');
  return slash < 0 ? '' : pathKey.slice(0, slash);
}

/**
 * Whether `ancestor` lies strictly above `pathKey`. Compared segment-wise through the trailing '/',
 * so that 'a' is not taken for an ancestor of 'ab'.
 */
export function isStrictAncestor(ancestor: string, pathKey: string): boolean {
  if (ancestor === '') return pathKey !== '';
  return (
    pathKey.length > ancestor.length + 1 &&
    pathKey.charCodeAt(ancestor.length) === 47 /* '/' */ &&
    pathKey.startsWith(ancestor)
  );
}

export function childKey(folderKey: string, name: string): string {
  return folderKey === '' ? name : `${folderKey}/${name}`;
}

/** For a path strictly below `folderKey`, the name of the folder's child on the way to it. */
export function childNameToward(folderKey: string, descendantKey: string): string {
  const start = folderKey === '' ? 0 : folderKey.length + 1;
  const slash = descendantKey.indexOf('/', start);
  return slash < 0 ? descendantKey.slice(start) : descendantKey.slice(start, slash);
}

export function workspaceRootKey(workspaceId: number): string {
  return `${WORKSPACES_PREFIX}${workspaceId}`;
}

/**
 * A Workspace id as it appears in a root key: a positive decimal without leading zeros. Anything
 * else ('0', '01', '1e3', huge numbers) names no Custom Workspace, so its subtree stays in
 * Workspace 0 and can never make anyone a Workspace Administrator.
 */
function parseWorkspaceSegment(segment: string): number | null {
  if (!/^[1-9][0-9]*$/.test(segment)) return null;
  const id = Number(segment);
  return Number.isSafeInteger(id) ? id : null;
}

/** N when `pathKey` is exactly the root of Custom Workspace N, otherwise null. */
export function workspaceRootId(pathKey: string): number | null {
  if (!pathKey.startsWith(WORKSPACES_PREFIX)) return null;
  const segment = pathKey.slice(WORKSPACES_PREFIX.length);
  return segment.includes('/') ? null : parseWorkspaceSegment(segment);
}

/** The Workspace a path lies in: N on or under '_/workspaces/N', otherwise 0. */
export function workspaceOfPath(pathKey: string): number {
  if (!pathKey.startsWith(WORKSPACES_PREFIX)) return 0;
  const rest = pathKey.slice(WORKSPACES_PREFIX.length);
  const slash = rest.indexOf('/');
  return parseWorkspaceSegment(slash < 0 ? rest : rest.slice(0, slash)) ?? 0;
}
