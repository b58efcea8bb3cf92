import type { Grantee, Level } from '../authz/index.js';
import { accountReach, assertPartnerGrantFits, findVisiblePartner, type Call, type Caller, type SitePath } from '../access/index.js';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { parseRecordId } from '../lib/record-id.js';
import { findGranteeGroupByName, findGranteeGroups, findGranteeUserByUsername, type GranteeGroup } from '../repositories/grants/index.js';
import { findUserById } from '../repositories/users.js';

/** The one grantee a create request names, as the client named it. */
export type GranteeInput =
  | { kind: 'user_id'; id: number }
  | { kind: 'username'; name: string }
  | { kind: 'group_id'; id: number }
  | { kind: 'group_name'; name: string }
  | { kind: 'group_ids'; ids: number[] }
  | { kind: 'partner_id'; id: number };

export interface GranteeFields {
  user_id?: number | null;
  username?: string | null;
  group_id?: number | null;
  group_name?: string | null;
  group_ids?: string | number[] | null;
  partner_id?: number | null;
}

const GRANTEE_FIELDS = ['user_id', 'username', 'group_id', 'group_name', 'group_ids', 'partner_id'] as const;
const MAX_ALL_OF_GROUPS = 100;

/**
 * Exactly one grantee (contract 5.2). null and '' count as absent, since some clients send every
 * field. `group_ids` is an array of ids or a comma-separated string (what the SDK sends), and
 * needs two or more distinct groups: ALL-of a single group is a plain group grant, so asking for it
 * is more likely a mistake than a wish.
 */
export function parseGranteeInput(body: GranteeFields): GranteeInput {
  const present = GRANTEE_FIELDS.filter((field) => {
    const value = body[field];
    return value !== undefined && value !== null && value !== '';
  });
  const choices = GRANTEE_FIELDS.join(', ');
  if (present.length === 0) throw errors.paramsRequired({ user_id: [`one of ${choices} is required`] });
  if (present.length > 1) {
    throw errors.paramsInvalid(Object.fromEntries(present.map((field) => [field, [`only one of ${choices} may be given`]])));
  }
  switch (present[0]) {
    case 'user_id':
      return { kind: 'user_id', id: body.user_id as number };
    case 'username':
      return { kind: 'username', name: body.username as string };
    case 'group_id':
      return { kind: 'group_id', id: body.group_id as number };
    case 'group_name':
      return { kind: 'group_name', name: body.group_name as string };
    case 'partner_id':
      return { kind: 'partner_id', id: body.partner_id as number };
    default:
      return { kind: 'group_ids', ids: parseGroupIds(body.group_ids as string | number[]) };
  }
}

function parseGroupIds(value: string | number[]): number[] {
  const invalid = (message: string) => errors.paramsInvalid({ group_ids: [message] });
  const items = typeof value === 'string' ? value.split(',').map((part) => part.trim()) : value.map(String);
  if (items.length > MAX_ALL_OF_GROUPS) throw invalid(`may name at most ${MAX_ALL_OF_GROUPS} groups`);
  const ids = items.map((item) => {
    const id = parseRecordId(item);
    if (id === undefined || id < 1) throw invalid('must be group ids (positive integers)');
    return id;
  });
  const distinct = [...new Set(ids)].sort((a, b) => a - b);
  if (distinct.length < 2) throw invalid('must name at least two different groups (use group_id for a single group)');
  return distinct;
}

/**
 * The grantee of a grant whose path lies in Workspace `workspaceId`, refusing anyone the caller
 * may not name (contract 5.3):
 * - anyone but a Site Administrator may name only users and groups that belong to that Workspace;
 *   others are answered `not-found`, exactly as ids that do not exist, so nothing leaks;
 * - a Site Administrator at the site level may also name Workspace 0 users and groups
 *   (cross-Workspace delegation), but never an account or group of another Custom Workspace,
 *   which "stays within it": that is `processing-failure/model-save-error`, as it may see both;
 * - a Site Administrator's credential confined to a Custom Workspace names only its own
 *   Workspace's: anything across Workspaces is `not-authorized/site-admin-required`.
 * The groups of an ALL-of grant all belong to one Workspace. A Partner is named only by those who
 * manage it, and only on its root or below, at a level a Partner may hold (docs/partners.md).
 */
export async function resolveGrantee(call: Call, input: GranteeInput, site: SitePath, level: Level): Promise<Grantee> {
  const { db, caller } = call;
  const workspaceId = site.workspaceId;
  // Answers for a grantee the caller may not name: as an unknown id when it may not see it, and
  // the reason when it may (accountReach).
  const check = (field: string, memberOf: number, notFound: () => Error) => {
    switch (accountReach(caller, memberOf, workspaceId)) {
      case 'yes': return;
      case 'hidden': throw notFound();
      case 'site-level': throw errors.siteAdminRequired();
      case 'other-workspace':
        throw errors.modelSaveError({
          [field]: [`belongs to Workspace ${memberOf}; a grant in Workspace ${workspaceId} may name only its own users and groups, or those of the Default Workspace`],
        });
    }
  };

  switch (input.kind) {
    case 'user_id':
    case 'username': {
      const user = input.kind === 'user_id' ? await findUserById(db, input.id) : await findGranteeUserByUsername(db, input.name);
      if (user === undefined) throw errors.userNotFound();
      check(input.kind, user.workspaceId, errors.userNotFound);
      // A Partner user's access is its Partner's grants, nothing of its own (docs/partners.md).
      if (user.partnerId !== null) throw errors.modelSaveError({ [input.kind]: ["is a Partner user: it holds its Partner's grants only, none of its own"] });
      return { kind: 'user', userId: user.id };
    }
    case 'group_id':
    case 'group_name': {
      const group = input.kind === 'group_id' ? (await findGranteeGroups(db, [input.id]))[0] : await groupByName(db, input.name, workspaceId, caller);
      if (group === undefined) throw errors.groupNotFound();
      check(input.kind, group.workspaceId, errors.groupNotFound);
      return { kind: 'group', groupId: group.id };
    }
    case 'group_ids': {
      const groups = await findGranteeGroups(db, input.ids);
      if (groups.length !== input.ids.length) throw errors.groupNotFound();
      for (const group of groups) if (accountReach(caller, group.workspaceId, workspaceId) === 'hidden') throw errors.groupNotFound();
      const workspaces = new Set(groups.map((g) => g.workspaceId));
      if (workspaces.size > 1) throw errors.modelSaveError({ group_ids: ['must all belong to the same Workspace'] });
      check('group_ids', (groups[0] as GranteeGroup).workspaceId, errors.groupNotFound);
      return { kind: 'groups', groupIds: groups.map((g) => g.id) };
    }
    case 'partner_id': {
      // Only those who manage the Partner see it (others are answered as for an id that does not
      // exist), and its grants lie inside its root, at a level a Partner may hold.
      const partner = await findVisiblePartner(db, caller, call.requestWorkspaceId, input.id);
      assertPartnerGrantFits(partner, site, level);
      return { kind: 'partner', partnerId: partner.id };
    }
  }
}

/** A group named by name: the path's Workspace first, then (Site Administrator only) Workspace 0. */
async function groupByName(db: Db, name: string, workspaceId: number, caller: Caller): Promise<GranteeGroup | undefined> {
  const own = await findGranteeGroupByName(db, workspaceId, name);
  if (own !== undefined || workspaceId === 0 || accountReach(caller, 0, workspaceId) !== 'yes') return own;
  return findGranteeGroupByName(db, 0, name);
}
