import type { Grantee } from '../authz/index.js';
import { workspaceRootKey } from '../authz/index.js';
import type { Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import { grantInputTarget, grantTarget, type CreateGrantInput } from '../grants/index.js';
import { workspaceRootPath } from '../lib/paths.js';
import { grantsNaming, groupIdsOfUsers, memberIdsOf, usersByIds } from '../repositories/access-review.js';
import { findMembership } from '../repositories/memberships.js';
import type { ReviewScope } from './snapshot.js';
import { usersOfPartners } from '../repositories/users.js';

// Which paths and users each reviewable change can affect, read before the change. The difference
// is shown on the paths the change is about: a grant's path; for a membership or a group's
// deletion, each path of the group's grants; for a user's flags, disabling or deletion, the site
// root, its Workspace's root and each path of a grant that names it or one of its groups. On each,
// what a user keeps through other grants shows in `capabilities_after`: the change never takes
// away what an independent grant gives (rule 6). Below those paths the change acts the same way,
// except where the user's own grants there already give what it gains or loses; listing every
// such path for every member of a large group would bury the answer (docs/permissions.md). When
// the input names nothing, the scope is empty and the change's own refusal is what the caller gets.

const EMPTY: ReviewScope = { paths: [], userIds: [] };

/** The users a grantee names: a user, a group's members, the members of every group of an ALL-of set, or a Partner's users. */
async function usersOfGrantee(db: Db, grantee: Grantee): Promise<number[]> {
  switch (grantee.kind) {
    case 'user':
      return [grantee.userId];
    case 'group':
      return memberIdsOf(db, grantee.groupId);
    case 'groups': {
      const [first = [], ...others] = await Promise.all(grantee.groupIds.map((id) => memberIdsOf(db, id)));
      return first.filter((id) => others.every((members) => members.includes(id)));
    }
    case 'partner':
      return (await usersOfPartners(db, [grantee.partnerId])).map((user) => user.id);
  }
}

/** A grant created or deleted: its grantee's users, on its path. */
async function grantChangeScope(db: Db, target: Awaited<ReturnType<typeof grantTarget>>): Promise<ReviewScope> {
  if (target === undefined) return EMPTY;
  return { paths: [{ key: target.site.key, path: target.site.path }], userIds: await usersOfGrantee(db, target.grantee) };
}

export const grantCreationScope = (call: Call, input: CreateGrantInput) => async (db: Db): Promise<ReviewScope> =>
  grantChangeScope(db, await grantInputTarget({ ...call, db }, input));

export const grantDeletionScope = (call: Call, id: number) => async (db: Db): Promise<ReviewScope> =>
  grantChangeScope(db, await grantTarget({ ...call, db }, id));

/** The distinct paths of some grants, first spelling kept. */
function distinctPaths(grants: readonly { key: string; path: string }[], start: readonly { key: string; path: string }[] = []): { key: string; path: string }[] {
  const paths = new Map(start.map(({ key, path }) => [key, path]));
  for (const grant of grants) if (!paths.has(grant.key)) paths.set(grant.key, grant.path);
  return [...paths].map(([key, path]) => ({ key, path }));
}

/** The paths of a group's grants, ALL-of grants listing it included. */
async function groupPaths(db: Db, groupId: number): Promise<{ key: string; path: string }[]> {
  return distinctPaths(await grantsNaming(db, { userIds: [], groupIds: [groupId] }));
}

export const memberAdditionScope = (groupId: number, userId: number) => async (db: Db): Promise<ReviewScope> =>
  ({ paths: await groupPaths(db, groupId), userIds: [userId] });

export const memberRemovalScope = (membershipId: number) => async (db: Db): Promise<ReviewScope> => {
  const membership = await findMembership(db, membershipId);
  return membership === undefined ? EMPTY : { paths: await groupPaths(db, membership.groupId), userIds: [membership.userId] };
};

/**
 * A user's flags or groups changed, or the user disabled or deleted. `joiningGroupIds` are the
 * groups an update names (its `group_ids`): the paths of their grants too, where joining one changes
 * what the user reaches.
 */
export const userChangeScope = (userId: number, joiningGroupIds: readonly number[] = []) => async (db: Db): Promise<ReviewScope> => {
  const [user] = await usersByIds(db, [userId]);
  if (user === undefined) return EMPTY;
  const roots = [{ key: '', path: '' }];
  if (user.workspaceId !== 0) roots.push({ key: workspaceRootKey(user.workspaceId), path: workspaceRootPath(user.workspaceId) });
  const groupIds = [...new Set([...((await groupIdsOfUsers(db, [userId])).get(userId) ?? []), ...joiningGroupIds])];
  return { paths: distinctPaths(await grantsNaming(db, { userIds: [userId], groupIds }), roots), userIds: [userId] };
};

/** A group deleted: its members, on the paths of its grants. */
export const groupDeletionScope = (groupId: number) => async (db: Db): Promise<ReviewScope> =>
  ({ paths: await groupPaths(db, groupId), userIds: await memberIdsOf(db, groupId) });
