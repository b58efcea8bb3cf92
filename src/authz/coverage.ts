import { isStrictAncestor, parentKey } from './site-paths.js';
import type { EntryType, Grant, Target } from './types.js';

/**
 * Where a grant stands relative to a target:
 * - 'covers': the grant reaches the target;
 * - 'not_recursive': the grant is on an ancestor but, being non-recursive, stops short of the target;
 * - 'unrelated': the grant is on neither the target nor an ancestor (a descendant, a sibling, ...).
 */
export type Coverage = 'covers' | 'not_recursive' | 'unrelated';

/**
 * The coverage rule below a grant's path (contract 5.2): a recursive grant reaches every
 * descendant; a non-recursive one reaches only the files directly in its folder, never a subfolder
 * (which would otherwise expose that subfolder's whole listing) and nothing deeper.
 */
export function coversBelow(recursive: boolean, isDirectChild: boolean, type: EntryType): boolean {
  return recursive || (isDirectChild && type === 'file');
}

export function coverageOf(grant: Pick<Grant, 'pathKey' | 'recursive'>, target: Target): Coverage {
  // A grant on the path itself covers it whatever its type, recursive or not.
  if (grant.pathKey === target.pathKey) return 'covers';
  if (!isStrictAncestor(grant.pathKey, target.pathKey)) return 'unrelated';
  const isDirectChild = parentKey(target.pathKey) === grant.pathKey;
  return coversBelow(grant.recursive, isDirectChild, target.type) ? 'covers' : 'not_recursive';
}
