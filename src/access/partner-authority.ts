import type { Caller } from './caller.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { findPartnerById, type Partner } from '../repositories/partners.js';
import { inScope, type Scope } from '../repositories/scope.js';
import { isAdministratorOf } from './authority.js';
import { listScope } from './list-scope.js';

// Who may see and manage Partners (docs/partners.md). A Partner exists only in its Workspace:
// seen from another Workspace it is not found, never refused, so nothing is learnt of it. Its
// administrators are the Site Administrators and that Workspace's Administrators. A Partner's own
// users and Partner Admins see their Partner (without its notes); nobody else sees one.

export interface PartnerVisibility {
  scope: Scope;
  /** Administrators of the context see every Partner in scope; others see none but `ownPartnerId`. */
  everyone: boolean;
  /** The caller's own Partner, when its user is a Partner user. */
  ownPartnerId: number | null;
}

export async function partnerVisibility(db: Db, caller: Caller, requestWorkspaceId: number): Promise<PartnerVisibility> {
  return {
    scope: listScope(caller, requestWorkspaceId),
    everyone: await isAdministratorOf(db, caller, requestWorkspaceId),
    ownPartnerId: caller.user?.partnerId ?? null,
  };
}

/** The Partner when the caller may see it in this context, else `not-found` (Partner not found). */
export async function findVisiblePartner(db: Db, caller: Caller, requestWorkspaceId: number, id: number): Promise<Partner> {
  const partner = await findPartnerById(db, id);
  if (partner === undefined) throw errors.partnerNotFound();
  const visibility = await partnerVisibility(db, caller, requestWorkspaceId);
  if (!inScope(visibility.scope, partner.workspaceId) || !(visibility.everyone || visibility.ownPartnerId === partner.id)) throw errors.partnerNotFound();
  return partner;
}

/** Creating, changing and deleting a Workspace's Partners: its administrators only. */
export async function assertMayManagePartnersOf(db: Db, caller: Caller, workspaceId: number): Promise<void> {
  if (!(await isAdministratorOf(db, caller, workspaceId))) throw errors.workspaceAdminRequired();
}

/**
 * Whether the caller is shown a Partner's notes: Site Administrators and administrators of the
 * Partner's Workspace (Files.com shows them to Site Administrators only; in Atrium a Workspace's
 * Administrators manage its Partners, so the notes are theirs too).
 */
export function mayReadPartnerNotes(db: Db, caller: Caller, partner: Pick<Partner, 'workspaceId'>): Promise<boolean> {
  return isAdministratorOf(db, caller, partner.workspaceId);
}
