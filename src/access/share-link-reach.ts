import type { Capability, Extent } from '../authz/index.js';

// What a share link's `permissions` let its visitors do (docs/sharing.md), as the engine's extent
// (authz/extent.ts): the engine then keeps, on the link's paths only, those of the creator's
// capabilities that the link names. So a link never gives more than its creator holds now.

/** Files.com's `permissions` of a Bundle that Atrium offers (`none` is refused when a link is made). */
export const SHARE_LINK_PERMISSIONS = ['read', 'write', 'read_write', 'full', 'preview_only'] as const;
export type ShareLinkPermissions = (typeof SHARE_LINK_PERMISSIONS)[number];

const CAPABILITIES_OF: Readonly<Record<ShareLinkPermissions, readonly Capability[]>> = {
  // Look and download; `preview_only` is the same reach, its visitors' downloads refused at the door.
  read: ['list', 'read'],
  preview_only: ['list', 'read'],
  // A file request: upload only, nobody's submission shown to the next visitor.
  write: ['write'],
  read_write: ['list', 'read', 'write'],
  // Also replace and delete what is there.
  full: ['list', 'read', 'write', 'delete'],
};

/** Whether visitors of a link with these permissions may upload: making such a link needs `write` too. */
export function shareLinkAcceptsUploads(permissions: ShareLinkPermissions): boolean {
  return CAPABILITIES_OF[permissions].includes('write');
}

/** The reach of a link sharing `paths` (qualified site path keys) with `permissions`. */
export function shareLinkExtent(permissions: ShareLinkPermissions, paths: readonly { pathKey: string; recursive: boolean }[]): Extent {
  return { paths: paths.map(({ pathKey, recursive }) => ({ pathKey, recursive })), capabilities: CAPABILITIES_OF[permissions] };
}
