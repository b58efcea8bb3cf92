import type { Call } from '../access/index.js';
import { groupNamesOf, usernamesOf, type GrantRecord } from '../repositories/grants/index.js';
import { partnerNamesByIds } from '../repositories/partners.js';

/** The names a set of grants mentions, by id. */
export interface GranteeNames {
  users: ReadonlyMap<number, string>;
  groups: ReadonlyMap<number, string>;
  partners: ReadonlyMap<number, string>;
}

/**
 * The names of the users, groups and Partners `records` name, and of `extra` ones (an explanation's near
 * misses name more), in one query per table. Only for grants the caller was already shown.
 */
export async function granteeNames(call: Call, records: readonly GrantRecord[], extra: { userIds?: number[]; groupIds?: number[]; partnerIds?: number[] } = {}): Promise<GranteeNames> {
  const userIds = new Set<number>(extra.userIds ?? []);
  const groupIds = new Set<number>(extra.groupIds ?? []);
  const partnerIds = new Set<number>(extra.partnerIds ?? []);
  for (const { grantee } of records) {
    if (grantee.kind === 'user') userIds.add(grantee.userId);
    else if (grantee.kind === 'group') groupIds.add(grantee.groupId);
    else if (grantee.kind === 'partner') partnerIds.add(grantee.partnerId);
    else for (const id of grantee.groupIds) groupIds.add(id);
  }
  return { users: await usernamesOf(call.db, userIds), groups: await groupNamesOf(call.db, groupIds), partners: await partnerNamesByIds(call.db, [...partnerIds]) };
}
