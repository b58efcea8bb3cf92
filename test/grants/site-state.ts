// The rows of a small generated site, read back from the database as the reference model takes
// them (delegation-holdings.ts): its users, groups, memberships, Partners and the grants that name
// any of them. Shared by the properties that compare what users hold by the model.
import type { Grant, Level } from '../../src/authz/types.js';
import type { TestApp } from '../support/test-app.js';
import { PROTOCOLS, type Protocol, type SiteState } from './delegation-holdings.js';

/** The rows of the site made of these users, groups and Partners, and every grant that names one of them. */
export async function readState(t: TestApp, someUserIds: number[], someGroupIds: number[], somePartnerIds: number[]): Promise<SiteState> {
  // `IN ()` is no SQL: an empty list stands for an id no row has.
  const [userIds, groupIds, partnerIds] = [someUserIds, someGroupIds, somePartnerIds].map((ids) => (ids.length === 0 ? [-1] : ids)) as [number[], number[], number[]];
  const db = t.database.db;
  const doorFlags = ['sftp_permission', 'dav_permission', 'restapi_permission', 'ftp_permission'] as const;
  const userRows = await db.selectFrom('users').select(['id', 'workspace_id', 'site_admin', 'workspace_admin', 'disabled', 'partner_id', 'partner_admin', ...doorFlags]).where('id', 'in', userIds).execute();
  const partnerRows = await db.selectFrom('partners').select(['id', 'workspace_id']).where('id', 'in', partnerIds).execute();
  const groupRows = await db.selectFrom('groups').select(['id', 'workspace_id', ...doorFlags]).where('id', 'in', groupIds).execute();
  // A user's flag is open unless set false (a column left null is the default, open); a group's only when set true.
  const openDoors = (row: Record<`${Protocol}_permission`, unknown>, byDefault: boolean) => PROTOCOLS.filter((protocol) => {
    const value = row[`${protocol}_permission`];
    return value === null || value === undefined ? byDefault : Boolean(value);
  });
  const memberRows = await db.selectFrom('group_users').select(['group_id', 'user_id', 'admin']).where('group_id', 'in', groupIds).execute();
  const grantRows = await db.selectFrom('permissions').select(['id', 'path_key', 'user_id', 'group_id', 'partner_id', 'permission', 'recursive'])
    .where((eb) => eb.or([
      eb('user_id', 'in', userIds), eb('group_id', 'in', groupIds), eb('partner_id', 'in', partnerIds),
      eb('id', 'in', eb.selectFrom('permission_groups').select('permission_id').where('group_id', 'in', groupIds)),
    ]))
    .execute();
  const allOfRows = grantRows.length === 0 ? [] : await db.selectFrom('permission_groups').select(['permission_id', 'group_id']).where('permission_id', 'in', grantRows.map((row) => row.id)).execute();
  return {
    users: userRows.map((row) => ({
      id: row.id, workspaceId: row.workspace_id, siteAdmin: Boolean(row.site_admin), workspaceAdmin: Boolean(row.workspace_admin), disabled: Boolean(row.disabled), doors: openDoors(row, true),
      partnerId: row.partner_id ?? null, partnerAdmin: Boolean(row.partner_admin),
    })),
    partners: partnerRows.map((row) => ({ id: row.id, workspaceId: row.workspace_id })),
    groups: groupRows.map((row) => ({ id: row.id, workspaceId: row.workspace_id, doors: openDoors(row, false) })),
    memberships: memberRows.map((row) => ({ groupId: row.group_id, userId: row.user_id, admin: Boolean(row.admin) })),
    grants: grantRows.map((row): Grant => ({
      id: row.id,
      pathKey: row.path_key,
      level: row.permission as Level,
      recursive: Boolean(row.recursive),
      grantee: row.user_id !== null ? { kind: 'user', userId: row.user_id }
        : row.group_id !== null ? { kind: 'group', groupId: row.group_id }
        : row.partner_id !== null ? { kind: 'partner', partnerId: row.partner_id }
        : { kind: 'groups', groupIds: allOfRows.filter((g) => g.permission_id === row.id).map((g) => g.group_id) },
    })),
  };
}
