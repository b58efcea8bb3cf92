// Access: every rule about who may reach what, over the pure engine in authz/. Who the caller is,
// which Workspace a request works in and which paths it can name; administrator checks; who sees
// which users, groups and grants; what a caller may do on a path. The only entrance to the feature.

export { assertMayManageAutomationsOf, automationListScope, findVisibleAutomation } from './automation-authority.js';
export { isAdministratorOf, subjectOf, subjectOfCaller } from './authority.js';
export { assertMayShare, bundleCreator, bundleListScope, creatorOf, findVisibleBundle, type SharedPath } from './bundle-authority.js';
export { type Call } from './call.js';
export { type Caller, callerFromApiKey, callerFromPassword, callerFromSession, callerOfAutomation, callerOfShareLink } from './caller.js';
export { assertCredentialReaches, credentialReaches, type OperationKind } from './credential-gate.js';
export { accountActive, addressAllowed, assertAddressAdmits, assertDoorAdmits, assertListKeepsCaller, type Door, type DoorConnection } from './door-admission.js';
export { assertJoiningOpensOnlyOwnDoors, assertMayActAs, assertOpensOnlyOwnDoors, newUserDoorDefaults } from './door-delegation.js';
export { assertMayManageGrantsOn, type GrantExtent, mayNameGrantee } from './grant-authority.js';
export { canSeeGrant, granteeSetOf, listVisibility, mayListGroup, mayListUser, mayListUserGrants, overseesPath, permissionReachIn, permissionReachOf, reachOverPath } from './grant-reach.js';
export { findVisibleGroup, groupVisibility } from './group-visibility.js';
export { assertUserHistoryVisible, historyPartsFor } from './history-visibility.js';
export { apiKeyVisibility, assertMayAddSshKeyFor, keyOwnerWorkspaces, listableKeyOwner, manageableKeyOwner, sshKeyVisibility } from './key-owners.js';
export { holdsLock, mayRemoveLock } from './lock-authority.js';
export { assertPasswordChangeAllows, assertUpdateChangesPassword, passwordChangePending, type PasswordChangeReach } from './password-change-gate.js';
export { membershipWorkspace } from './membership-workspace.js';
export {
  assertPartnerAdminMayActOn, partnerAdministrationOf, type PartnerAdminPower, partnerAdminReach, partnerForNewUserBy, partnerUsersVisibleTo,
  partnerUsersWithManagedCredentials,
} from './partner-admin-authority.js';
export { assertMayManagePartnersOf, findVisiblePartner, mayReadPartnerNotes, partnerVisibility } from './partner-authority.js';
export { assertPartnerGrantFits, assertRootHoldsGrants, isInsidePartnerRoot, partnerRootKey } from './partner-grants.js';
export { PathAccess, permissionLetters } from './path-access.js';
export {
  type FilesystemLayout, filesystemLayoutOf, framedSitePath, framePathOf, type PathFrame, pathFrameOf, pathOfCall, prefixKeyInFrame, siteInFrame, sitePathOfCall, workspaceFrame,
} from './path-frame.js';
export { grantHolderOf, grantsOnPathsFor, selfAndAncestorKeys } from './path-grants.js';
export {
  childrenOutsideReach, grantableSitePath, isInRequestWorkspace, isReservedSitePath, namedSitePath, type SitePath, toRequestPath, toSitePath,
} from './request-paths.js';
export { mayListVersions, mayRecoverTrashed, mayRestoreVersion } from './recovery-authority.js';
export { resolveRequestWorkspace } from './request-workspace.js';
export { accountReach, actsAtSiteLevel, assertActsAtSiteLevel, assertMaySetSiteAdmin, authorityKeyOf, isConfined, reachesWorkspace } from './site-level.js';
export { SHARE_LINK_PERMISSIONS, type ShareLinkPermissions, shareLinkAcceptsUploads, shareLinkExtent } from './share-link-reach.js';
export { holdsOverSubtree } from './subtree-access.js';
export { findVisibleUser, userVisibility } from './user-visibility.js';
export { mayWorkIn, workspacesVisibleTo } from './workspace-visibility.js';
export { assertChangesOwnSecondFactors, assertMaySetTwoFactorRequirement } from './second-factor-authority.js';
export { assertMayChangeAuthentication } from './authentication-authority.js';
