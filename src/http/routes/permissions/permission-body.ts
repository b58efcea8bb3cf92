import type { Static } from 'typebox';
import { granteeNames, grantPathInRequest, type Call, type GranteeNames, type GrantRecord } from '../../../grants/index.js';
import type { PermissionBody } from './schemas.js';

export type PermissionJson = Static<typeof PermissionBody>;

/** A grant as contract 7 shows it, with its path as the request context sees it. */
export function permissionJson(call: Call, record: GrantRecord, names: GranteeNames): PermissionJson {
  const grantee = record.grantee;
  const groupIds = grantee.kind === 'groups' ? [...grantee.groupIds] : [];
  return {
    id: record.id,
    path: grantPathInRequest(call, record.path),
    user_id: grantee.kind === 'user' ? grantee.userId : null,
    username: grantee.kind === 'user' ? (names.users.get(grantee.userId) ?? null) : null,
    group_id: grantee.kind === 'group' ? grantee.groupId : null,
    group_name: grantee.kind === 'group' ? (names.groups.get(grantee.groupId) ?? null) : null,
    group_ids: groupIds,
    group_names: groupIds.map((id) => names.groups.get(id) ?? ''),
    partner_id: grantee.kind === 'partner' ? grantee.partnerId : null,
    partner_name: grantee.kind === 'partner' ? (names.partners.get(grantee.partnerId) ?? null) : null,
    permission: record.level,
    recursive: record.recursive,
    workspace_id: record.workspaceId,
  };
}

export async function permissionsJson(call: Call, records: readonly GrantRecord[]): Promise<PermissionJson[]> {
  const names = await granteeNames(call, records);
  return records.map((record) => permissionJson(call, record, names));
}
