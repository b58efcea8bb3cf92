// Directory: Workspaces, users, groups and memberships, and who may change them. The only
// entrance to the feature.

export { addGroupMember, listGroupMemberships, removeGroupMember, updateGroupMember } from './group-memberships.js';
export { createGroup, deleteGroup, getGroup, type GroupWithMembers, listGroups, updateGroup } from './groups.js';
export { parseIdList } from './user-fields.js';
export { createUser, deleteUser, listUsers, updateUserFields } from './users.js';
export { createWorkspace, deleteEmptyWorkspace, getVisibleWorkspace, listVisibleWorkspaces, renameVisibleWorkspace } from './workspaces.js';
