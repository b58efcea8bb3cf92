import { pathOfCall, type Call } from '../access/index.js';

/**
 * A grant's site path as the request's Workspace names it: qualified in context 0, relative to
 * the Workspace root in a Custom Workspace ('' for the root), relative to its Partner's root
 * folder for a Partner user. Callers only show grants inside the context; the qualified path is
 * the fallback should one slip through.
 */
export function grantPathInRequest(call: Call, sitePath: string): string {
  return pathOfCall(call, sitePath) ?? sitePath;
}
