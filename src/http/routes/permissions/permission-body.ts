import type { Static } from 'typebox';
import type { Db } from '../../../db/database.js';
import { groupNamesOf, usernamesOf } from '../../../repositories/permission-grantees.js';
import type { PermissionRecord } from '../../../repositories/permissions.js';
import { toRequestPath } from '../../../access/index.js';
import type { PermissionBody } from './schemas.js';

export type PermissionJson = Static<typeof PermissionBody>;

/** The names a set of grants mentions, loaded in one query per table. */
export interface GranteeNames {
  users: ReadonlyMap<number, string>;
  groups: ReadonlyMap<number, string>;
}

export async function namesFor(db: Db, records: readonly PermissionRecord[], extra: { userIds?: number[]; groupIds?: number[] } = {}): Promise<GranteeNames> {
  const userIds = new Set<number>(extra.userIds ?? []);
  const groupIds = new Set<number>(extra.groupIds ?? []);
  for (const { grantee } of records) {
    if (grantee.kind === 'user') userIds.add(grantee.userId);
    else if (grantee.kind === 'group') groupIds.add(grantee.groupId);
    else for (const id of grantee.groupIds) groupIds.add(id);
  }
  return { users: await usernamesOf(db, userIds), groups: await groupNamesOf(db, groupIds) };
}

/**
 * A grant as contract 7 shows it, with its path as the request context sees it: qualified in
 * context 0, relative to the Workspace root in a Custom Workspace ('' for the root). Callers only
 * pass grants inside the context; the qualified path is the fallback should one slip through.
 */
export function permissionJson(record: PermissionRecord, requestWorkspaceId: number, names: GranteeNames): PermissionJson {
  const grantee = record.grantee;
  const groupIds = grantee.kind === 'groups' ? [...grantee.groupIds] : [];
  return {
    id: record.id,
    path: toRequestPath(requestWorkspaceId, record.path) ?? record.path,
    user_id: grantee.kind === 'user' ? grantee.userId : null,
    username: grantee.kind === 'user' ? (names.users.get(grantee.userId) ?? null) : null,
    group_id: grantee.kind === 'group' ? grantee.groupId : null,
    group_name: grantee.kind === 'group' ? (names.groups.get(grantee.groupId) ?? null) : null,
    group_ids: groupIds,
    group_names: groupIds.map((id) => names.groups.get(id) ?? ''),
    permission: record.level,
    recursive: record.recursive,
    workspace_id: record.workspaceId,
  };
}

export async function permissionsJson(db: Db, records: readonly PermissionRecord[], requestWorkspaceId: number): Promise<PermissionJson[]> {
  const names = await namesFor(db, records);
  return records.map((record) => permissionJson(record, requestWorkspaceId, names));
}
