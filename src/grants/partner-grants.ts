import type { Call } from '../access/index.js';
import type { HistoryEvent } from '../history/index.js';
import { deleteGrants, granteeGrantsAtOrBelow, type GrantRecord } from '../repositories/grants/index.js';
import { grantEvents } from './grant-history.js';

// A Partner's grants as a whole, for the Partner's own changes (docs/partners.md): a new root
// folder must still hold them, and deleting the Partner deletes them, each recorded.

/** Every grant naming the Partner, by id. */
export function grantsOfPartner(call: Call, partnerId: number): Promise<GrantRecord[]> {
  return granteeGrantsAtOrBelow(call.db, { kind: 'partner', partnerId }, '', true);
}

/**
 * Deletes the Partner's grants (in the caller's transaction, `call.db`) and answers their History
 * `permission_destroy` records. The database would drop them with the Partner anyway; deleting
 * them here is what records each.
 */
export async function deletePartnerGrants(call: Call, partnerId: number): Promise<HistoryEvent[]> {
  const grants = await grantsOfPartner(call, partnerId);
  await deleteGrants(call.db, grants.map((grant) => grant.id));
  return grantEvents(call, grants.map((grant) => ({ action: 'permission_destroy' as const, grant })));
}
