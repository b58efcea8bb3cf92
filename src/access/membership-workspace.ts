import type { Caller } from './caller.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { workspaceExists } from '../repositories/workspaces.js';

/**
 * The Workspace a new resource belongs to (contract 4.2). The `workspace_id` field states
 * membership and is separate from the context: in a Custom Workspace context it defaults to that
 * Workspace and may not differ; in context 0 it defaults to 0 and only a Site Administrator may
 * name another Workspace.
 */
export async function membershipWorkspace(db: Db, caller: Caller, requestWorkspaceId: number, requested: number | undefined): Promise<number> {
  if (requested === undefined || requested === requestWorkspaceId) return requestWorkspaceId;
  if (requestWorkspaceId !== 0 || !caller.siteAdmin) {
    throw errors.insufficientPermissionForParams(`workspace_id ${requested} does not match the selected Workspace ${requestWorkspaceId}.`, { header: 'workspace' });
  }
  if (!(await workspaceExists(db, requested))) throw errors.workspaceNotFound();
  return requested;
}
