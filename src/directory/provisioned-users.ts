import { isAdministratorOf, type Call } from '../access/index.js';
import { errors } from '../errors/catalogue.js';
import type { User } from '../repositories/users.js';
import { createUser, type NewUserInput } from './users.js';

/**
 * A user an identity provider provisions (SCIM's POST /Users), as createUser makes any user, with
 * one rule more: only an administrator of the Workspace provisions a Partner user by naming its
 * Partner (`partner_id`). A Partner Admin provisioning users gets them in its own Partner without
 * naming it; naming one is an attribute its key may not set (docs/scim.md), since a provider's
 * mapping that names Partners belongs to the Workspace's administrators.
 */
export async function createProvisionedUser(a: Call, input: NewUserInput): Promise<User> {
  if (input.partnerId !== undefined && input.partnerId !== null && !(await isAdministratorOf(a.db, a.caller, a.requestWorkspaceId))) {
    throw errors.insufficientPermissionForParams('partner_id is provisioned by administrators of the Workspace only.');
  }
  return createUser(a, input);
}
