import type { Db } from '../db/database.js';
import { grantWorkspacesFor } from '../repositories/grants/index.js';
import { subjectOf } from './authority.js';
import type { Caller } from './caller.js';
import { granteeSetOf } from './grant-reach.js';

/**
 * The Workspaces a caller may see (contract 7): undefined for a Site Administrator, who sees every
 * one (a confined one only ever works in its home, which narrows the list there); for anyone else
 * the Workspaces it belongs to, administers, or holds a grant in.
 */
export async function workspacesVisibleTo(db: Db, caller: Caller): Promise<Set<number> | undefined> {
  if (caller.siteAdmin) return undefined;
  const user = caller.user;
  if (user === null) return new Set();
  const visible = await grantWorkspacesFor(db, await granteeSetOf(db, await subjectOf(db, user)));
  // A Workspace administered through a root grant is among those with grants.
  visible.add(user.workspaceId);
  return visible;
}
