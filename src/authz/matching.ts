import { partnerMayHold } from './levels.js';
import { isPartnerUser } from './roles.js';
import type { Grant, Grantee, GrantVia, NearMissReason, Subject } from './types.js';

export type GranteeMatch =
  | { readonly matched: true; readonly via: GrantVia }
  | { readonly matched: false; readonly reason: NearMissReason };

/** Whether a grant's grantee is the subject, directly or through its groups (contract 5.2). */
export function matchGrantee(subject: Subject, grantee: Grantee): GranteeMatch {
  if (grantee.kind === 'partner') {
    return isPartnerUser(subject) && subject.partnerId === grantee.partnerId
      ? { matched: true, via: { partnerId: grantee.partnerId } }
      : { matched: false, reason: { code: 'other_partner', partnerId: grantee.partnerId } };
  }
  // A Partner user's access is exactly its Partner's grants: a user or group grant never applies
  // to it, whatever the data says (none can be created for it; this holds should one appear).
  if (isPartnerUser(subject)) return { matched: false, reason: { code: 'partner_user' } };
  switch (grantee.kind) {
    case 'user':
      return grantee.userId === subject.userId
        ? { matched: true, via: 'user' }
        : { matched: false, reason: { code: 'other_user', userId: grantee.userId } };
    case 'group':
      return subject.groupIds.has(grantee.groupId)
        ? { matched: true, via: { groupId: grantee.groupId } }
        : { matched: false, reason: { code: 'not_member', groupId: grantee.groupId } };
    case 'groups':
      return matchAllOf(subject, grantee.groupIds);
    default:
      // A grantee kind we do not know (bad row, newer schema) matches nobody: fail closed.
      return { matched: false, reason: { code: 'invalid_grantee' } };
  }
}

function matchAllOf(subject: Subject, groupIds: readonly number[]): GranteeMatch {
  // "All of no groups" is vacuously true for everyone; such a grant must match nobody instead.
  if (groupIds.length === 0) return { matched: false, reason: { code: 'invalid_grantee' } };
  // ALL-of, never any-of: a single missing membership is enough to refuse.
  const missing = [...new Set(groupIds)].filter((groupId) => !subject.groupIds.has(groupId));
  return missing.length === 0
    ? { matched: true, via: { groupIds } }
    : { matched: false, reason: { code: 'missing_groups', missingGroupIds: missing } };
}

/** The yes/no form. Derived from matchGrantee so that a listing and a check cannot disagree. */
export function granteeMatches(subject: Subject, grantee: Grantee): boolean {
  return matchGrantee(subject, grantee).matched;
}

/**
 * Whether a grant applies to the subject as far as who it names goes: matchGrantee, except that a
 * Partner grant of a level no Partner may hold (PARTNER_LEVELS) matches nobody. Grant creation
 * refuses such grants; should one be stored anyway, the engine fails closed.
 */
export function matchGrant(subject: Subject, grant: Pick<Grant, 'grantee' | 'level'>): GranteeMatch {
  if (grant.grantee.kind === 'partner' && !partnerMayHold(grant.level)) return { matched: false, reason: { code: 'invalid_grantee' } };
  return matchGrantee(subject, grant.grantee);
}

/** The yes/no form of matchGrant. */
export function grantMatches(subject: Subject, grant: Pick<Grant, 'grantee' | 'level'>): boolean {
  return matchGrant(subject, grant).matched;
}
