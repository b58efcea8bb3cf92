// Grants: the `permissions` and `permission_groups` tables. One row model (GrantRecord, and the
// engine's Grant from it), one way to ask which grants can name a user (grantee-set.ts). The only
// entrance to this module.

export { adminGrantsNaming } from './admin-grants.js';
export { type AllOfGrantee, allOfGrantIdsNamingAny, allOfGrantsNamingAny } from './all-of-grants.js';
export { type GrantRecord, toEngineGrant } from './grant-record.js';
export { grantPage, type GrantPageQuery, type GrantSortField, grantSortValue, type ListVisibility, type Subtree } from './grant-page.js';
export { grantWorkspacesFor } from './grant-workspaces.js';
export { deleteGrants, findGrant, grantsAfter, grantSpellingOf, insertGrant, type NewGrant } from './grant-writes.js';
export { granteeGrantsAtOrBelow } from './grantee-grants.js';
export {
  findGranteeGroupByName, findGranteeGroups, findGranteeUserByUsername, type GranteeGroup, groupNamesOf, usernamesOf,
} from './grantee-lookups.js';
export { granteesThatCanMatch, type GranteeSet, type GrantHolder } from './grantee-set.js';
export { grantsBelowThatCanMatch } from './grants-below.js';
export { grantsOnPaths, grantsThatCanMatch } from './grants-on-paths.js';
export { administratorIdsByFlag, type GrantedPath, grantedPathsPage, membershipPairsOfGroups } from './reach-candidates.js';
