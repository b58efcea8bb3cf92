// Directory: Workspaces, users, groups and memberships, and who may change them. The only
// entrance to the feature.

export { type GroupMember, type UserGroupIds } from '../repositories/memberships.js';
export { type NameParts, type User, type UserProfile } from '../repositories/users.js';
export { type GroupFilter, type GroupSortField, groupSortValue } from '../repositories/groups.js';
export { type UserFilter, type UserSortField, userSortValue } from '../repositories/user-listing.js';
export { type Workspace } from '../repositories/workspaces.js';
export { addGroupMember, changeGroupMembers, listGroupMemberships, removeGroupMember, updateGroupMember } from './group-memberships.js';
export { createGroup, deleteGroup, getGroup, type GroupWithMembers, listGroups, updateGroup, visibleGroupNames } from './groups.js';
export { getUser, listUsers, userGroupIds, usersWithVisibleNotes } from './user-reads.js';
export { createUser, deleteUser, updateUserFields } from './users.js';
export { type AuthenticationInput } from './user-authentication.js';
export { createProvisionedUser } from './provisioned-users.js';
export { userPartnerNames } from './user-partners.js';
export { deletePartnerUsers } from './partner-user-rules.js';
export { checkAllowedIps, checkNotes, checkText, type UserProfileInput } from './user-fields.js';
export { readOwnPreferences, setOwnPreferences, type UserPreferences } from './user-preferences.js';
export { resendWelcomeEmail, resetUserTwoFactor, unlockUser, userLockouts, userSecondFactors } from './user-sign-in-help.js';
export { createWorkspace, deleteEmptyWorkspace, getVisibleWorkspace, listVisibleWorkspaces, renameVisibleWorkspace } from './workspaces.js';
export { checkUsername } from './user-fields.js';
export { userCreated } from './directory-history.js';
export { followGroupClaim } from './user-groups.js';
