// The pure authorization engine: no I/O, no clock, no database. Callers load the grants that can
// matter (the path's and its ancestors' grants for the user and its groups) and the memberships.

export type {
  Access,
  AdminRole,
  Capability,
  ChildAccess,
  ChildEntry,
  Decision,
  EntryType,
  Extent,
  ExtentPath,
  Grant,
  Grantee,
  GrantSource,
  GrantVia,
  Level,
  NearMiss,
  NearMissCode,
  NearMissReason,
  Reason,
  ReasonSource,
  RoleSource,
  Subject,
  Target,
} from './types.js';
export { CAPABILITY_ORDER, LEVELS, PARTNER_LEVELS, isLevel, levelCapabilities, partnerMayHold } from './levels.js';
export { childKey, childNameToward, parentKey, isStrictAncestor, workspaceOfPath, workspaceRootId, workspaceRootKey } from './site-paths.js';
export { coverageOf } from './coverage.js';
export type { Coverage } from './coverage.js';
export { grantMatches, granteeMatches, matchGrant, matchGrantee } from './matching.js';
export { givesFolderAdmin, isPartnerUser, workspaceAdminByFlag, workspaceAdminGrantWorkspace } from './roles.js';
export { decide, can } from './decide.js';
export { inExtent, narrowToExtent } from './extent.js';
export { decideChildren } from './batch.js';
export { childNamesTowardGrants, hasGrantBelow } from './grants-below.js';
export { replacedGrantIds, sameGrantee } from './replacement.js';
