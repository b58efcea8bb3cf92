import { type User } from '../../src/repositories/users.js';
import { addMember, createApiKey, createGroup, createUser, createWorkspace, unique } from './factories.js';
import type { TestApp } from './test-app.js';

/**
 * A small site for authority tests: two Custom Workspaces, an administrator of each (one by the
 * workspace_admin flag, one a Workspace 0 user through a group's admin grant on the root), and a
 * regular member of each, every one with its own full API key.
 */
export interface SiteFixture {
  ws1: number;
  ws2: number;
  admin1: { user: User; key: string };
  /** Workspace 0 user, Workspace Administrator of ws2 through `delegatesGroup`'s root grant. */
  delegate: { user: User; key: string };
  delegatesGroup: number;
  member1: { user: User; key: string };
  member2: { user: User; key: string };
}

export async function grantOnRoot(t: TestApp, workspaceId: number, grantee: { userId?: number; groupId?: number }): Promise<number> {
  const row = await t.database.db
    .insertInto('permissions')
    .values({
      workspace_id: workspaceId,
      path: `_/Workspaces/${workspaceId}`,
      path_key: `_/workspaces/${workspaceId}`,
      user_id: grantee.userId ?? null,
      group_id: grantee.groupId ?? null,
      permission: 'admin',
      recursive: true,
      created_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function buildSite(t: TestApp): Promise<SiteFixture> {
  const db = t.database.db;
  const ws1 = await createWorkspace(db);
  const ws2 = await createWorkspace(db);
  const withKey = async (user: User, workspaceId: number) => ({ user, key: await createApiKey(db, { userId: user.id, workspaceId }) });
  const admin1 = await withKey(await createUser(db, { workspaceId: ws1, workspaceAdmin: true, username: unique('admin1') }), ws1);
  const delegate = await withKey(await createUser(db, { workspaceId: 0, username: unique('delegate') }), 0);
  const delegatesGroup = await createGroup(db, { workspaceId: 0 });
  await addMember(db, delegatesGroup, delegate.user.id);
  await grantOnRoot(t, ws2, { groupId: delegatesGroup });
  const member1 = await withKey(await createUser(db, { workspaceId: ws1, username: unique('member1') }), ws1);
  const member2 = await withKey(await createUser(db, { workspaceId: ws2, username: unique('member2') }), ws2);
  return { ws1, ws2, admin1, delegate, delegatesGroup, member1, member2 };
}
