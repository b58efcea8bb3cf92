// Grants: folder permission grants. Create, replace, delete, list and explain them; every call
// takes a Call (access/call.ts) first. The only entrance to the feature.

export { type Call } from '../access/index.js';
export { type CreatedGrant, type CreateGrantInput, createGrant } from './create-grant.js';
export { type AuditedGrant, type CreatorFinding, type GrantCreator, grantsBeyondTheirCreators } from './creator-audit.js';
export { deleteGrant } from './delete-grant.js';
export { explainAccess, type ExplainRequest, type Explanation } from './explain.js';
export { granteeNames, type GranteeNames } from './grantee-names.js';
export { type GrantListFilter, listGrants } from './listing.js';
export { type GrantRecord, type GrantSortField, grantSortValue } from '../repositories/grants/index.js';
export { deletePartnerGrants, grantsOfPartner } from './partner-grants.js';
export { grantPathInRequest } from './request-path.js';
export { grantInputTarget, grantTarget } from './grant-review-input.js';
export { effectiveAccessExport, type ExportedPath } from './reach/effective-access-export.js';
export { type PathReach, reachOfPath, type ReachRequest } from './reach/path-reach.js';
export { LEVEL_RANK, reachOn, type ReachCause, type ReachTarget, type UserReach } from './reach/reach-on.js';
export { type ShownCause, type ShownUserReach } from './reach/reach-visibility.js';
