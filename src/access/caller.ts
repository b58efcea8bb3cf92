import type { Extent } from '../authz/index.js';
import type { PermissionSet } from '../repositories/api-keys.js';
import { type User } from '../repositories/users.js';

export type Credential =
  | { kind: 'session'; sessionId: number; reauthFailures: number }
  | { kind: 'api_key'; keyId: number; permissionSet: PermissionSet; workspaceId: number }
  /** A username and password sent with the request itself (HTTP Basic at WebDAV, SFTP's password). */
  | { kind: 'password' }
  /**
   * A share link's visitor (docs/sharing.md): its creator's access as it is now, narrowed to the
   * link's reach by the engine (authz/extent.ts). It reaches file operations only.
   */
  | { kind: 'share_link'; bundleId: number; extent: Extent };

/**
 * Who is calling: the user (null for a site-wide key) and the credential used. Authentication
 * produces this and decides nothing else; authority is decided per request from current data.
 */
export interface Caller {
  user: User | null;
  credential: Credential;
  /** Site Administrator authority: a site_admin user, or a site-wide key. */
  siteAdmin: boolean;
  /** The Workspace a request operates on when it selects none (contract 4.1). */
  homeWorkspaceId: number;
}

export function callerFromSession(user: User, sessionId: number, reauthFailures: number): Caller {
  return {
    user,
    credential: { kind: 'session', sessionId, reauthFailures },
    siteAdmin: user.siteAdmin,
    homeWorkspaceId: user.workspaceId,
  };
}

export function callerFromApiKey(
  user: User | null,
  key: { id: number; permissionSet: PermissionSet; workspaceId: number },
): Caller {
  return {
    user,
    credential: { kind: 'api_key', keyId: key.id, permissionSet: key.permissionSet, workspaceId: key.workspaceId },
    siteAdmin: user === null ? true : user.siteAdmin,
    // An account of a Custom Workspace, or of a Partner, is scoped to its Workspace whatever context its key was made in.
    homeWorkspaceId: user !== null && (user.workspaceId !== 0 || user.partnerId !== null) ? user.workspaceId : key.workspaceId,
  };
}

/** A user who signed in with its password on this request or connection: its own authority, as a session has. */
export function callerFromPassword(user: User): Caller {
  return { user, credential: { kind: 'password' }, siteAdmin: user.siteAdmin, homeWorkspaceId: user.workspaceId };
}

/**
 * An automation's run (docs/automations.md#who-may): it acts with the authority of its Workspace,
 * as that Workspace's own key would, never beyond it. In a Custom Workspace that is a Site
 * Administrator's authority confined to the Workspace (site-level.ts); in Workspace 0, the site's,
 * reaching the Custom Workspaces' roots as a Site Administrator does. Key id 0 is no stored key:
 * History names the automation instead (lib/origin.ts).
 */
export function callerOfAutomation(workspaceId: number): Caller {
  return callerFromApiKey(null, { id: 0, permissionSet: 'full', workspaceId });
}

/**
 * Whoever opens a share link: it acts as the link's creator as that user is now, through the
 * link's reach only (share-link-reach.ts), in the link's Workspace. No administrator authority
 * comes with it, whatever its creator's.
 */
export function callerOfShareLink(creator: User, link: { bundleId: number; workspaceId: number; extent: Extent }): Caller {
  return { user: creator, credential: { kind: 'share_link', bundleId: link.bundleId, extent: link.extent }, siteAdmin: false, homeWorkspaceId: link.workspaceId };
}
