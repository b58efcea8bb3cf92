import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createApiKey, createGroup, createSession, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { expectError, grantAsSite, ids, memberOf } from './grants-support.js';

describe.each(testDatabaseTargets())('POST /permissions [$name]', (target) => {
  let t: TestApp;
  let ws: number;
  let otherWs: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    ws = await createWorkspace(t.database.db);
    otherWs = await createWorkspace(t.database.db);
  });
  afterAll(() => t.close());

  const post = (body: unknown, options: { key?: string; session?: string; workspace?: number } = { key: BOOTSTRAP_KEY }) =>
    t.api.post('/permissions', body, options);
  const permissionRow = (id: number) => t.database.db.selectFrom('permissions').selectAll().where('id', '=', id).executeTakeFirst();

  describe('input', () => {
    it('creates a grant and answers 201 with the Permission fields and replaced_permission_ids', async () => {
      const user = await createUser(t.database.db, { workspaceId: ws });
      const response = await post({ path: `_/Workspaces/${ws}/Reports/2026`, user_id: user.id, permission: 'readonly' });
      expect(response.status).toBe(201);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.body).toEqual({
        id: expect.any(Number),
        path: `_/Workspaces/${ws}/Reports/2026`,
        user_id: user.id,
        username: user.username,
        group_id: null,
        group_name: null,
        group_ids: [],
        group_names: [],
        partner_id: null,
        partner_name: null,
        permission: 'readonly',
        recursive: true,
        workspace_id: ws,
        replaced_permission_ids: [],
      });
      const row = await permissionRow(response.body.id);
      expect(row).toMatchObject({ workspace_id: ws, path_key: `_/workspaces/${ws}/reports/2026`, user_id: user.id, permission: 'readonly' });
      expect(Boolean(row?.recursive)).toBe(true);
    });

    it('answers on /permissions.json too and ignores unknown and read-only fields', async () => {
      const user = await createUser(t.database.db, { workspaceId: ws });
      const response = await t.api.post('/permissions.json', { path: 'Inbox', user_id: user.id, permission: 'writeonly', recursive: false, id: 999999, site_id: 1, partner_name: 'x', username: null }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ path: 'Inbox', recursive: false, permission: 'writeonly', workspace_id: ws });
      expect(response.body.id).not.toBe(999999);
    });

    it('accepts each of the seven levels and refuses any other', async () => {
      const user = await createUser(t.database.db, { workspaceId: ws });
      for (const level of ['admin', 'full', 'readonly', 'writeonly', 'list', 'history', 'bundle']) {
        const response = await post({ path: `${level}-folder`, user_id: user.id, permission: level }, { key: BOOTSTRAP_KEY, workspace: ws });
        expect(response.status, level).toBe(201);
        expect(response.body.permission).toBe(level);
      }
      for (const level of ['read', 'ADMIN', 'owner', '', 5, null]) {
        const response = await post({ path: 'x', user_id: user.id, permission: level }, { key: BOOTSTRAP_KEY, workspace: ws });
        expectError(response, 400, 'bad-request/request-params-invalid');
      }
    });

    it('requires path and permission', async () => {
      const user = await createUser(t.database.db, { workspaceId: ws });
      const noPath = await post({ user_id: user.id, permission: 'full' });
      expectError(noPath, 400, 'bad-request/request-params-required');
      expect(noPath.body.model_errors).toHaveProperty('path');
      const noLevel = await post({ path: 'x', user_id: user.id }, { key: BOOTSTRAP_KEY, workspace: ws });
      expectError(noLevel, 400, 'bad-request/request-params-required');
      expect(noLevel.body.model_errors).toHaveProperty('permission');
    });

    it('requires exactly one grantee', async () => {
      const user = await createUser(t.database.db, { workspaceId: ws });
      const group = await createGroup(t.database.db, { workspaceId: ws });
      const none = await post({ path: 'x', permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expectError(none, 400, 'bad-request/request-params-required');
      const nulls = await post({ path: 'x', permission: 'full', user_id: null, group_id: null, group_ids: null }, { key: BOOTSTRAP_KEY, workspace: ws });
      expectError(nulls, 400, 'bad-request/request-params-required');
      const two = await post({ path: 'x', permission: 'full', user_id: user.id, group_id: group }, { key: BOOTSTRAP_KEY, workspace: ws });
      expectError(two, 400, 'bad-request/request-params-invalid');
      expect(Object.keys(two.body.model_errors).sort()).toEqual(['group_id', 'user_id']);
      const userAndAllOf = await post({ path: 'x', permission: 'full', username: 'someone', group_ids: '1,2' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expectError(userAndAllOf, 400, 'bad-request/request-params-invalid');
    });

    it('refuses ids of the wrong type and a recursive flag that is not a boolean', async () => {
      for (const body of [
        { path: 'x', permission: 'full', user_id: 'abc' },
        { path: 'x', permission: 'full', user_id: -3 },
        { path: 'x', permission: 'full', user_id: 1.5 },
        { path: 'x', permission: 'full', group_id: { id: 1 } },
        { path: 'x', permission: 'full', user_id: 1, recursive: 'sometimes' },
        { path: 'x', permission: 'full', user_id: 1, workspace_id: 'ws' },
        { path: ['x'], permission: 'full', user_id: 1 },
      ]) {
        const response = await post(body, { key: BOOTSTRAP_KEY, workspace: ws });
        expectError(response, 400, 'bad-request/request-params-invalid');
      }
    });

    it('refuses a body that is not a JSON object', async () => {
      for (const rawBody of ['[1]', '"x"', '{"path":']) {
        const response = await t.api.call('POST', '/permissions', { key: BOOTSTRAP_KEY, rawBody });
        expectError(response, 400, 'bad-request/invalid-body');
      }
    });

    it('refuses paths with "..", "." or control characters, in every context', async () => {
      const user = await createUser(t.database.db, { workspaceId: ws });
      for (const [path, workspace] of [['../x', ws], ['a/../../b', ws], ['..', ws], ['a/./b', ws], ['a\u0000b', ws], [`_/Workspaces/${ws}/..`, 0], ['a\nb', 0]] as const) {
        const response = await post({ path, user_id: user.id, permission: 'full' }, { key: BOOTSTRAP_KEY, workspace });
        expectError(response, 400, 'bad-request/invalid-path');
      }
      const tooLong = await post({ path: 'a'.repeat(300), user_id: user.id, permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expectError(tooLong, 400, 'bad-request/invalid-path');
    });

    it('canonicalises the path and keeps the first spelling of an existing one', async () => {
      const user = await createUser(t.database.db, { workspaceId: ws });
      const first = await post({ path: '/Shared//Plans/', user_id: user.id, permission: 'list' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(first.body.path).toBe('Shared/Plans');
      const other = await createUser(t.database.db, { workspaceId: ws });
      const second = await post({ path: 'shared/PLANS', user_id: other.id, permission: 'list' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(second.status).toBe(201);
      expect(second.body.path).toBe('Shared/Plans');
    });
  });

  describe('group_ids (ALL-of)', () => {
    it('accepts an array or a comma-separated string of two or more distinct groups', async () => {
      const a = await createGroup(t.database.db, { workspaceId: ws });
      const b = await createGroup(t.database.db, { workspaceId: ws });
      const c = await createGroup(t.database.db, { workspaceId: ws });
      const asArray = await post({ path: 'all-of', group_ids: [b, a], permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(asArray.status).toBe(201);
      expect(asArray.body).toMatchObject({ user_id: null, group_id: null, group_ids: [a, b].sort((x, y) => x - y) });
      expect(asArray.body.group_names).toHaveLength(2);
      const asString = await post({ path: 'all-of-3', group_ids: ` ${a}, ${b},${c}`, permission: 'list' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(asString.status).toBe(201);
      expect(asString.body.group_ids).toEqual([a, b, c]);
      const rows = await t.database.db.selectFrom('permission_groups').select('group_id').where('permission_id', '=', asString.body.id).orderBy('group_id').execute();
      expect(rows.map((r) => r.group_id)).toEqual([a, b, c]);
    });

    it('refuses fewer than two distinct groups and ids that are not ids', async () => {
      const a = await createGroup(t.database.db, { workspaceId: ws });
      for (const groupIds of [`${a}`, [a], `${a},${a}`, [a, a], `${a},x`, `${a},,`, `${a},-1`, []]) {
        const response = await post({ path: 'x', group_ids: groupIds, permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws });
        expect(response.status, JSON.stringify(groupIds)).toBe(400);
        expect(response.body.type, JSON.stringify(groupIds)).toMatch(/^bad-request\/request-params-(invalid|required)$/);
      }
    });

    it('refuses unknown groups and groups of different Workspaces', async () => {
      const a = await createGroup(t.database.db, { workspaceId: ws });
      const elsewhere = await createGroup(t.database.db, { workspaceId: otherWs });
      const unknown = await post({ path: 'x', group_ids: [a, 987654], permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expectError(unknown, 404, 'not-found/group-not-found');
      const mixed = await post({ path: 'x', group_ids: [a, elsewhere], permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expectError(mixed, 422, 'processing-failure/model-save-error');
    });
  });

  describe('paths and request context', () => {
    it('takes qualified paths in context 0 and relative ones in a Custom Workspace, "" being its root', async () => {
      const user = await createUser(t.database.db, { workspaceId: ws });
      const qualified = await post({ path: `_/workspaces/${ws}/Docs`, user_id: user.id, permission: 'list' });
      expect(qualified.status).toBe(201);
      // The Workspace prefix is respelled canonically whatever case the client used.
      expect(qualified.body.path).toBe(`_/Workspaces/${ws}/Docs`);
      expect(qualified.body.workspace_id).toBe(ws);
      const relative = await post({ path: 'Docs/Sub', user_id: user.id, permission: 'list' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(relative.body.path).toBe('Docs/Sub');
      expect((await permissionRow(relative.body.id))?.path).toBe(`_/Workspaces/${ws}/Docs/Sub`);
      const root = await post({ path: '', user_id: user.id, permission: 'list' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(root.body.path).toBe('');
      expect((await permissionRow(root.body.id))?.path_key).toBe(`_/workspaces/${ws}`);
      const slashRoot = await post({ path: '/', user_id: user.id, permission: 'readonly' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(slashRoot.body.path).toBe('');
    });

    it('reads "_" inside a Custom Workspace as an ordinary folder name, never as the site folder', async () => {
      const user = await createUser(t.database.db, { workspaceId: ws });
      const response = await post({ path: `_/Workspaces/${otherWs}`, user_id: user.id, permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(response.status).toBe(201);
      const row = await permissionRow(response.body.id);
      expect(row).toMatchObject({ workspace_id: ws, path: `_/Workspaces/${ws}/_/Workspaces/${otherWs}` });
    });

    it('refuses grants on the reserved folders "_" and "_/Workspaces" in context 0', async () => {
      const user = await createUser(t.database.db);
      for (const path of ['_', '_/Workspaces', '_/workspaces/', '_/Other', '_/Workspaces/abc', '_/Workspaces/0', `_/Workspaces/0${ws}`, '_/Workspaces/9007199254740993']) {
        const response = await post({ path, user_id: user.id, permission: 'full' });
        expectError(response, 400, 'bad-request/invalid-path');
      }
    });

    it('answers not-found/workspace-not-found to a Site Administrator naming a Workspace that does not exist', async () => {
      const user = await createUser(t.database.db);
      for (const id of ['987654', '99999999999']) {
        const response = await post({ path: `_/Workspaces/${id}/x`, user_id: user.id, permission: 'full' });
        expectError(response, 404, 'not-found/workspace-not-found');
      }
    });

    it('answers folder-admin-permission-required, not workspace-not-found, to anyone else', async () => {
      const member = await memberOf(t);
      const other = await createUser(t.database.db);
      const response = await post({ path: '_/Workspaces/987654/x', user_id: other.id, permission: 'full' }, { key: member.key });
      expectError(response, 403, 'not-authorized/folder-admin-permission-required');
    });
  });

  describe('workspace_id (membership field)', () => {
    it('defaults to the context and refuses a mismatch in a Custom Workspace context', async () => {
      const user = await createUser(t.database.db, { workspaceId: ws });
      const same = await post({ path: 'm', user_id: user.id, permission: 'full', workspace_id: ws }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(same.status).toBe(201);
      for (const workspaceId of [0, otherWs]) {
        const response = await post({ path: 'm', user_id: user.id, permission: 'full', workspace_id: workspaceId }, { key: BOOTSTRAP_KEY, workspace: ws });
        expectError(response, 403, 'not-authorized/insufficient-permission-for-params');
      }
    });

    it('must match the Workspace the path lies in from context 0', async () => {
      const user = await createUser(t.database.db, { workspaceId: ws });
      const zeroUser = await createUser(t.database.db);
      const matching = await post({ path: `_/Workspaces/${ws}/m0`, user_id: user.id, permission: 'full', workspace_id: ws });
      expect(matching.status).toBe(201);
      const defaulted = await post({ path: 'top-level', user_id: zeroUser.id, permission: 'full' });
      expect(defaulted.body.workspace_id).toBe(0);
      const wrongForPath = await post({ path: `_/Workspaces/${ws}/m0`, user_id: user.id, permission: 'full', workspace_id: 0 });
      expectError(wrongForPath, 403, 'not-authorized/insufficient-permission-for-params');
      const wrongForTop = await post({ path: 'top-level', user_id: zeroUser.id, permission: 'full', workspace_id: ws });
      expectError(wrongForTop, 403, 'not-authorized/insufficient-permission-for-params');
    });
  });

  describe('who may create (contract 5.3, product rule 5)', () => {
    it('lets a site-wide full key and a Site Administrator\'s full user key and session create grants in context 0', async () => {
      const admin = await createUser(t.database.db, { siteAdmin: true });
      const adminKey = await createApiKey(t.database.db, { userId: admin.id, permissionSet: 'full' });
      const session = await createSession(t.database.db, admin.id, t.clock.now());
      const group = await createGroup(t.database.db);
      for (const credential of [{ key: BOOTSTRAP_KEY }, { key: adminKey }, { session }]) {
        const response = await post({ path: `_/Workspaces/${ws}`, group_id: group, permission: 'admin' }, credential);
        expect(response.status, JSON.stringify(credential)).toBe(201);
      }
    });

    it('refuses a files_only key, even a Site Administrator\'s', async () => {
      const admin = await createUser(t.database.db, { siteAdmin: true });
      const filesOnly = await createApiKey(t.database.db, { userId: admin.id, permissionSet: 'files_only' });
      const group = await createGroup(t.database.db);
      const response = await post({ path: `_/Workspaces/${ws}`, group_id: group, permission: 'admin' }, { key: filesOnly });
      expectError(response, 403, 'not-authorized/api-key-is-files-only');
      const siteWideFilesOnly = await createApiKey(t.database.db, { userId: null, permissionSet: 'files_only' });
      const siteWide = await post({ path: `_/Workspaces/${ws}`, group_id: group, permission: 'admin' }, { key: siteWideFilesOnly });
      expectError(siteWide, 403, 'not-authorized/api-key-is-files-only');
    });

    it('refuses a regular user\'s full key: folder-admin-permission-required, whatever the grantee', async () => {
      const member = await memberOf(t);
      const group = await createGroup(t.database.db);
      for (const body of [
        { path: `_/Workspaces/${ws}`, group_id: group, permission: 'admin' },
        { path: `_/Workspaces/${ws}`, user_id: member.id, permission: 'admin' },
        { path: 'anything', user_id: 987654, permission: 'list' },
      ]) {
        const response = await post(body, { key: member.key });
        expectError(response, 403, 'not-authorized/folder-admin-permission-required');
      }
      const inWorkspace = await post({ path: '', group_id: group, permission: 'admin' }, { key: member.key, workspace: ws });
      expectError(inWorkspace, 403, 'not-authorized/folder-admin-permission-required');
    });

    it('lets a Site Administrator select the Custom Workspace and grant a Default Workspace group its root with the empty path', async () => {
      const admin = await createUser(t.database.db, { siteAdmin: true });
      const adminKey = await createApiKey(t.database.db, { userId: admin.id });
      const group = await createGroup(t.database.db, { workspaceId: 0 });
      const response = await post({ path: '', group_id: group, permission: 'admin', recursive: true }, { key: adminKey, workspace: ws });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ path: '', group_id: group, workspace_id: ws, permission: 'admin', recursive: true });
      expect((await permissionRow(response.body.id))?.path).toBe(`_/Workspaces/${ws}`);
    });

    it('refuses, even to a Site Administrator, a grantee of another Custom Workspace', async () => {
      const stranger = await createUser(t.database.db, { workspaceId: otherWs });
      const strangerGroup = await createGroup(t.database.db, { workspaceId: otherWs });
      const asUser = await post({ path: 'x', user_id: stranger.id, permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expectError(asUser, 422, 'processing-failure/model-save-error');
      const asGroup = await post({ path: 'x', group_id: strangerGroup, permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expectError(asGroup, 422, 'processing-failure/model-save-error');
      const onTop = await post({ path: 'top', user_id: stranger.id, permission: 'full' });
      expectError(onTop, 422, 'processing-failure/model-save-error');
    });

    it('answers unknown grantees with user-not-found and group-not-found', async () => {
      expectError(await post({ path: 'x', user_id: 987654, permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws }), 404, 'not-found/user-not-found');
      expectError(await post({ path: 'x', group_id: 987654, permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws }), 404, 'not-found/group-not-found');
      expectError(await post({ path: 'x', username: 'nobody-at-all', permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws }), 404, 'not-found/user-not-found');
      expectError(await post({ path: 'x', group_name: 'no such group', permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws }), 404, 'not-found/group-not-found');
    });

    it('accepts username and group_name instead of ids', async () => {
      const user = await createUser(t.database.db, { workspaceId: ws });
      const groupName = `Team ${user.id}`;
      const group = await createGroup(t.database.db, { workspaceId: ws, name: groupName });
      const byName = await post({ path: 'named', username: user.username.toUpperCase(), permission: 'list' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(byName.status).toBe(201);
      expect(byName.body.user_id).toBe(user.id);
      const byGroupName = await post({ path: 'named', group_name: groupName.toLowerCase(), permission: 'list' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(byGroupName.status).toBe(201);
      expect(byGroupName.body).toMatchObject({ group_id: group, group_name: groupName });
    });

    it('keeps the site root to Site Administrators: a grant there reaches every Workspace', async () => {
      const zeroAdminGroup = await createGroup(t.database.db);
      const zeroMember = await memberOf(t);
      await addMember(t.database.db, zeroAdminGroup, zeroMember.id);
      await grantAsSite(t, { path: `_/Workspaces/${ws}`, group_id: zeroAdminGroup, permission: 'admin' });
      const peer = await createUser(t.database.db);
      const response = await post({ path: '', user_id: peer.id, permission: 'list' }, { key: zeroMember.key });
      expectError(response, 403, 'not-authorized/site-admin-required');
      const bySite = await post({ path: '', user_id: peer.id, permission: 'list' });
      expect(bySite.status).toBe(201);
      expect(bySite.body).toMatchObject({ path: '', workspace_id: 0 });
    });
  });

  describe('replacement (contract 5.2)', () => {
    it('replaces the same grantee\'s subsumed grants on the path and below, and only those', async () => {
      const user = await createUser(t.database.db, { workspaceId: ws });
      const other = await createUser(t.database.db, { workspaceId: ws });
      const as = { key: BOOTSTRAP_KEY, workspace: ws };
      const above = await grantAsSite(t, { path: '', user_id: user.id, permission: 'list' }, ws);
      const onPath = await grantAsSite(t, { path: 'R', user_id: user.id, permission: 'readonly' }, ws);
      const below = await grantAsSite(t, { path: 'R/a/b', user_id: user.id, permission: 'list', recursive: false }, ws);
      const belowRecursive = await grantAsSite(t, { path: 'r/c', user_id: user.id, permission: 'history' }, ws);
      const wider = await grantAsSite(t, { path: 'R/admin', user_id: user.id, permission: 'admin' }, ws);
      const otherUsers = await grantAsSite(t, { path: 'R', user_id: other.id, permission: 'list' }, ws);
      const sibling = await grantAsSite(t, { path: 'Rx', user_id: user.id, permission: 'list' }, ws);

      const response = await post({ path: 'r', user_id: user.id, permission: 'bundle' }, as);
      expect(response.status).toBe(201);
      // bundle = list, read, share: covers readonly and list, not history (on r/c) nor admin.
      expect(response.body.replaced_permission_ids).toEqual([onPath, below].sort((a, b) => a - b));
      const remaining = await t.api.get(`/permissions?user_id=${user.id}`, as);
      expect(ids(remaining.body).sort((a, b) => a - b)).toEqual([belowRecursive, wider, sibling, above, response.body.id].sort((a, b) => a - b));
      expect(await permissionRow(otherUsers)).toBeDefined();
    });

    it('does not let a non-recursive grant replace a recursive one, nor reach below itself', async () => {
      const user = await createUser(t.database.db, { workspaceId: ws });
      const recursive = await grantAsSite(t, { path: 'N', user_id: user.id, permission: 'list' }, ws);
      const child = await grantAsSite(t, { path: 'N/child', user_id: user.id, permission: 'list', recursive: false }, ws);
      const response = await post({ path: 'N', user_id: user.id, permission: 'full', recursive: false }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(response.body.replaced_permission_ids).toEqual([]);
      expect(await permissionRow(recursive)).toBeDefined();
      expect(await permissionRow(child)).toBeDefined();
    });

    it('answers a duplicate grant with a new grant that replaces the old one', async () => {
      const group = await createGroup(t.database.db, { workspaceId: ws });
      const first = await grantAsSite(t, { path: 'dup', group_id: group, permission: 'full' }, ws);
      const again = await post({ path: 'DUP', group_id: group, permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(again.status).toBe(201);
      expect(again.body.id).not.toBe(first);
      expect(again.body.replaced_permission_ids).toEqual([first]);
      expect(await permissionRow(first)).toBeUndefined();
    });

    it('replaces an ALL-of grant only for the identical set of groups', async () => {
      const a = await createGroup(t.database.db, { workspaceId: ws });
      const b = await createGroup(t.database.db, { workspaceId: ws });
      const c = await createGroup(t.database.db, { workspaceId: ws });
      const ab = await grantAsSite(t, { path: 'allof-r', group_ids: [a, b], permission: 'list' }, ws);
      const abc = await grantAsSite(t, { path: 'allof-r', group_ids: [a, b, c], permission: 'list' }, ws);
      const onlyA = await grantAsSite(t, { path: 'allof-r', group_id: a, permission: 'list' }, ws);
      const response = await post({ path: 'allof-r', group_ids: `${b},${a}`, permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(response.body.replaced_permission_ids).toEqual([ab]);
      expect(await permissionRow(abc)).toBeDefined();
      expect(await permissionRow(onlyA)).toBeDefined();
      const groupRows = await t.database.db.selectFrom('permission_groups').selectAll().where('permission_id', '=', ab).execute();
      expect(groupRows).toEqual([]);
    });

    it('never restores replaced grants when the new grant is deleted', async () => {
      const user = await createUser(t.database.db, { workspaceId: ws });
      const narrow = await grantAsSite(t, { path: 'restore/a', user_id: user.id, permission: 'readonly' }, ws);
      const broad = await post({ path: 'restore', user_id: user.id, permission: 'full' }, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(broad.body.replaced_permission_ids).toEqual([narrow]);
      const deleted = await t.api.delete(`/permissions/${broad.body.id}`, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(deleted.status).toBe(204);
      const list = await t.api.get(`/permissions?user_id=${user.id}`, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(list.body).toEqual([]);
      const explain = await t.api.get(`/permissions/explain?path=restore/a&user_id=${user.id}`, { key: BOOTSTRAP_KEY, workspace: ws });
      expect(explain.body.capabilities).toEqual([]);
    });
  });
});
