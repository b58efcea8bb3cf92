// Access review: what a change to grants, memberships or users does to who can reach what, shown
// before it is made (a dry run) and kept with it in History. Decided by the same engine as every
// request. The only entrance to the feature.

export { type AccessChange } from './difference.js';
export { reviewChange, type ReviewedChange } from './review-change.js';
export {
  grantCreationScope, grantDeletionScope, groupDeletionScope, memberAdditionScope, memberRemovalScope, userChangeScope,
} from './scopes.js';
export { type ReviewScope } from './snapshot.js';
