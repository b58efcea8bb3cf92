import type { Caller } from './caller.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { parseRecordId } from '../lib/record-id.js';
import { workspaceExists } from '../repositories/workspaces.js';

/**
 * The Workspace a request operates on (contract 4.1, 4.3). Selecting a Workspace never grants
 * anything; it only says where the request's Workspace-scoped reads and writes happen.
 */
export async function resolveRequestWorkspace(db: Db, caller: Caller, header: string | undefined): Promise<number> {
  if (header === undefined) return caller.homeWorkspaceId;
  const selected = parseRecordId(header);
  if (selected === undefined) throw errors.invalidWorkspaceIdHeader('A Workspace id is a whole number, 0 or more.');
  if (selected === caller.homeWorkspaceId) return selected;
  if (!maySelectOtherWorkspaces(caller)) {
    throw errors.invalidWorkspaceIdHeader(`This credential is confined to its own Workspace (${caller.homeWorkspaceId}) and cannot select Workspace ${selected}.`);
  }
  if (!(await workspaceExists(db, selected))) throw errors.invalidWorkspaceIdHeader(`Workspace ${selected} does not exist.`);
  return selected;
}

/**
 * Only a `full` key created in Workspace 0, or a session (or password sign-in) of a Workspace 0 user, may leave its home.
 * A `files_only` key stays home even when its user could go further, and so does anything
 * created in, or belonging to, a Custom Workspace, and anything of a Partner user.
 */
function maySelectOtherWorkspaces(caller: Caller): boolean {
  if (caller.user !== null && (caller.user.workspaceId !== 0 || caller.user.partnerId !== null)) return false;
  const credential = caller.credential;
  if (credential.kind !== 'api_key') return true;
  return credential.permissionSet === 'full' && credential.workspaceId === 0;
}
