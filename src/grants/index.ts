// Grants: folder permission grants. Create, replace, delete, list and explain them. The only
// entrance to the feature.

export { createPermission, deletePermission } from './create-and-delete.js';
export { explainAccess, type Explanation } from './explain.js';
export { listPermissionsFor } from './listing.js';
