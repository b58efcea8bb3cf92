import { toRequestPath, type Call } from '../access/index.js';

/**
 * A grant's site path as the request's Workspace names it: qualified in context 0, relative to
 * the Workspace root in a Custom Workspace ('' for the root). Callers only show grants inside the
 * context; the qualified path is the fallback should one slip through.
 */
export function grantPathInRequest(call: Call, sitePath: string): string {
  return toRequestPath(call.requestWorkspaceId, sitePath) ?? sitePath;
}
