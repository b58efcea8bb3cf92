import type { Call } from '../access/index.js';
import type { HistoryAction, HistoryEvent } from '../history/index.js';
import type { GrantRecord } from '../repositories/grants/index.js';
import { granteeNames, type GranteeNames } from './grantee-names.js';

/**
 * The History records of grant changes: the created grant, each grant it replaced (contract 5.3),
 * or a deleted grant. Targets name the grant's fields and its grantee by id and name, like the
 * `target_*` fields of Files.com's export; the record belongs to the Workspace of the grant's path.
 */
export async function grantEvents(call: Call, changes: readonly { action: HistoryAction; grant: GrantRecord; replacedBy?: number }[]): Promise<HistoryEvent[]> {
  const names = await granteeNames(call, changes.map((change) => change.grant));
  return changes.map(({ action, grant, replacedBy }) => ({
    action,
    workspaceId: grant.workspaceId,
    path: grant.path,
    display: displayOf(action, grant, names, replacedBy),
    targets: { ...grantTargets(grant, names), ...(replacedBy === undefined ? {} : { replaced_by: replacedBy }) },
  }));
}

function grantTargets(grant: GrantRecord, names: GranteeNames): Record<string, unknown> {
  const base = { id: grant.id, permission: grant.level, recursive: grant.recursive };
  const grantee = grant.grantee;
  switch (grantee.kind) {
    case 'user':
      return { ...base, user_id: grantee.userId, username: names.users.get(grantee.userId) ?? null };
    case 'group':
      return { ...base, group_id: grantee.groupId, group_name: names.groups.get(grantee.groupId) ?? null };
    case 'groups':
      return { ...base, group_ids: [...grantee.groupIds], group_names: grantee.groupIds.map((id) => names.groups.get(id) ?? null) };
    case 'partner':
      return { ...base, partner_id: grantee.partnerId, partner_name: names.partners.get(grantee.partnerId) ?? null };
  }
}

function granteeText(grant: GrantRecord, names: GranteeNames): string {
  const grantee = grant.grantee;
  switch (grantee.kind) {
    case 'user':
      return `user ${names.users.get(grantee.userId) ?? grantee.userId}`;
    case 'group':
      return `group ${names.groups.get(grantee.groupId) ?? grantee.groupId}`;
    case 'groups':
      return `members of all of ${grantee.groupIds.map((id) => names.groups.get(id) ?? id).join(', ')}`;
    case 'partner':
      return `Partner ${names.partners.get(grantee.partnerId) ?? grantee.partnerId}`;
  }
}

function displayOf(action: HistoryAction, grant: GrantRecord, names: GranteeNames, replacedBy: number | undefined): string {
  const what = `${grant.level}${grant.recursive ? '' : ' (not recursive)'} on /${grant.path} for ${granteeText(grant, names)}`;
  if (action === 'permission_create') return `Granted ${what}`;
  if (replacedBy !== undefined) return `Replaced ${what} by grant ${replacedBy}`;
  return `Removed ${what}`;
}
