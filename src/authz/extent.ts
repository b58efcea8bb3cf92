import { isStrictAncestor, parentKey } from './site-paths.js';
import type { Access, Capability, Extent, Target } from './types.js';

// A share link's reach (docs/sharing.md): whatever its creator holds, the link gives only this.
// The engine applies it last, after the creator's grants and roles are decided, so a link is
// always the minimum of what it was made for and what its creator may do now.

/** What a link may ever let be done: never share, manage or read History. */
const LINK_CAPABILITIES: ReadonlySet<Capability> = new Set(['list', 'read', 'write', 'delete']);

/** Whether `target` is among the link's paths: one of them, below a recursive one, or a file directly in a non-recursive folder. */
export function inExtent(extent: Extent, target: Target): boolean {
  return extent.paths.some((path) => {
    if (target.pathKey === path.pathKey) return true;
    if (path.recursive) return isStrictAncestor(path.pathKey, target.pathKey);
    return target.type === 'file' && parentKey(target.pathKey) === path.pathKey;
  });
}

/**
 * `access` as seen through the link: nothing outside its paths; inside, only the capabilities the
 * link names of those the creator holds, and a shared path itself is never deleted through its
 * link. No role survives: a link makes nobody an administrator of anything.
 */
export function narrowToExtent<T extends Access>(extent: Extent, target: Target, access: T): T {
  const inside = inExtent(extent, target);
  const shared = extent.paths.some((path) => path.pathKey === target.pathKey);
  const capabilities = inside
    ? access.capabilities.filter((capability) => LINK_CAPABILITIES.has(capability) && extent.capabilities.includes(capability) && !(shared && capability === 'delete'))
    : [];
  return { ...access, capabilities, siteAdmin: false, workspaceAdmin: false, folderAdmin: false };
}
