import { grantMatches } from './matching.js';
import { childNameToward, isStrictAncestor } from './site-paths.js';
import type { Grant, Subject } from './types.js';

/**
 * The names of the folder's children that lead toward a grant matching the subject strictly below
 * the folder (the child itself or something under it). A folder the subject cannot list is still
 * shown "on the way" to such a grant, with just these entries (contract 6). Any level counts,
 * since every level gives something; a grant that does not match the subject never reveals a path.
 */
export function childNamesTowardGrants(subject: Subject, folderPathKey: string, grants: readonly Grant[]): Set<string> {
  const names = new Set<string>();
  for (const grant of grants) {
    if (!isStrictAncestor(folderPathKey, grant.pathKey)) continue;
    if (!grantMatches(subject, grant)) continue;
    names.add(childNameToward(folderPathKey, grant.pathKey));
  }
  return names;
}

/** Whether any grant matching the subject lies strictly below the folder. */
export function hasGrantBelow(subject: Subject, folderPathKey: string, grants: readonly Grant[]): boolean {
  return grants.some(
    (grant) => isStrictAncestor(folderPathKey, grant.pathKey) && grantMatches(subject, grant),
  );
}
