import type { Static } from 'typebox';
import type { GrantVia, NearMiss, NearMissReason, Reason } from '../../../authz/index.js';
import { granteeNames, grantPathInRequest, type Call, type Explanation, type GranteeNames, type GrantRecord } from '../../../grants/index.js';
import { permissionJson } from './permission-body.js';
import type { ExplainBody } from './schemas.js';

type ExplainJson = Static<typeof ExplainBody>;
type ReasonJson = ExplainJson['reasons'][number];
type NearMissJson = ExplainJson['near_misses'][number];

/**
 * The explanation as JSON (contract 5.5). Reasons name the permission id, path and grantee of the
 * grant behind them only when the caller may see that grant; otherwise the source is
 * `hidden_grant` and those fields are null. Near misses are listed only for grants the caller may
 * see, since each one describes somebody's grant.
 */
export async function explainJson(call: Call, explanation: Explanation): Promise<ExplainJson> {
  const { decision, grants } = explanation;
  const visibleRecord = (id: number): GrantRecord | undefined => {
    const entry = grants.get(id);
    return entry?.visible === true ? entry.record : undefined;
  };
  const nearMisses = decision.nearMisses.filter((miss) => visibleRecord(miss.permissionId) !== undefined);

  const userIds: number[] = [];
  const groupIds: number[] = [];
  for (const miss of nearMisses) {
    for (const reason of miss.reasons) {
      if (reason.code === 'other_user') userIds.push(reason.userId);
      if (reason.code === 'not_member') groupIds.push(reason.groupId);
      if (reason.code === 'missing_groups') groupIds.push(...reason.missingGroupIds);
    }
  }
  const shownRecords = [...grants.values()].filter((g) => g.visible).map((g) => g.record);
  const names = await granteeNames(call, shownRecords, { userIds, groupIds });

  return {
    path: grantPathInRequest(call, explanation.site.path),
    type: explanation.type,
    path_exists: explanation.pathExists,
    workspace_id: decision.workspaceId,
    user_id: explanation.userId,
    site_admin: decision.siteAdmin,
    workspace_admin: decision.workspaceAdmin,
    folder_admin: decision.folderAdmin,
    capabilities: [...decision.capabilities],
    reasons: decision.reasons.map((reason) => reasonJson(call, reason, visibleRecord, names)),
    near_misses: nearMisses.map((miss) => nearMissJson(call, miss, visibleRecord(miss.permissionId) as GrantRecord, names)),
  };
}

function reasonJson(call: Call, reason: Reason, visibleRecord: (id: number) => GrantRecord | undefined, names: GranteeNames): ReasonJson {
  const base: ReasonJson = {
    kind: reason.kind,
    capability: reason.kind === 'capability' ? reason.capability : null,
    role: reason.kind === 'role' ? reason.role : null,
    source: 'site_admin',
    permission_id: null,
    path: null,
    permission: null,
    recursive: null,
    via: null,
    group_id: null,
    group_name: null,
    group_ids: [],
    group_names: [],
    partner_id: null,
    partner_name: null,
    workspace_id: null,
  };
  const source = reason.source;
  if (source.kind === 'role' && source.role === 'site_admin') return base;
  if (source.kind === 'role' && source.role === 'workspace_admin_flag') {
    return { ...base, source: 'workspace_admin_flag', workspace_id: source.workspaceId };
  }
  const record = visibleRecord(source.permissionId);
  const workspaceId = source.kind === 'role' ? source.workspaceId : null;
  if (record === undefined) return { ...base, source: 'hidden_grant', workspace_id: workspaceId };
  return {
    ...base,
    source: source.kind === 'role' ? 'workspace_admin_grant' : 'grant',
    permission_id: record.id,
    path: grantPathInRequest(call, record.path),
    permission: record.level,
    recursive: record.recursive,
    workspace_id: workspaceId ?? record.workspaceId,
    ...viaJson(source.via, names),
  };
}

function viaJson(via: GrantVia, names: GranteeNames): Pick<ReasonJson, 'via' | 'group_id' | 'group_name' | 'group_ids' | 'group_names' | 'partner_id' | 'partner_name'> {
  const none = { group_id: null, group_name: null, group_ids: [], group_names: [], partner_id: null, partner_name: null };
  if (via === 'user') return { ...none, via: 'user' };
  if ('groupId' in via) return { ...none, via: 'group', group_id: via.groupId, group_name: names.groups.get(via.groupId) ?? null };
  if ('partnerId' in via) return { ...none, via: 'partner', partner_id: via.partnerId, partner_name: names.partners.get(via.partnerId) ?? null };
  const ids = [...via.groupIds];
  return { ...none, via: 'groups', group_ids: ids, group_names: ids.map((id) => names.groups.get(id) ?? '') };
}

function nearMissJson(call: Call, miss: NearMiss, record: GrantRecord, names: GranteeNames): NearMissJson {
  return { ...permissionJson(call, record, names), reasons: miss.reasons.map((reason) => nearMissReasonJson(reason, names)) };
}

function nearMissReasonJson(reason: NearMissReason, names: GranteeNames): NearMissJson['reasons'][number] {
  const base = {
    code: reason.code, user_id: null, username: null, group_id: null, group_name: null, partner_id: null, partner_name: null, missing_group_ids: [], missing_group_names: [],
  };
  switch (reason.code) {
    case 'other_partner':
      return { ...base, partner_id: reason.partnerId, partner_name: names.partners.get(reason.partnerId) ?? null };
    case 'other_user':
      return { ...base, user_id: reason.userId, username: names.users.get(reason.userId) ?? null };
    case 'not_member':
      return { ...base, group_id: reason.groupId, group_name: names.groups.get(reason.groupId) ?? null };
    case 'missing_groups':
      return {
        ...base,
        missing_group_ids: [...reason.missingGroupIds],
        missing_group_names: reason.missingGroupIds.map((id) => names.groups.get(id) ?? ''),
      };
    default:
      return base;
  }
}
