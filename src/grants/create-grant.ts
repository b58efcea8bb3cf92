import { replacedGrantIds, type Grantee, type Level } from '../authz/index.js';
import { assertMayManageGrantsOn, grantableSitePath, type Call, type SitePath } from '../access/index.js';
import type { Db } from '../db/database.js';
import { takeTurn } from '../db/serialise.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors/catalogue.js';
import { recordHistory } from '../history/index.js';
import { isRecordId } from '../lib/record-id.js';
import { refusingBrokenReferences } from '../repositories/constraint-errors.js';
import { entrySpelling } from '../repositories/entries.js';
import {
  deleteGrants, granteeGrantsAtOrBelow, grantSpellingOf, insertGrant, toEngineGrant, type GrantRecord,
} from '../repositories/grants/index.js';
import { workspaceExists } from '../repositories/workspaces.js';
import { grantEvents } from './grant-history.js';
import { parseGranteeInput, resolveGrantee, type GranteeFields } from './grantees.js';

export interface CreateGrantInput extends GranteeFields {
  path: string;
  permission: Level;
  recursive?: boolean;
  workspace_id?: number;
}

export interface CreatedGrant {
  grant: GrantRecord;
  replacedIds: number[];
}

/**
 * POST /permissions (contract 5.2, 5.3). Checks run from the cheapest and least revealing to the
 * most: input shape, path, membership field, the caller's authority over the path, then the
 * grantee. Authority comes before the grantee so that a caller without authority learns nothing
 * about which users or groups exist. The insert and the replacement of the grants it subsumes are
 * one transaction, which waits for any other creating a grant for the same grantee: each then
 * replaces what the one before it left, so identical requests at once leave one grant, as one after
 * another do (contract 5.2, Replacement).
 */
export async function createGrant(call: Call, input: CreateGrantInput): Promise<CreatedGrant> {
  const { db, caller, requestWorkspaceId } = call;
  const granteeInput = parseGranteeInput(input);
  const site = grantableSitePath(requestWorkspaceId, input.path);
  assertMembershipField(input.workspace_id, requestWorkspaceId, site);
  const recursive = input.recursive ?? true;
  await assertMayManageGrantsOn(db, caller, { site, recursive });
  // Only a Site Administrator gets this far for a Workspace id that does not exist (nobody else
  // can hold authority in it), so answering not-found here reveals nothing to anyone else.
  if (!(await pathWorkspaceExists(db, site.workspaceId))) throw errors.workspaceNotFound();
  const grantee = await resolveGrantee(call, granteeInput, site, input.permission);
  const path = (await existingSpelling(db, site.key)) ?? site.path;

  return inTransaction(db, async (tx) => {
    await takeTurn(tx, grantsOf(grantee));
    // The grantee was deleted since it was found: answered as if this came after that.
    const created = await refusingBrokenReferences(() => insertGrant(tx, {
      workspaceId: site.workspaceId,
      path,
      pathKey: site.key,
      grantee,
      level: input.permission,
      recursive,
      now: call.now,
    }), grantee.kind === 'user' ? errors.userNotFound : grantee.kind === 'partner' ? errors.partnerNotFound : errors.groupNotFound);
    const candidates = await granteeGrantsAtOrBelow(tx, grantee, site.key, recursive);
    const replacedIds = replacedGrantIds(toEngineGrant(created), candidates.map(toEngineGrant));
    await deleteGrants(tx, replacedIds);
    const replaced = candidates.filter((candidate) => replacedIds.includes(candidate.id));
    await recordHistory(tx, call, await grantEvents({ ...call, db: tx }, [
      { action: 'permission_create', grant: created },
      ...replaced.map((grant) => ({ action: 'permission_destroy' as const, grant, replacedBy: created.id })),
    ]));
    return { grant: created, replacedIds };
  });
}

/** What grant writers of one grantee wait for each other on: replacement is decided per grantee. */
function grantsOf(grantee: Grantee): string {
  switch (grantee.kind) {
    case 'user':
      return `grants-of:user:${grantee.userId}`;
    case 'group':
      return `grants-of:group:${grantee.groupId}`;
    case 'partner':
      return `grants-of:partner:${grantee.partnerId}`;
    case 'groups':
      return `grants-of:groups:${[...grantee.groupIds].sort((a, b) => a - b).join(',')}`;
  }
}

/** The display spelling already in use for a path: its entry's, or an existing grant's. */
async function existingSpelling(db: Db, pathKey: string): Promise<string | undefined> {
  return (await entrySpelling(db, pathKey)) ?? (await grantSpellingOf(db, pathKey));
}

async function pathWorkspaceExists(db: Db, workspaceId: number): Promise<boolean> {
  if (workspaceId === 0) return true;
  // A path may name a Workspace beyond the ids records can have (`_/Workspaces/99999999999`): it names
  // none, and PostgreSQL would refuse to even compare it with the column.
  return isRecordId(workspaceId) && (await workspaceExists(db, workspaceId));
}

/**
 * The `workspace_id` membership field (contract 4.2). A grant belongs to the Workspace its path
 * lies in, so the field can only confirm that: in a Custom Workspace context it defaults to the
 * context, and in context 0 to the Workspace of the (qualified) path. Any other value asks for a
 * membership the grant cannot have: `not-authorized/insufficient-permission-for-params`.
 */
function assertMembershipField(workspaceId: number | undefined, requestWorkspaceId: number, site: SitePath): void {
  if (workspaceId === undefined) return;
  if (requestWorkspaceId !== 0 && workspaceId !== requestWorkspaceId) {
    throw errors.insufficientPermissionForParams(`workspace_id ${workspaceId} does not match the selected Workspace ${requestWorkspaceId}.`, { header: 'workspace' });
  }
  if (workspaceId !== site.workspaceId) {
    throw errors.insufficientPermissionForParams(`workspace_id ${workspaceId} does not match Workspace ${site.workspaceId}, where the path lies.`, { header: 'workspace' });
  }
}
