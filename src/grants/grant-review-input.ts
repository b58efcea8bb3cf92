import type { Grantee } from '../authz/index.js';
import { grantableSitePath, type Call, type SitePath } from '../access/index.js';
import { findGrant } from '../repositories/grants/index.js';
import type { CreateGrantInput } from './create-grant.js';
import { parseGranteeInput, resolveGrantee } from './grantees.js';

/**
 * What a grant change is about, for an access review to scope itself before the change is made:
 * the grant's path and grantee, or undefined when the input names none (the change itself will
 * then refuse it with its own error, which is the one the caller sees).
 */
export async function grantInputTarget(call: Call, input: CreateGrantInput): Promise<{ site: SitePath; grantee: Grantee } | undefined> {
  try {
    const site = grantableSitePath(call.requestWorkspaceId, input.path);
    const grantee = await resolveGrantee(call, parseGranteeInput(input), site, input.permission);
    return { site, grantee };
  } catch {
    return undefined;
  }
}

/** The same for an existing grant, by id. */
export async function grantTarget(call: Call, id: number): Promise<{ site: SitePath; grantee: Grantee } | undefined> {
  const record = await findGrant(call.db, id);
  if (record === undefined) return undefined;
  return { site: { path: record.path, key: record.pathKey, workspaceId: record.workspaceId }, grantee: record.grantee };
}
