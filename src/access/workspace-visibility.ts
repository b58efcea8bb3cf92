import type { Db } from '../db/database.js';
import { grantWorkspacesFor } from '../repositories/grants/index.js';
import { subjectOf } from './authority.js';
import type { Caller } from './caller.js';
import { granteeSetOf } from './grant-reach.js';
import { isConfined } from './site-level.js';
import { workspaceExists } from '../repositories/workspaces.js';

/**
 * The Workspaces a caller may see (contract 7): undefined for a Site Administrator at the site
 * level, who sees every one; for anyone else the Workspaces it belongs to, administers, or holds a
 * grant in. A confined credential sees its home only, Workspace 0 included (contract 4.3: it acts
 * nowhere else).
 */
export async function workspacesVisibleTo(db: Db, caller: Caller): Promise<Set<number> | undefined> {
  if (isConfined(caller)) {
    const all = caller.siteAdmin ? undefined : await visibleByGrants(db, caller);
    return new Set(all === undefined || all.has(caller.homeWorkspaceId) ? [caller.homeWorkspaceId] : []);
  }
  return caller.siteAdmin ? undefined : visibleByGrants(db, caller);
}

async function visibleByGrants(db: Db, caller: Caller): Promise<Set<number>> {
  const user = caller.user;
  if (user === null) return new Set();
  const visible = await grantWorkspacesFor(db, await granteeSetOf(db, await subjectOf(db, user)));
  // A Workspace administered through a root grant is among those with grants.
  visible.add(user.workspaceId);
  return visible;
}

/**
 * Whether the caller may choose to work in this Workspace (directory/user-preferences.ts): one it
 * may see, which is also one its credential may select (a confined credential, a Custom
 * Workspace's or a Partner's user's among them, sees its home only), and that exists. Choosing
 * never grants anything; it only says where the console opens.
 */
export async function mayWorkIn(db: Db, caller: Caller, workspaceId: number): Promise<boolean> {
  const visible = await workspacesVisibleTo(db, caller);
  if (visible !== undefined && !visible.has(workspaceId)) return false;
  return workspaceExists(db, workspaceId);
}
