import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { isAdministratorOf } from './authority.js';
import type { Caller } from './caller.js';

/**
 * How a user signs in (`authentication_method`, `sso_strategy_id`), set at its creation or changed
 * later, is for an administrator of the user's Workspace, and never for the caller's own account
 * (moving itself to a provider would remove its own password; another administrator does it). A
 * Partner Admin creating or changing its Partner's users may not: it would hand their sign-in to
 * an identity provider the site's administrators chose for other users. `userId` is null for a
 * user being created.
 */
export async function assertMayChangeAuthentication(db: Db, caller: Caller, workspaceId: number, userId: number | null): Promise<void> {
  if (!(await isAdministratorOf(db, caller, workspaceId))) {
    throw errors.insufficientPermissionForParams('Only an administrator of the user\'s Workspace may change authentication_method or sso_strategy_id.');
  }
  if (userId !== null && caller.user?.id === userId) {
    throw errors.modelSaveError({ authentication_method: ['cannot be changed for yourself: another administrator changes it'] });
  }
}
