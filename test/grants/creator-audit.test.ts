import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFromPassword } from '../../src/access/index.js';
import { grantsBeyondTheirCreators } from '../../src/grants/index.js';
import { recordHistory } from '../../src/history/index.js';
import { insertGrant } from '../../src/repositories/grants/index.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser, createWorkspace } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { grantAsSite, memberOf } from './grants-support.js';

/**
 * `atrium grants audit` finds the grants their creator could not create today: what the code
 * before the extent rule let a non-recursive Folder Admin create, found from its History record.
 */
describe.each(testDatabaseTargets())('grants beyond their creator\'s authority [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(() => t.close());

  it('lists a recursive grant made by a non-recursive Folder Admin, and not the grants made within authority', async () => {
    const db = t.database.db;
    const ws = await createWorkspace(db);
    const delegate = await memberOf(t, { workspaceId: ws });
    const peer = await createUser(db, { workspaceId: ws });
    await grantAsSite(t, { path: `_/Workspaces/${ws}/Projects`, user_id: delegate.id, permission: 'admin', recursive: false });
    // Made through the API within its authority: not listed.
    const within = await t.api.post('/permissions', { path: 'Projects', user_id: peer.id, permission: 'readonly', recursive: false }, { key: delegate.key, workspace: ws });
    expect(within.status).toBe(201);
    // As the old code let it: a recursive admin grant on its folder, recorded as made by the delegate.
    const user = (await db.selectFrom('users').selectAll().where('id', '=', delegate.id).executeTakeFirstOrThrow());
    const pathKey = `_/workspaces/${ws}/projects`;
    const beyond = await insertGrant(db, { workspaceId: ws, path: `_/Workspaces/${ws}/Projects`, pathKey, grantee: { kind: 'user', userId: peer.id }, level: 'admin', recursive: true, now: Date.now() });
    const delegateUser = { id: user.id, workspaceId: user.workspace_id, username: user.username, siteAdmin: false, workspaceAdmin: false } as any;
    const call = { db, caller: callerFromPassword(delegateUser), requestWorkspaceId: ws, now: Date.now(), origin: { interface: 'rest' as const, ip: '127.0.0.1' } };
    await recordHistory(db, call as any, [{ action: 'permission_create', workspaceId: ws, path: beyond.path, display: 'Granted', targets: { id: beyond.id } }]);

    const found = (await grantsBeyondTheirCreators(db)).filter((audited) => audited.grant.workspaceId === ws);
    expect(found.map((audited) => ({ id: audited.grant.id, finding: audited.finding, creator: audited.creator?.userId }))).toEqual([
      { id: beyond.id, finding: 'beyond-creator-authority', creator: delegate.id },
    ]);
  });
});
