import type { Grantee, GrantVia, NearMissReason, Subject } from './types.js';

export type GranteeMatch =
  | { readonly matched: true; readonly via: GrantVia }
  | { readonly matched: false; readonly reason: NearMissReason };

/** Whether a grant's grantee is the subject, directly or through its groups (contract 5.2). */
export function matchGrantee(subject: Subject, grantee: Grantee): GranteeMatch {
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
