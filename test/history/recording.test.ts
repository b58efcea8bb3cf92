import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainHash } from '../../src/history/index.js';
import type { HistoryRow } from '../../src/repositories/history.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, createWorkspace, unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const PASSWORD = 'a perfectly good passphrase';
const REAUTH = 'X-Service-Reauthentication';

/**
 * What History records of each change made through the REST API (issue: "every recorded event
 * above is tested, and its absence on a rolled-back change"), read straight from the table: the
 * HTTP read side has its own tests. File actions are in file-recording.test.ts.
 */
describe.each(testDatabaseTargets())('history recording [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  const records = (filter: (row: HistoryRow) => boolean = () => true) =>
    t.database.db.selectFrom('history').selectAll().orderBy('id').execute().then((rows) => rows.filter(filter));
  const latest = async (action: string) => (await records((row) => row.action === action)).at(-1);
  const targetsOf = (row: HistoryRow | undefined) => JSON.parse(row?.targets ?? 'null') as Record<string, any>;
  const signIn = (username: string, password: string) => t.api.post('/sessions', { username, password });
  const everything = async () => JSON.stringify(await records());

  describe('sign-ins', () => {
    it('records a successful sign-in with the door, the address, the user and its Workspace', async () => {
      const ws = await createWorkspace(t.database.db);
      const user = await createUser(t.database.db, { password: PASSWORD, workspaceId: ws });
      expect((await signIn(user.username, PASSWORD)).status).toBe(201);
      const row = await latest('login');
      expect(row).toMatchObject({ user_id: user.id, username: user.username, workspace_id: ws, interface: 'restapi', failure_type: null });
      expect(row?.ip).toMatch(/127\.0\.0\.1$/);
    });

    it('records each failure with its own type, though the API answers them alike, and never the password', async () => {
      const user = await createUser(t.database.db, { password: PASSWORD });
      const disabled = await createUser(t.database.db, { password: PASSWORD });
      await t.database.db.updateTable('users').set({ disabled: true }).where('id', '=', disabled.id).execute();
      const nobody = unique('nobody');
      const wrong = 'a wrong password that must not be kept';
      for (const [username, password] of [[nobody, PASSWORD], [user.username, wrong], [disabled.username, PASSWORD]] as const) {
        expect((await signIn(username, password)).status).toBe(401);
      }
      const failed = await records((row) => row.action === 'failedlogin');
      expect(failed.find((row) => row.username === nobody)).toMatchObject({ failure_type: 'username_not_found', user_id: null, workspace_id: null });
      expect(failed.find((row) => row.user_id === user.id)).toMatchObject({ failure_type: 'password_mismatch', username: user.username, workspace_id: 0 });
      expect(failed.find((row) => row.user_id === disabled.id)).toMatchObject({ failure_type: 'disabled' });
      const all = await everything();
      expect(all).not.toContain(wrong);
      expect(all).not.toContain(PASSWORD);
    });

    it('records a sign-out and a failed reauthentication', async () => {
      const user = await createUser(t.database.db, { password: PASSWORD });
      const session = (await signIn(user.username, PASSWORD)).body.id as string;
      const refused = await t.api.post('/api_keys', { name: 'k' }, { session, headers: { [REAUTH]: 'password:not the password at all' } });
      expect(refused.status).toBe(403);
      expect(await latest('failedreauth')).toMatchObject({ user_id: user.id, failure_type: 'password_mismatch' });
      expect((await t.api.delete('/sessions', { session })).status).toBe(200);
      expect(await latest('logout')).toMatchObject({ user_id: user.id, username: user.username, action: 'logout' });
      // Ending an already ended session changes nothing, so it records nothing.
      const count = (await records()).length;
      await t.api.delete('/sessions', { session });
      expect(await records()).toHaveLength(count);
    });

    it('marks what the web console does as `web`', async () => {
      const user = await createUser(t.database.db, { password: PASSWORD });
      const response = await t.api.post('/sessions', { username: user.username, password: PASSWORD }, { headers: { 'X-Atrium-Console': '1' } });
      expect(response.status).toBe(201);
      expect(await latest('login')).toMatchObject({ user_id: user.id, interface: 'web' });
    });
  });

  describe('administration', () => {
    it('records API keys created, changed and deleted, without their secrets', async () => {
      const created = await t.api.post('/api_keys', { name: 'history key', user_id: null }, { key: BOOTSTRAP_KEY });
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      expect(targetsOf(await latest('api_key_create'))).toMatchObject({ id, name: 'history key', permission_set: 'full', user_id: null });
      expect((await t.api.patch(`/api_keys/${id}`, { name: 'renamed key' }, { key: BOOTSTRAP_KEY })).status).toBe(200);
      expect(targetsOf(await latest('api_key_update'))).toMatchObject({ id, before: { name: 'history key' }, after: { name: 'renamed key' } });
      expect((await t.api.delete(`/api_keys/${id}`, { key: BOOTSTRAP_KEY })).status).toBe(204);
      expect(await latest('api_key_destroy')).toMatchObject({ workspace_id: null });
      expect(await everything()).not.toContain(created.body.key as string);
    });

    it("records users created, changed (flags before and after; a password only as the word) and deleted, in the user's Workspace", async () => {
      const ws = await createWorkspace(t.database.db);
      const username = unique('recorded');
      const created = await t.api.post('/users', { username, password: PASSWORD, workspace_admin: false }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      expect(await latest('user_create')).toMatchObject({ workspace_id: ws, interface: 'restapi', user_id: null, api_key_id: expect.any(Number) });
      expect(targetsOf(await latest('user_create'))).toMatchObject({ id, username, workspace_admin: false, disabled: false });

      const newPassword = 'another good passphrase, also long';
      expect((await t.api.patch(`/users/${id}`, { workspace_admin: true, disabled: true, password: newPassword }, { key: BOOTSTRAP_KEY, workspace: ws })).status).toBe(200);
      const changed = targetsOf(await latest('user_update'));
      expect(changed).toMatchObject({ id, before: { workspace_admin: false, disabled: false }, after: { workspace_admin: true, disabled: true } });
      expect(changed['changed']).toEqual(expect.arrayContaining(['workspace_admin', 'disabled', 'password']));
      expect(await everything()).not.toContain(newPassword);

      expect((await t.api.delete(`/users/${id}`, { key: BOOTSTRAP_KEY, workspace: ws })).status).toBe(204);
      expect(await latest('user_destroy')).toMatchObject({ workspace_id: ws });
    });

    it('records groups, members and Group Admins', async () => {
      const ws = await createWorkspace(t.database.db);
      const alice = await createUser(t.database.db, { workspaceId: ws });
      const bob = await createUser(t.database.db, { workspaceId: ws });
      const group = await t.api.post('/groups', { name: 'auditors', user_ids: String(alice.id) }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(group.status).toBe(201);
      const groupId = group.body.id as number;
      expect(await latest('group_create')).toMatchObject({ workspace_id: ws });
      expect(targetsOf(await latest('group_create'))).toMatchObject({ id: groupId, name: 'auditors', members_added: [{ user_id: alice.id, admin: false }] });

      const membership = await t.api.post('/group_users', { group_id: groupId, user_id: bob.id }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(membership.status).toBe(201);
      expect(targetsOf(await latest('group_update'))).toMatchObject({ id: groupId, members_added: [{ user_id: bob.id }] });
      expect((await t.api.patch(`/group_users/${membership.body.id}`, { admin: true }, { key: BOOTSTRAP_KEY, workspace: ws })).status).toBe(200);
      expect(targetsOf(await latest('group_update'))).toMatchObject({ admin_changed: [{ user_id: bob.id, admin: true }] });
      expect((await t.api.delete(`/group_users/${membership.body.id}`, { key: BOOTSTRAP_KEY, workspace: ws })).status).toBe(204);
      expect(targetsOf(await latest('group_update'))).toMatchObject({ members_removed: [{ user_id: bob.id }] });
      expect((await t.api.patch(`/groups/${groupId}`, { name: 'auditors 2' }, { key: BOOTSTRAP_KEY, workspace: ws })).status).toBe(200);
      expect(targetsOf(await latest('group_update'))).toMatchObject({ before: { name: 'auditors' }, after: { name: 'auditors 2' } });
      expect((await t.api.delete(`/groups/${groupId}`, { key: BOOTSTRAP_KEY, workspace: ws })).status).toBe(204);
      expect(await latest('group_destroy')).toMatchObject({ workspace_id: ws });
    });

    it('records grants created, replaced and deleted, in the Workspace of their path', async () => {
      const ws = await createWorkspace(t.database.db);
      const user = await createUser(t.database.db, { workspaceId: ws });
      const first = await t.api.post('/permissions', { path: 'Reports/2026', user_id: user.id, permission: 'readonly' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(first.status).toBe(201);
      expect(targetsOf(await latest('permission_create'))).toMatchObject({ id: first.body.id, permission: 'readonly', recursive: true, user_id: user.id, username: user.username });
      expect(await latest('permission_create')).toMatchObject({ workspace_id: ws, path: `_/Workspaces/${ws}/Reports/2026` });
      // A recursive grant above it replaces it (contract 5.3): both recorded, the replacement saying by which.
      const second = await t.api.post('/permissions', { path: 'Reports', user_id: user.id, permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(second.status).toBe(201);
      const destroyed = await latest('permission_destroy');
      expect(targetsOf(destroyed)).toMatchObject({ id: first.body.id, replaced_by: second.body.id });
      expect((await t.api.delete(`/permissions/${second.body.id}`, { key: BOOTSTRAP_KEY, workspace: ws })).status).toBe(204);
      expect(targetsOf(await latest('permission_destroy'))).toMatchObject({ id: second.body.id });
    });

    it('records Workspaces and site settings as site-level, with before and after', async () => {
      const created = await t.api.post('/workspaces', { name: 'Audit' }, { key: BOOTSTRAP_KEY });
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      expect(await latest('workspace_create')).toMatchObject({ workspace_id: null });
      expect((await t.api.patch(`/workspaces/${id}`, { name: 'Audit 2' }, { key: BOOTSTRAP_KEY })).status).toBe(200);
      expect(targetsOf(await latest('workspace_update'))).toMatchObject({ id, before: { name: 'Audit' }, after: { name: 'Audit 2' } });
      expect((await t.api.delete(`/workspaces/${id}`, { key: BOOTSTRAP_KEY })).status).toBe(204);
      expect(await latest('workspace_destroy')).toMatchObject({ workspace_id: null });

      expect((await t.api.patch('/site', { password_min_length: 14 }, { key: BOOTSTRAP_KEY })).status).toBe(200);
      expect(targetsOf(await latest('site_update'))).toEqual({ before: { password_min_length: 12 }, after: { password_min_length: 14 } });
      await t.api.patch('/site', { password_min_length: 12 }, { key: BOOTSTRAP_KEY });
    });
  });

  describe('no change without its record, no record without its change', () => {
    it('records nothing for a refused change', async () => {
      const before = (await records()).length;
      const taken = await createUser(t.database.db);
      expect((await t.api.post('/users', { username: taken.username }, { key: BOOTSTRAP_KEY })).status).toBe(422);
      const ws = await createWorkspace(t.database.db);
      await createUser(t.database.db, { workspaceId: ws });
      // Refused inside its transaction (the Workspace is not empty), after nothing was recorded.
      expect((await t.api.delete(`/workspaces/${ws}`, { key: BOOTSTRAP_KEY })).status).toBe(422);
      expect(await records()).toHaveLength(before);
    });

    it('keeps one record for the one of two racing creations that happened', async () => {
      const username = unique('racer');
      const responses = await Promise.all([0, 1, 2].map(() => t.api.post('/users', { username }, { key: BOOTSTRAP_KEY })));
      const createdIds = responses.filter((r) => r.status === 201).map((r) => r.body.id as number);
      expect(createdIds).toHaveLength(1);
      const created = await records((row) => row.action === 'user_create' && targetsOf(row)['username'] === username);
      expect(created.map((row) => targetsOf(row)['id'])).toEqual(createdIds);
    });
  });

  it('chains every record to the one before it, with contiguous ids', async () => {
    const key = await createApiKey(t.database.db, { userId: null });
    expect((await t.api.post('/workspaces', { name: 'chained' }, { key })).status).toBe(201);
    const rows = await records();
    const chain = await t.database.db.selectFrom('history_chain').selectAll().executeTakeFirstOrThrow();
    let previous = chain.pruned_hash;
    rows.forEach((row, index) => {
      expect(row.id).toBe(chain.pruned_id + index + 1);
      const { hash, ...fields } = row;
      previous = chainHash(previous, fields);
      expect(hash).toBe(previous);
    });
    expect(chain.last_id).toBe(rows.at(-1)?.id);
    expect(chain.last_hash).toBe(previous);
  });
});

describe.each(testDatabaseTargets())('history of refused sign-ins and client addresses [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target, { trustProxy: ['127.0.0.1'] }); });
  afterAll(() => t.close());

  const failedLogins = () => t.database.db.selectFrom('history').selectAll().where('action', '=', 'failedlogin').orderBy('id').execute();
  const from = (address: string) => ({ headers: { 'X-Forwarded-For': address } });

  it('records a locked-out attempt as locked_out and a rate-limited one as rate_limited, at the forwarded address of a trusted proxy', async () => {
    expect((await t.api.patch('/site', { user_lockout_tries: 2, login_attempts_per_ip_per_hour: 4 }, { key: BOOTSTRAP_KEY })).status).toBe(200);
    const user = await createUser(t.database.db, { password: PASSWORD });
    for (let i = 0; i < 2; i += 1) expect((await t.api.post('/sessions', { username: user.username, password: 'wrong, but long enough' }, from('203.0.113.9'))).status).toBe(401);
    const locked = await t.api.post('/sessions', { username: user.username, password: PASSWORD }, from('203.0.113.9'));
    expect(locked.body.type).toBe('not-authenticated/locked-out');
    expect((await failedLogins()).at(-1)).toMatchObject({ failure_type: 'locked_out', user_id: user.id, ip: '203.0.113.9' });

    for (let i = 0; i < 2; i += 1) await t.api.post('/sessions', { username: unique('nobody'), password: 'wrong, but long enough' }, from('198.51.100.7'));
    await t.api.post('/sessions', { username: unique('nobody'), password: 'wrong, but long enough' }, from('198.51.100.7'));
    await t.api.post('/sessions', { username: unique('nobody'), password: 'wrong, but long enough' }, from('198.51.100.7'));
    const limited = await t.api.post('/sessions', { username: user.username, password: PASSWORD }, from('198.51.100.7'));
    expect(limited.status).toBe(429);
    expect((await failedLogins()).at(-1)).toMatchObject({ failure_type: 'rate_limited', ip: '198.51.100.7', user_id: user.id });
  });
});
