import { mayWorkIn, type Call } from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import { readLastWorkspaceId, writeLastWorkspaceId } from '../repositories/user-preferences.js';

/**
 * What a person chose for themselves and expects to find again wherever they sign in
 * (docs/workspaces-users-groups.md#the-workspace-one-works-in): for now, the Workspace they last
 * worked in, so that a new tab or another browser opens the console there rather than in their
 * home Workspace. It is the caller's own: no one reads or sets another's, and it grants nothing.
 */
export interface UserPreferences {
  /** Null until chosen, and again once the Workspace is gone or no longer theirs to work in. */
  lastWorkspaceId: number | null;
}

/** GET /user_preferences: the caller's own; a Workspace they may no longer work in reads as none. */
export async function readOwnPreferences(a: Call): Promise<UserPreferences> {
  const userId = ownUserId(a);
  const stored = await readLastWorkspaceId(a.db, userId);
  const usable = stored !== null && (await mayWorkIn(a.db, a.caller, stored));
  return { lastWorkspaceId: usable ? stored : null };
}

/**
 * PATCH /user_preferences: a Workspace the caller may work in, or null to forget the choice; any
 * other is `not-found/workspace-not-found`, as GET /workspaces/<id> answers it, so that the
 * answer tells nothing of Workspaces the caller may not see. Recorded in no History: it changes
 * nobody's access, only where the person's console opens.
 */
export async function setOwnPreferences(a: Call, changes: Partial<UserPreferences>): Promise<UserPreferences> {
  const userId = ownUserId(a);
  const chosen = changes.lastWorkspaceId;
  if (chosen === undefined) return readOwnPreferences(a);
  if (chosen !== null && !(await mayWorkIn(a.db, a.caller, chosen))) throw errors.workspaceNotFound();
  await writeLastWorkspaceId(a.db, userId, chosen);
  // Just checked: reading it back would only ask the same question again.
  return { lastWorkspaceId: chosen };
}

/** A site-wide key has no user, so no preferences. */
function ownUserId(a: Call): number {
  const user = a.caller.user;
  if (user === null) throw errors.notFound('A site-wide key has no user, so it has no preferences.');
  return user.id;
}
