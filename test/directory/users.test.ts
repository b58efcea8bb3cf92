import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createApiKey, createGroup, createSession, createUser, unique } from '../support/factories.js';
import { buildSite, type SiteFixture } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const ids = (body: { id: number }[]) => body.map((u) => u.id).sort((a, b) => a - b);

describe.each(testDatabaseTargets())('users [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  beforeAll(async () => {
    t = await startTestApp(target);
    s = await buildSite(t);
  });
  afterAll(() => t.close());

  describe('listing', () => {
    it('finds nothing, on both databases alike, for a filter holding a NUL character, which no stored text can hold', async () => {
      for (const query of ['/users?filter[username]=a%00b', '/groups?filter[name]=%00', '/history?filter[username]=%00']) {
        const response = await t.api.get(query, { key: BOOTSTRAP_KEY });
        expect({ query, status: response.status, body: response.body }).toEqual({ query, status: 200, body: [] });
      }
    });

    it('shows a regular user only itself', async () => {
      const response = await t.api.get('/users', { key: s.member1.key });
      expect(response.status).toBe(200);
      expect(ids(response.body)).toEqual([s.member1.user.id]);
    });

    it("shows a Workspace Administrator its Workspace's users and nobody else's", async () => {
      const response = await t.api.get('/users', { key: s.admin1.key });
      expect(ids(response.body)).toEqual([s.admin1.user.id, s.member1.user.id].sort((a, b) => a - b));
    });

    it('makes a Workspace 0 user administrator of a Workspace through a group root grant, with the Workspace selected', async () => {
      const inWs2 = await t.api.get('/users', { key: s.delegate.key, workspace: s.ws2 });
      expect(ids(inWs2.body)).toEqual([s.member2.user.id]);
      // Without selecting the Workspace the request works in Workspace 0, where it administers nothing.
      const home = await t.api.get('/users', { key: s.delegate.key });
      expect(ids(home.body)).toEqual([s.delegate.user.id]);
      // workspace_admin stays a membership-level flag: it does not summarise effective access.
      const self = await t.api.get(`/users/${s.delegate.user.id}`, { key: s.delegate.key });
      expect(self.body.workspace_admin).toBe(false);
    });

    it('shows a Group Admin the members of its groups too', async () => {
      const groupAdmin = await createUser(t.database.db, { workspaceId: s.ws1 });
      const key = await createApiKey(t.database.db, { userId: groupAdmin.id, workspaceId: s.ws1 });
      const group = await createGroup(t.database.db, { workspaceId: s.ws1 });
      await addMember(t.database.db, group, groupAdmin.id, true);
      await addMember(t.database.db, group, s.member1.user.id);
      const response = await t.api.get('/users', { key });
      expect(ids(response.body)).toEqual([s.member1.user.id, groupAdmin.id].sort((a, b) => a - b));
    });

    it('answers each listing from the data as it is now, however often the same listing was asked', async () => {
      const groupAdmin = await createUser(t.database.db, { workspaceId: s.ws1 });
      const key = await createApiKey(t.database.db, { userId: groupAdmin.id, workspaceId: s.ws1 });
      const group = await createGroup(t.database.db, { workspaceId: s.ws1 });
      await addMember(t.database.db, group, groupAdmin.id, true);
      // Asked twice before each change: the second answer may come from memory, the next must not.
      const settled = async (expected: number[]) => {
        for (let i = 0; i < 2; i += 1) {
          const response = await t.api.get('/users', { key });
          expect(ids(response.body)).toEqual(expected.sort((a, b) => a - b));
        }
      };
      await settled([groupAdmin.id]);
      const joined = await t.api.post('/group_users', { group_id: group, user_id: s.member1.user.id }, { key: BOOTSTRAP_KEY, workspace: s.ws1 });
      expect(joined.status).toBe(201);
      await settled([groupAdmin.id, s.member1.user.id]);
      const renamed = await t.api.patch(`/users/${s.member1.user.id}`, { name: 'Renamed Now' }, { key: BOOTSTRAP_KEY, workspace: s.ws1 });
      expect(renamed.status).toBe(200);
      const after = await t.api.get('/users', { key });
      const shown = after.body.find((u: { id: number }) => u.id === s.member1.user.id);
      expect(shown.name).toBe('Renamed Now');
      expect(shown.group_ids.split(',')).toContain(String(group));
      expect((await t.api.delete(`/group_users/${joined.body.id}`, { key: BOOTSTRAP_KEY, workspace: s.ws1 })).status).toBe(204);
      await settled([groupAdmin.id]);
    });

    it('takes a Workspace Administrator\'s authority away on the very next request once its flag is removed', async () => {
      const admin = await createUser(t.database.db, { workspaceId: s.ws1, workspaceAdmin: true });
      const key = await createApiKey(t.database.db, { userId: admin.id, workspaceId: s.ws1 });
      for (let i = 0; i < 2; i += 1) expect(ids((await t.api.get('/users', { key })).body)).toContain(s.member1.user.id);
      const demoted = await t.api.patch(`/users/${admin.id}`, { workspace_admin: false }, { key: BOOTSTRAP_KEY, workspace: s.ws1 });
      expect(demoted.status).toBe(200);
      expect(ids((await t.api.get('/users', { key })).body)).toEqual([admin.id]);
      const refused = await t.api.post('/users', { username: unique('not-made') }, { key });
      expect(refused.status).toBe(403);
      expect(refused.body.type).toBe('not-authorized/site-admin-or-workspace-admin-permission-required');
    });

    it('lets a Site Administrator in context 0 list every Workspace, with filters, ids and pagination', async () => {
      const all = await t.api.get('/users', { key: BOOTSTRAP_KEY });
      expect(ids(all.body)).toEqual(expect.arrayContaining([s.admin1.user.id, s.delegate.user.id, s.member1.user.id, s.member2.user.id]));
      const ws1 = await t.api.get(`/users?filter%5Bworkspace_id%5D=${s.ws1}`, { key: BOOTSTRAP_KEY });
      expect(ids(ws1.body)).toEqual(expect.arrayContaining([s.admin1.user.id, s.member1.user.id]));
      expect(ws1.body.every((u: { workspace_id: number }) => u.workspace_id === s.ws1)).toBe(true);
      const byName = await t.api.get(`/users?filter[username]=${s.member2.user.username.toUpperCase()}`, { key: BOOTSTRAP_KEY });
      expect(ids(byName.body)).toEqual([s.member2.user.id]);
      const byIds = await t.api.get(`/users?ids=${s.member1.user.id},${s.member2.user.id}`, { key: BOOTSTRAP_KEY });
      expect(ids(byIds.body)).toEqual([s.member1.user.id, s.member2.user.id].sort((a, b) => a - b));
      const first = await t.api.get('/users?per_page=2', { key: BOOTSTRAP_KEY });
      expect(first.body).toHaveLength(2);
      const cursor = first.headers.get('x-service-cursor') as string;
      // Asked again with nothing changed, the page is the kept one: the same body and the same cursor.
      const again = await t.api.get('/users?per_page=2', { key: BOOTSTRAP_KEY });
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('x-service-cursor')).toBe(cursor);
      const second = await t.api.get(`/users?per_page=2&cursor=${cursor}`, { key: BOOTSTRAP_KEY });
      expect(second.body[0].id).toBeGreaterThan(first.body[1].id);
      // Selecting a Workspace narrows the Site Administrator's listing to it.
      const selected = await t.api.get('/users', { key: BOOTSTRAP_KEY, workspace: s.ws2 });
      expect(ids(selected.body)).toEqual([s.member2.user.id]);
    });

    it("shows the contract's fields and never a password or hash", async () => {
      const response = await t.api.get(`/users/${s.member1.user.id}`, { key: s.admin1.key });
      expect(Object.keys(response.body).sort()).toEqual([
        'active_2fa', 'admin_group_ids', 'allowed_ips', 'authenticate_until', 'authentication_method', 'company', 'created_at', 'dav_permission', 'disabled', 'email', 'filesystem_layout', 'first_login_at', 'ftp_permission',
        'group_ids', 'id', 'language', 'last_active_at', 'last_api_use_at', 'last_dav_login_at', 'last_login_at', 'last_restapi_login_at', 'last_sftp_login_at',
        'last_web_login_at', 'lockout_expires', 'name', 'notes', 'partner_admin', 'partner_id', 'partner_name', 'password_set_at', 'require_2fa', 'require_password_change', 'restapi_permission',
        'sftp_permission', 'site_admin', 'ssl_required', 'sso_strategy_id', 'time_zone', 'type_of_2fa', 'type_of_2fa_for_display', 'user_root', 'username', 'workspace_admin', 'workspace_id',
      ]);
      expect(response.body.workspace_id).toBe(s.ws1);
      expect(typeof response.body.group_ids).toBe('string');
    });
  });

  describe('authority boundaries', () => {
    it('answers a Workspace Administrator of 1 acting on a user of Workspace 2 with not-found', async () => {
      for (const call of [
        () => t.api.get(`/users/${s.member2.user.id}`, { key: s.admin1.key }),
        () => t.api.patch(`/users/${s.member2.user.id}`, { name: 'x' }, { key: s.admin1.key }),
        () => t.api.delete(`/users/${s.member2.user.id}`, { key: s.admin1.key }),
      ]) {
        const response = await call();
        expect(response.status).toBe(404);
        expect(response.body.type).toBe('not-found/user-not-found');
      }
      const select = await t.api.get('/users', { key: s.admin1.key, workspace: s.ws2 });
      expect(select.body.type).toBe('bad-request/invalid-workspace-id-header');
    });

    it('answers an unknown user id exactly like one out of reach', async () => {
      const unknown = await t.api.get('/users/999999', { key: s.admin1.key });
      const outOfReach = await t.api.get(`/users/${s.member2.user.id}`, { key: s.admin1.key });
      expect(unknown.status).toBe(outOfReach.status);
      expect(unknown.body.type).toBe(outOfReach.body.type);
      expect(unknown.body.error).toBe(outOfReach.body.error);
    });
  });

  describe('creating', () => {
    it('creates a user in the context Workspace by default, for its administrator', async () => {
      const username = unique('new');
      const response = await t.api.post('/users', { username, password: 'long enough password', name: 'New' }, { key: s.admin1.key });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ username, name: 'New', workspace_id: s.ws1, site_admin: false, workspace_admin: false, disabled: false });
      expect(response.body.password_set_at).toMatch(/Z$/);
      const row = await t.database.db.selectFrom('users').selectAll().where('id', '=', response.body.id).executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(JSON.stringify(response.body)).not.toContain('argon2');
    });

    it('refuses a workspace_id that differs from the selected Workspace', async () => {
      const response = await t.api.post('/users', { username: unique('x'), workspace_id: s.ws2 }, { key: s.admin1.key });
      expect(response.status).toBe(403);
      expect(response.body.type).toBe('not-authorized/insufficient-permission-for-params');
      const fromZero = await t.api.post('/users', { username: unique('x'), workspace_id: s.ws1 }, { key: BOOTSTRAP_KEY, workspace: s.ws2 });
      expect(fromZero.body.type).toBe('not-authorized/insufficient-permission-for-params');
    });

    it('lets a Site Administrator in context 0 name another Workspace', async () => {
      const response = await t.api.post('/users', { username: unique('x'), workspace_id: s.ws2 }, { key: BOOTSTRAP_KEY });
      expect(response.status).toBe(201);
      expect(response.body.workspace_id).toBe(s.ws2);
      const unknown = await t.api.post('/users', { username: unique('x'), workspace_id: 987654 }, { key: BOOTSTRAP_KEY });
      expect(unknown.body.type).toBe('not-found/workspace-not-found');
    });

    it('refuses creation by a non-administrator', async () => {
      const response = await t.api.post('/users', { username: unique('x') }, { key: s.member1.key });
      expect(response.status).toBe(403);
      expect(response.body.type).toBe('not-authorized/site-admin-or-workspace-admin-permission-required');
    });

    it('keeps site_admin for Site Administrators to grant, and for Workspace 0 users', async () => {
      const byWorkspaceAdmin = await t.api.post('/users', { username: unique('x'), site_admin: true }, { key: s.admin1.key });
      expect(byWorkspaceAdmin.body.type).toBe('not-authorized/insufficient-permission-for-params');
      const customUser = await t.api.post('/users', { username: unique('x'), site_admin: true, workspace_id: s.ws1 }, { key: BOOTSTRAP_KEY });
      expect(customUser.status).toBe(422);
      expect(customUser.body.model_errors).toHaveProperty('site_admin');
      const ok = await t.api.post('/users', { username: unique('x'), site_admin: true }, { key: BOOTSTRAP_KEY });
      expect(ok.body.site_admin).toBe(true);
    });

    it('keeps workspace_admin for Custom Workspace users', async () => {
      const zero = await t.api.post('/users', { username: unique('x'), workspace_admin: true }, { key: BOOTSTRAP_KEY });
      expect(zero.status).toBe(422);
      expect(zero.body.model_errors).toHaveProperty('workspace_admin');
      const custom = await t.api.post('/users', { username: unique('x'), workspace_admin: true }, { key: s.admin1.key });
      expect(custom.body.workspace_admin).toBe(true);
    });

    it('refuses a username taken in any case, anywhere on the site', async () => {
      const response = await t.api.post('/users', { username: s.member2.user.username.toUpperCase() }, { key: s.admin1.key });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ type: 'processing-failure/model-save-error', model_errors: { username: ['has already been taken'] } });
    });

    it('refuses a password below the site minimum and bad input without a 500', async () => {
      const short = await t.api.post('/users', { username: unique('x'), password: 'short' }, { key: s.admin1.key });
      expect(short.status).toBe(422);
      expect(short.body.model_errors).toHaveProperty('password');
      for (const body of [{}, { username: 42 }, { username: '' }, { username: 'a/b' }, { username: 'x'.repeat(200) }, { username: unique('x'), group_ids: 'a,b' }]) {
        const response = await t.api.post('/users', body, { key: s.admin1.key });
        expect(response.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
        expect(response.status, JSON.stringify(body)).toBeLessThan(500);
      }
    });

    it('adds the new user to groups named in group_ids (comma-separated)', async () => {
      const g1 = await createGroup(t.database.db, { workspaceId: s.ws1 });
      const g2 = await createGroup(t.database.db, { workspaceId: s.ws1 });
      const response = await t.api.post('/users', { username: unique('x'), group_ids: `${g1},${g2}` }, { key: s.admin1.key });
      expect(response.body.group_ids).toBe(`${g1},${g2}`);
      const foreign = await createGroup(t.database.db, { workspaceId: s.ws2 });
      const refused = await t.api.post('/users', { username: unique('x'), group_ids: [foreign] }, { key: s.admin1.key });
      expect(refused.body.type).toBe('not-found/group-not-found');
    });
  });

  describe('updating', () => {
    it('lets a user change its own name, email and password, but not privileged fields', async () => {
      const user = await createUser(t.database.db, { workspaceId: s.ws1 });
      const key = await createApiKey(t.database.db, { userId: user.id, workspaceId: s.ws1 });
      const own = await t.api.patch(`/users/${user.id}`, { name: 'Me', email: 'me@example.com', password: 'my new long password' }, { key });
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ name: 'Me', email: 'me@example.com' });
      for (const body of [{ username: unique('renamed') }, { workspace_admin: true }, { disabled: true }, { site_admin: true }]) {
        const response = await t.api.patch(`/users/${user.id}`, body, { key });
        expect(response.status, JSON.stringify(body)).toBe(403);
        expect(response.body.type).toBe('not-authorized/insufficient-permission-for-params');
      }
    });

    it('accepts a save that sends every attribute back unchanged (as the Files.com SDK does)', async () => {
      const current = (await t.api.get(`/users/${s.member1.user.id}`, { key: s.member1.key })).body;
      const response = await t.api.put(`/users/${s.member1.user.id}`, { ...current, name: 'Saved' }, { key: s.member1.key });
      expect(response.status).toBe(200);
      expect(response.body.name).toBe('Saved');
    });

    describe('group_ids', () => {
      const groupsOf = async (userId: number) =>
        (await t.database.db.selectFrom('group_users').select('group_id').where('user_id', '=', userId).orderBy('group_id').execute()).map((row) => row.group_id);

      it('answers a group that does not exist as POST /users does, and one out of range as any bad id, changing nothing', async () => {
        const group = await createGroup(t.database.db, { workspaceId: s.ws1 });
        const user = await createUser(t.database.db, { workspaceId: s.ws1 });
        await addMember(t.database.db, group, user.id);
        const created = await t.api.post('/users', { username: unique('x'), group_ids: '999999' }, { key: s.admin1.key });
        expect([created.status, created.body.type]).toEqual([404, 'not-found/group-not-found']);
        for (const groupIds of ['999999', [999999], `${group},999999`]) {
          const response = await t.api.patch(`/users/${user.id}`, { name: 'Not Renamed', group_ids: groupIds }, { key: s.admin1.key });
          expect({ groupIds, status: response.status, type: response.body.type }).toEqual({ groupIds, status: created.status, type: created.body.type });
        }
        for (const groupIds of ['2147483648', [2147483648], `${group},9007199254740991`, '1.5', 'abc', [-1]]) {
          const response = await t.api.patch(`/users/${user.id}`, { name: 'Not Renamed', group_ids: groupIds }, { key: s.admin1.key });
          expect({ groupIds, status: response.status, type: response.body.type }).toEqual({ groupIds, status: 400, type: 'bad-request/request-params-invalid' });
          expect(response.body.model_errors).toHaveProperty(typeof groupIds === 'string' ? 'group_ids' : 'group_ids[0]');
        }
        expect(await groupsOf(user.id)).toEqual([group]);
        expect((await t.api.get(`/users/${user.id}`, { key: s.admin1.key })).body.name).not.toBe('Not Renamed');
      });

      it('joins and leaves once when the same group_ids arrive 20 times at once, and when /group_users changes the same membership meanwhile', async () => {
        const [joined, left] = [await createGroup(t.database.db, { workspaceId: s.ws1 }), await createGroup(t.database.db, { workspaceId: s.ws1 })];
        const user = await createUser(t.database.db, { workspaceId: s.ws1 });
        await addMember(t.database.db, left, user.id);
        const historyBefore = (await t.api.get('/history?filter[action]=group_update', { key: BOOTSTRAP_KEY })).body.length;
        const answers = await Promise.all([
          ...Array.from({ length: 20 }, () => t.api.patch(`/users/${user.id}`, { group_ids: `${joined}` }, { key: s.admin1.key })),
          t.api.post('/group_users', { group_id: joined, user_id: user.id }, { key: s.admin1.key }),
        ]);
        expect(answers.slice(0, 20).map((answer) => answer.status)).toEqual(Array(20).fill(200));
        expect([201, 422]).toContain(answers[20]!.status);
        expect(await groupsOf(user.id)).toEqual([joined]);
        // One join (by whichever request came first) and one leave.
        expect((await t.api.get('/history?filter[action]=group_update', { key: BOOTSTRAP_KEY })).body.length).toBe(historyBefore + 2);
      });

      it('ends two different group_ids lists sent at once as one after the other would: the user is in exactly one of them', async () => {
        const [g1, g2, g3] = [await createGroup(t.database.db, { workspaceId: s.ws1 }), await createGroup(t.database.db, { workspaceId: s.ws1 }), await createGroup(t.database.db, { workspaceId: s.ws1 })];
        for (let round = 0; round < 5; round += 1) {
          const user = await createUser(t.database.db, { workspaceId: s.ws1 });
          const answers = await Promise.all([`${g1},${g3}`, `${g2},${g3}`].map((groupIds) => t.api.patch(`/users/${user.id}`, { group_ids: groupIds }, { key: s.admin1.key })));
          expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
          expect([[g1, g3], [g2, g3]]).toContainEqual(await groupsOf(user.id));
        }
      });

      it("makes the list the user's groups: joins those newly named, leaves those left out, keeps the rest and their flags", async () => {
        const [kept, left, joined] = [await createGroup(t.database.db, { workspaceId: s.ws1 }), await createGroup(t.database.db, { workspaceId: s.ws1 }), await createGroup(t.database.db, { workspaceId: s.ws1 })];
        const user = await createUser(t.database.db, { workspaceId: s.ws1 });
        await addMember(t.database.db, kept, user.id, true);
        await addMember(t.database.db, left, user.id);
        const historyBefore = await t.api.get('/history?filter[action]=group_update', { key: BOOTSTRAP_KEY });
        const response = await t.api.patch(`/users/${user.id}`, { group_ids: `${kept},${joined}` }, { key: s.admin1.key });
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ group_ids: [kept, joined].sort((a, b) => a - b).join(','), admin_group_ids: [kept] });
        expect(await groupsOf(user.id)).toEqual([kept, joined].sort((a, b) => a - b));
        const history = await t.api.get('/history?filter[action]=group_update', { key: BOOTSTRAP_KEY });
        const recorded = history.body.slice(0, history.body.length - historyBefore.body.length);
        const names = new Map((await t.database.db.selectFrom('groups').select(['id', 'name']).where('id', 'in', [left, joined]).execute()).map((g) => [g.id, g.name]));
        expect(recorded.map((r: { display: string }) => r.display).sort()).toEqual([
          `Changed group ${names.get(joined)}: 1 member(s) added`, `Changed group ${names.get(left)}: 1 member(s) removed`,
        ].sort());
        // Sent back as read (the SDK's save), the list changes nothing and records nothing.
        const again = await t.api.patch(`/users/${user.id}`, { group_ids: response.body.group_ids }, { key: s.admin1.key });
        expect(again.status).toBe(200);
        expect((await t.api.get('/history?filter[action]=group_update', { key: BOOTSTRAP_KEY })).body.length).toBe(history.body.length);
        expect((await t.api.patch(`/users/${user.id}`, { group_ids: '' }, { key: s.admin1.key })).body.group_ids).toBe('');
        expect(await groupsOf(user.id)).toEqual([]);
      });

      it("refuses a group of another Workspace as not found, and a change by anyone who does not administer the group's Workspace", async () => {
        const foreign = await createGroup(t.database.db, { workspaceId: s.ws2 });
        const own = await createGroup(t.database.db, { workspaceId: s.ws1 });
        const user = await createUser(t.database.db, { workspaceId: s.ws1 });
        const key = await createApiKey(t.database.db, { userId: user.id, workspaceId: s.ws1 });
        const foreignRefused = await t.api.patch(`/users/${user.id}`, { group_ids: [foreign] }, { key: BOOTSTRAP_KEY });
        expect([foreignRefused.status, foreignRefused.body.type]).toEqual([404, 'not-found/group-not-found']);
        await addMember(t.database.db, own, user.id);
        const self = await t.api.patch(`/users/${user.id}`, { group_ids: '' }, { key });
        expect([self.status, self.body.type]).toEqual([403, 'not-authorized/insufficient-permission-for-params']);
        expect(await groupsOf(user.id)).toEqual([own]);
      });
    });

    it("refuses a user acting on another user it can see but does not administer", async () => {
      const groupAdmin = await createUser(t.database.db, { workspaceId: s.ws1 });
      const key = await createApiKey(t.database.db, { userId: groupAdmin.id, workspaceId: s.ws1 });
      const group = await createGroup(t.database.db, { workspaceId: s.ws1 });
      await addMember(t.database.db, group, groupAdmin.id, true);
      await addMember(t.database.db, group, s.member1.user.id);
      const response = await t.api.patch(`/users/${s.member1.user.id}`, { name: 'x' }, { key });
      expect(response.status).toBe(403);
      expect(response.body.type).toBe('not-authorized/site-admin-or-workspace-admin-permission-required');
    });

    it("lets a Workspace Administrator disable a user, which ends the user's sessions and stops its keys", async () => {
      const user = await createUser(t.database.db, { workspaceId: s.ws1 });
      const key = await createApiKey(t.database.db, { userId: user.id, workspaceId: s.ws1 });
      const session = await createSession(t.database.db, user.id, t.clock.now());
      expect((await t.api.get('/users', { session })).status).toBe(200);
      const disabled = await t.api.patch(`/users/${user.id}`, { disabled: true }, { key: s.admin1.key });
      expect(disabled.body.disabled).toBe(true);
      expect((await t.api.get('/users', { session })).body.type).toBe('not-authenticated/invalid-session');
      expect((await t.api.get('/users', { key })).body.type).toBe('not-authenticated/invalid-credentials');
      const enabled = await t.api.patch(`/users/${user.id}`, { disabled: false }, { key: s.admin1.key });
      expect(enabled.body.disabled).toBe(false);
      expect((await t.api.get('/users', { key })).status).toBe(200);
      expect((await t.api.get('/users', { session })).body.type).toBe('not-authenticated/invalid-session');
    });

    it("ends the user's other sessions when its password changes, keeping the session that changed it", async () => {
      const password = 'the original password';
      const user = await createUser(t.database.db, { workspaceId: s.ws1, password });
      const current = await createSession(t.database.db, user.id, t.clock.now());
      const other = await createSession(t.database.db, user.id, t.clock.now());
      const missing = await t.api.patch(`/users/${user.id}`, { password: 'a brand new password' }, { session: current });
      expect(missing.status).toBe(400);
      expect(missing.body.type).toBe('bad-request/reauthentication-needed-fields');
      const changed = await t.api.patch(`/users/${user.id}`, { password: 'a brand new password' }, {
        session: current,
        headers: { 'X-Service-Reauthentication': `password:${password}` },
      });
      expect(changed.status).toBe(200);
      expect((await t.api.get('/users', { session: current })).status).toBe(200);
      expect((await t.api.get('/users', { session: other })).body.type).toBe('not-authenticated/invalid-session');
    });

    it('keeps the last active Site Administrator', async () => {
      const onlyAdmin = (await t.database.db.selectFrom('users').select('id').where('username', '=', 'root-admin').executeTakeFirstOrThrow()).id;
      const others = await t.database.db.selectFrom('users').select('id').where('site_admin', '=', true).where('id', '!=', onlyAdmin).execute();
      await t.database.db.updateTable('users').set({ site_admin: false }).where('id', 'in', [0, ...others.map((o) => o.id)]).execute();
      for (const body of [{ site_admin: false }, { disabled: true }]) {
        const response = await t.api.patch(`/users/${onlyAdmin}`, body, { key: BOOTSTRAP_KEY });
        expect(response.status, JSON.stringify(body)).toBe(422);
        expect(response.body.model_errors).toHaveProperty('site_admin');
      }
      const deleted = await t.api.delete(`/users/${onlyAdmin}`, { key: BOOTSTRAP_KEY });
      expect(deleted.status).toBe(422);
    });
  });

  describe('deleting', () => {
    it("deletes a user with its keys, sessions, memberships and direct grants", async () => {
      const user = await createUser(t.database.db, { workspaceId: s.ws1 });
      const key = await createApiKey(t.database.db, { userId: user.id, workspaceId: s.ws1 });
      const group = await createGroup(t.database.db, { workspaceId: s.ws1 });
      await addMember(t.database.db, group, user.id);
      await t.database.db.insertInto('permissions').values({
        workspace_id: s.ws1, path: `_/Workspaces/${s.ws1}/a`, path_key: `_/workspaces/${s.ws1}/a`, user_id: user.id, group_id: null,
        permission: 'full', recursive: true, created_at: 0,
      }).execute();
      const response = await t.api.delete(`/users/${user.id}`, { key: s.admin1.key });
      expect(response.status).toBe(204);
      expect((await t.api.get('/users', { key })).body.type).toBe('not-authenticated/invalid-credentials');
      expect(await t.database.db.selectFrom('group_users').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
      expect(await t.database.db.selectFrom('permissions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
      expect(await t.database.db.selectFrom('api_keys').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    });

    it('needs reauthentication under a session, and none under an API key', async () => {
      const password = 'administrator password';
      const admin = await createUser(t.database.db, { workspaceId: s.ws1, workspaceAdmin: true, password });
      const session = await createSession(t.database.db, admin.id, t.clock.now());
      const victim = await createUser(t.database.db, { workspaceId: s.ws1 });
      const missing = await t.api.delete(`/users/${victim.id}`, { session });
      expect(missing.status).toBe(403);
      expect(missing.body.type).toBe('not-authorized/reauthentication-needed-action');
      const confirmed = await t.api.delete(`/users/${victim.id}`, { session, headers: { 'X-Service-Reauthentication': `password:${password}` } });
      expect(confirmed.status).toBe(204);
    });
  });
});
