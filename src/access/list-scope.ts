import type { Caller } from './caller.js';
import { siteScope, workspaceScope, type Scope } from '../repositories/scope.js';

/**
 * What a listing in the request context covers: a Site Administrator in context 0 works at the
 * site level and sees every Workspace's users and groups (filterable by `workspace_id`); everyone
 * else, and a Site Administrator who selected a Custom Workspace, works within that one Workspace.
 */
export function listScope(caller: Caller, requestWorkspaceId: number): Scope {
  return caller.siteAdmin && requestWorkspaceId === 0 ? siteScope : workspaceScope(requestWorkspaceId);
}
