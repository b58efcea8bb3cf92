import type { Db } from '../db/database.js';
import { grantWorkspacesFor } from '../repositories/grants/index.js';
import { subjectOf } from './authority.js';
import type { Caller } from './caller.js';
import { granteeSetOf } from './grant-reach.js';
import { isConfined } from './site-level.js';

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
