import type { Static } from 'typebox';
import type { GrantVia } from '../../../authz/index.js';
import { granteeNames, grantPathInRequest, type Call, type GranteeNames, type GrantRecord, type ShownCause, type ShownUserReach } from '../../../grants/index.js';
import type { ReachCauseBody, ReachRowBody } from './reach-schemas.js';

export type ReachRowJson = Static<typeof ReachRowBody>;
type ReachCauseJson = Static<typeof ReachCauseBody>;

/** The names of the groups that the visible grants of `rows` name. */
export function reachNames(call: Call, rows: readonly ShownUserReach[]): Promise<GranteeNames> {
  const shown = new Map<number, GrantRecord>();
  for (const row of rows) {
    for (const cause of row.because) if (cause.kind === 'grant' && cause.visible) shown.set(cause.record.id, cause.record);
  }
  return granteeNames(call, [...shown.values()]);
}

/** One user's reach as JSON; paths as the request context shows them, hidden grants without details. */
export function reachRowJson(call: Call, row: ShownUserReach, names: GranteeNames): ReachRowJson {
  return {
    user_id: row.user.id,
    username: row.user.username,
    workspace_id: row.user.workspaceId,
    permission: row.level,
    capabilities: [...row.capabilities],
    role: row.roles[0] ?? null,
    roles: [...row.roles],
    because: row.because.map((cause) => causeJson(call, cause, names)),
  };
}

const NOTHING: ReachCauseJson = {
  source: 'site_admin', permission_id: null, path: null, permission: null, recursive: null, applies: null,
  group_id: null, group_name: null, group_ids: [], group_names: [], partner_id: null, partner_name: null, role: null, workspace_id: null,
};

function causeJson(call: Call, cause: ShownCause, names: GranteeNames): ReachCauseJson {
  switch (cause.kind) {
    case 'site_admin':
      return { ...NOTHING, role: 'site_admin' };
    case 'workspace_admin_flag':
      return { ...NOTHING, source: 'workspace_admin_flag', role: 'workspace_admin', workspace_id: cause.workspaceId };
    case 'grant': {
      if (!cause.visible) return { ...NOTHING, source: 'hidden_grant', role: cause.role };
      const record = cause.record;
      return {
        ...NOTHING,
        source: 'grant',
        permission_id: record.id,
        path: grantPathInRequest(call, record.path),
        permission: record.level,
        recursive: record.recursive,
        role: cause.role,
        workspace_id: record.workspaceId,
        ...appliesJson(cause.via, names),
      };
    }
  }
}

function appliesJson(via: GrantVia, names: GranteeNames): Pick<ReachCauseJson, 'applies' | 'group_id' | 'group_name' | 'group_ids' | 'group_names' | 'partner_id' | 'partner_name'> {
  const none = { group_id: null, group_name: null, group_ids: [], group_names: [], partner_id: null, partner_name: null };
  if (via === 'user') return { ...none, applies: 'direct' };
  if ('groupId' in via) return { ...none, applies: 'group', group_id: via.groupId, group_name: names.groups.get(via.groupId) ?? null };
  if ('partnerId' in via) return { ...none, applies: 'partner', partner_id: via.partnerId, partner_name: names.partners.get(via.partnerId) ?? null };
  const ids = [...via.groupIds];
  return { ...none, applies: 'all_of', group_ids: ids, group_names: ids.map((id) => names.groups.get(id) ?? '') };
}
