import { errors } from '../errors/catalogue.js';
import type { KeyVisibility } from '../repositories/api-keys.js';
import type { PublicKeyVisibility } from '../repositories/public-keys.js';
import { findUserById, type User } from '../repositories/users.js';
import { isAdministratorOf } from './authority.js';
import { assertMayActAs } from './door-delegation.js';
import { assertPartnerAdminMayActOn, partnerAdminReach, partnerUsersWithManagedCredentials } from './partner-admin-authority.js';
import type { Call } from './call.js';
import type { Caller } from './caller.js';
import { actsAtSiteLevel, isConfined } from './site-level.js';

/**
 * Another user whose keys, API keys and SSH keys alike, the caller may manage in this context
 * (contract 3.4 and 7), or `user-not-found`:
 * - a Site Administrator at the site level: every user in context 0; in Custom Workspace N, N's
 *   users and the Workspace 0 users who may work there;
 * - a Site Administrator's credential confined to N: N's users; a Workspace 0 user is beyond its
 *   home (`not-authorized/site-admin-required`), since a key of that user would act outside it;
 * - an administrator of Custom Workspace N, working in N: N's users;
 * - a Partner Admin whose Partner has `allow_credential_changes`, working in the Partner's
 *   Workspace: the Partner's users who are no Partner Admins; the Partner's other users it sees
 *   are refused (partner-admin-authority.ts).
 * Anything else is answered as an unknown id, so no probe learns which users exist. A key signs in
 * as its user, so the user must use no protocol closed to the caller (door-delegation.ts).
 */
export async function manageableKeyOwner(a: Call, userId: number): Promise<User> {
  const { user, reach } = await keyOwnerReach(a, userId);
  if (reach === 'site-level') throw errors.siteAdminRequired();
  if (reach === 'hidden') throw errors.userNotFound();
  if (reach === 'refused') await assertPartnerAdminMayActOn(a.db, a.caller, a.requestWorkspaceId, 'credential-changes', user);
  await assertMayActAs(a.db, a.caller, user, 'create a key');
  return user;
}

/**
 * A user whose keys the caller may list (the `user_id` of GET /api_keys and /public_keys): those of
 * manageableKeyOwner. A Workspace 0 user is unknown to a credential confined to N, as GET
 * /users/<id> answers: reads keep the home's visibility (contract 4.3).
 */
export async function listableKeyOwner(a: Call, userId: number): Promise<User> {
  const { user, reach } = await keyOwnerReach(a, userId);
  if (reach !== 'yes') throw errors.userNotFound();
  return user;
}

/** manageableKeyOwner's rule: `site-level` for a Workspace 0 user and a confined Site Administrator. */
async function keyOwnerReach(a: Call, userId: number): Promise<{ user: User; reach: 'yes' | 'hidden' | 'site-level' | 'refused' }> {
  const user = await findUserById(a.db, userId);
  if (user === undefined) throw errors.userNotFound();
  const { caller, requestWorkspaceId } = a;
  if (actsAtSiteLevel(caller)) {
    const works = requestWorkspaceId === 0 || user.workspaceId === requestWorkspaceId || user.workspaceId === 0;
    return { user, reach: works ? 'yes' : 'hidden' };
  }
  if (requestWorkspaceId === 0 || user.workspaceId !== requestWorkspaceId) {
    return { user, reach: caller.siteAdmin && user.workspaceId === 0 ? 'site-level' : 'hidden' };
  }
  if (await isAdministratorOf(a.db, caller, requestWorkspaceId)) return { user, reach: 'yes' };
  // A Partner Admin whose Partner has allow_credential_changes: its Partner's users who are no Partner Admins.
  return { user, reach: await partnerAdminReach(a.db, caller, requestWorkspaceId, 'credential-changes', user) };
}

/**
 * The Workspaces whose users' SSH keys the caller sees in this context besides its own, the users
 * manageableKeyOwner accepts. `every` user for a Site Administrator at the site level in
 * context 0, N's and Workspace 0's users in Custom Workspace N; N's users only for an administrator
 * of N, a confined Site Administrator's credential included (it reads as N's administrators do);
 * nobody's for anyone else.
 */
export async function keyOwnerWorkspaces(a: Call): Promise<'every' | readonly number[]> {
  const { caller, requestWorkspaceId } = a;
  if (actsAtSiteLevel(caller)) return requestWorkspaceId === 0 ? 'every' : [requestWorkspaceId, 0];
  if (requestWorkspaceId !== 0 && (await isAdministratorOf(a.db, caller, requestWorkspaceId))) return [requestWorkspaceId];
  return [];
}

/**
 * An SSH key signs its user in at the SFTP door with that user's own authority, confined to
 * nothing (contract 4.3 confines only credentials of Custom Workspace users). So a confined
 * credential may not add one to a Workspace 0 account, its own included: the key would reach
 * beyond the Workspace the credential is confined to.
 */
export function assertMayAddSshKeyFor(caller: Caller, owner: User): void {
  if (isConfined(caller) && owner.workspaceId === 0) {
    throw errors.insufficientPermissionForParams(
      'A credential confined to one Workspace cannot add an SSH key to a Default Workspace account: the key would sign in beyond that Workspace.',
    );
  }
}

/**
 * Which keys the caller may see and manage in its context (contract 7): its own keys; a Site
 * Administrator at the site level every key (in context 0 those of every Workspace, since that is
 * where it works at the site level, as for users); an administrator of a Custom Workspace, a
 * confined Site Administrator's credential included, the keys of that Workspace's users created
 * there, as for SSH keys (keyOwnerWorkspaces); a Partner Admin with `allow_credential_changes`
 * the keys of the Partner's users it manages. Anything else is `not-found/api-key-not-found`, never
 * "forbidden", so no probe learns which keys exist.
 */
export async function apiKeyVisibility(a: Call): Promise<{ workspaceId: number | undefined; visibility: KeyVisibility }> {
  const { caller, requestWorkspaceId } = a;
  const siteLevel = actsAtSiteLevel(caller);
  const workspaceId = siteLevel && requestWorkspaceId === 0 ? undefined : requestWorkspaceId;
  // A confined Site Administrator's credential sees what its home's administrators see (below).
  if (siteLevel) return { workspaceId, visibility: { everyone: true } };
  const administers = requestWorkspaceId !== 0 && (await isAdministratorOf(a.db, caller, requestWorkspaceId));
  const visibility = { everyone: false as const, ownUserId: caller.user?.id ?? null, usersOfWorkspace: administers ? requestWorkspaceId : null };
  if (administers) return { workspaceId, visibility };
  return { workspaceId, visibility: { ...visibility, alsoUserIds: await partnerUsersWithManagedCredentials(a.db, caller, requestWorkspaceId) } };
}

/**
 * Which SSH keys the caller may see and manage in its context: its own; a Site Administrator those
 * of every user it works with there (every user in context 0; in Custom Workspace N, N's users
 * and Workspace 0's); an administrator of N, working in N, those of N's users; a Partner Admin
 * with `allow_credential_changes` those of the Partner's users it manages.
 */
export async function sshKeyVisibility(a: Call): Promise<PublicKeyVisibility> {
  const owners = await keyOwnerWorkspaces(a);
  if (owners === 'every') return { everyone: true };
  const visibility = { everyone: false as const, ownUserId: a.caller.user?.id ?? null, ownersOfWorkspaces: owners };
  if (owners.length > 0) return visibility;
  return { ...visibility, alsoUserIds: await partnerUsersWithManagedCredentials(a.db, a.caller, a.requestWorkspaceId) };
}
