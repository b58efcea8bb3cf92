// Access: every rule about who may reach what, over the pure engine in authz/. Who the caller is,
// which Workspace a request works in and which paths it can name; administrator checks; who sees
// which users, groups and grants; what a caller may do on a path. The only entrance to the feature.

export { isAdministratorOf, subjectOf, subjectOfCaller } from './authority.js';
export { type Call } from './call.js';
export { type Caller, callerFromApiKey, callerFromPassword, callerFromSession } from './caller.js';
export { assertCredentialReaches, credentialReaches, type OperationKind } from './credential-gate.js';
export { assertMayManageGrantsOn } from './grant-authority.js';
export { canSeeGrant, granteeSetOf, listVisibility, mayListGroup, mayListUser, mayListUserGrants, overseesPath, permissionReachIn, permissionReachOf, reachOverPath } from './grant-reach.js';
export { findVisibleGroup, groupVisibility } from './group-visibility.js';
export { assertMayAddSshKeyFor, keyOwnerWorkspaces, listableKeyOwner, manageableKeyOwner } from './key-owners.js';
export { membershipWorkspace } from './membership-workspace.js';
export { PathAccess, permissionLetters } from './path-access.js';
export { selfAndAncestorKeys } from './path-grants.js';
export {
  childrenOutsideReach, grantableSitePath, isInRequestWorkspace, isReservedSitePath, namedSitePath, type SitePath, toRequestPath, toSitePath,
} from './request-paths.js';
export { resolveRequestWorkspace } from './request-workspace.js';
export { accountReach, actsAtSiteLevel, assertActsAtSiteLevel, assertMaySetSiteAdmin, isConfined, reachesWorkspace } from './site-level.js';
export { holdsOverSubtree } from './subtree-access.js';
export { findVisibleUser, userVisibility } from './user-visibility.js';
