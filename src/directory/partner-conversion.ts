import { assertMayManagePartnersOf, findVisiblePartner, type Call } from '../access/index.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import type { ModelErrors } from '../errors/atrium-error.js';
import { granteeGrantsAtOrBelow } from '../repositories/grants/index.js';
import { groupIdsOfUser } from '../repositories/memberships.js';
import type { User } from '../repositories/users.js';

// `convert_to_partner_user` (docs/partners.md, "Converting a user"): an existing user becomes a
// user of a Partner. A Partner user's only authority is its Partner's, so a user who holds any
// of its own is not converted: it must first leave its groups, lose its administrative flags and
// its own grants, each named in the refusal. Nothing is taken from it quietly.

/**
 * The Partner `target` is to be converted into, or undefined when it already is that Partner's
 * (no change). Only administrators of the Partner's Workspace convert (a Partner the caller cannot
 * see is `not-found`); the user must already be of the Partner's Workspace and of no Partner.
 */
export async function plannedConversion(a: Call, target: User, partnerId: number | null | undefined): Promise<number | undefined> {
  if (partnerId === undefined || partnerId === null) throw errors.paramsRequired({ partner_id: ['is required with convert_to_partner_user: it names the Partner'] });
  const partner = await findVisiblePartner(a.db, a.caller, a.requestWorkspaceId, partnerId);
  await assertMayManagePartnersOf(a.db, a.caller, partner.workspaceId);
  if (target.partnerId === partner.id) return undefined;
  if (target.partnerId !== null) throw errors.modelSaveError({ partner_id: ['the user already belongs to another Partner: a user belongs to at most one'] });
  if (target.workspaceId !== partner.workspaceId) {
    throw errors.modelSaveError({ workspace_id: [`the user is of Workspace ${target.workspaceId}, not of the Partner's (${partner.workspaceId}): a Partner user belongs to its Partner's Workspace`] });
  }
  await assertConvertible(a.db, target);
  return partner.id;
}

/** Refuses, naming each, what the user holds of its own: administrative flags, groups, grants. */
export async function assertConvertible(db: Db, user: User): Promise<void> {
  const obstacles: ModelErrors = {};
  if (user.siteAdmin) obstacles.site_admin = ['the user is a Site Administrator: a Partner user holds no administration'];
  if (user.workspaceAdmin) obstacles.workspace_admin = ['the user is a Workspace Administrator: a Partner user holds no administration'];
  const groups = await groupIdsOfUser(db, user.id);
  if (groups.length > 0) obstacles.group_ids = [`the user belongs to groups ${groups.join(', ')}: a Partner user belongs to no group`];
  const grants = await granteeGrantsAtOrBelow(db, { kind: 'user', userId: user.id }, '', true);
  if (grants.length > 0) obstacles.permissions = [`the user holds grants of its own (${grants.map((grant) => grant.id).join(', ')}): a Partner user's access is its Partner's`];
  if (Object.keys(obstacles).length > 0) throw errors.modelSaveError(obstacles);
}
