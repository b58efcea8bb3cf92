import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOpenSshKeyPairSync } from '../../src/lib/openssh-key-pair.js';
import { expectScimError, PATCH_OP, ScimClient, USER_SCHEMA } from '../scim/scim-client.js';
import { atOnce, countBy } from '../support/at-once.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser, unique } from '../support/factories.js';
import type { ApiResponse } from '../support/http-client.js';
import { ADMIN_USERNAME, BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const admin = { key: BOOTSTRAP_KEY };

/** The error an answer carries, without its request id: two answers alike compare equal. */
function refusal(answer: ApiResponse): unknown {
  const { instance: _instance, ...rest } = answer.body as Record<string, unknown>;
  return { status: answer.status, ...rest };
}

/**
 * Every unique key a request can reach (db/migrations), through the doors that reach it: a taken
 * value is the contract's refusal, the same for a rename as for a creation and for the loser of a
 * race as for a request that comes later, never the database's error. Keys a request cannot
 * collide on (random tokens and refs, generated ids, History's chain) and those written as upserts
 * (site settings, lockouts, server secrets, WebDAV dead properties) need no case.
 */
describe.each(testDatabaseTargets())('unique keys [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(() => t.close());
  const scim = () => new ScimClient(t.baseUrl, BOOTSTRAP_KEY);

  describe('user names (users.username_key: unique site-wide, without regard to case)', () => {
    it('refuses a rename to a taken name exactly as a creation with it, in any case, on PATCH and PUT', async () => {
      const user = await createUser(t.database.db);
      const created = await t.api.post('/users', { username: ADMIN_USERNAME }, admin);
      expect(created.status).toBe(422);
      expect(created.body).toMatchObject({ type: 'processing-failure/model-save-error', model_errors: { username: ['has already been taken'] } });
      for (const method of ['PATCH', 'PUT']) {
        for (const username of [ADMIN_USERNAME, ADMIN_USERNAME.toUpperCase()]) {
          const renamed = await t.api.call(method, `/users/${user.id}`, { ...admin, body: { username } });
          expect(refusal(renamed)).toEqual(refusal(created));
        }
      }
      expect((await t.api.get(`/users/${user.id}`, admin)).body.username).toBe(user.username);
    });

    it('lets a user be renamed to its own name in another case', async () => {
      const user = await createUser(t.database.db, { username: unique('own') });
      const renamed = await t.api.patch(`/users/${user.id}`, { username: user.username.toUpperCase() }, admin);
      expect(renamed.status).toBe(200);
      expect(renamed.body.username).toBe(user.username.toUpperCase());
    });

    it('answers SCIM 409 uniqueness for a replace of userName with a taken one, by PATCH and by PUT', async () => {
      const taken = await createUser(t.database.db, { username: unique('taken') });
      const mine = (await scim().post('/Users', { schemas: [USER_SCHEMA], userName: unique('mine'), active: true })).body as { id: string; userName: string };
      const patched = await scim().patch(`/Users/${mine.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'userName', value: taken.username.toUpperCase() }] });
      expectScimError(patched, 409, 'uniqueness');
      const put = await scim().put(`/Users/${mine.id}`, { schemas: [USER_SCHEMA], userName: taken.username, active: true });
      expectScimError(put, 409, 'uniqueness');
      expect((await scim().get(`/Users/${mine.id}`)).body.userName).toBe(mine.userName);
    });

    it('creates one user of 20 spellings of one name sent at once; the others are taken, in REST and in SCIM', async () => {
      for (let round = 0; round < 3; round += 1) {
        const name = unique('race');
        const spellings = Array.from({ length: 20 }, (_, i) => [...name].map((c, j) => ((i >> (j % 5)) & 1 ? c.toUpperCase() : c)).join(''));
        const rest = await atOnce(20, (i) => t.api.post('/users', { username: spellings[i] }, admin));
        expect(countBy(rest, (a) => a.status)).toEqual({ 201: 1, 422: 19 });
        for (const loser of rest.filter((a) => a.status === 422)) expect(loser.body.model_errors).toEqual({ username: ['has already been taken'] });

        const scimName = unique('scimrace');
        const viaScim = await atOnce(20, (i) => scim().post('/Users', { schemas: [USER_SCHEMA], userName: i % 2 === 0 ? scimName : scimName.toUpperCase(), active: true }));
        expect(countBy(viaScim, (a) => a.status)).toEqual({ 201: 1, 409: 19 });
        for (const loser of viaScim.filter((a) => a.status === 409)) expectScimError(loser, 409, 'uniqueness');
      }
    });

    it('renames 20 users to one name at once: one is renamed, the others are refused', async () => {
      const users = await atOnce(20, () => createUser(t.database.db));
      const name = unique('wanted');
      const answers = await atOnce(20, (i) => t.api.patch(`/users/${users[i]!.id}`, { username: i % 2 === 0 ? name : name.toUpperCase() }, admin));
      expect(countBy(answers, (a) => a.status)).toEqual({ 200: 1, 422: 19 });
    });
  });

  describe('group names (groups: unique per Workspace, without regard to case)', () => {
    it('refuses a taken name on creation and on rename, in REST (422) and in SCIM (409)', async () => {
      const name = unique('team');
      const first = await t.api.post('/groups', { name }, admin);
      const other = await t.api.post('/groups', { name: unique('other') }, admin);
      const again = await t.api.post('/groups', { name: name.toUpperCase() }, admin);
      expect(again.status).toBe(422);
      expect(again.body.model_errors).toEqual({ name: ['has already been taken'] });
      for (const method of ['PATCH', 'PUT']) {
        expect(refusal(await t.api.call(method, `/groups/${other.body.id}`, { ...admin, body: { name } }))).toEqual(refusal(again));
      }
      expectScimError(await scim().post('/Groups', { schemas: [GROUP_SCHEMA], displayName: name }), 409, 'uniqueness');
      expectScimError(await scim().patch(`/Groups/${other.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: name }] }), 409, 'uniqueness');
      expectScimError(await scim().put(`/Groups/${other.body.id}`, { schemas: [GROUP_SCHEMA], displayName: name }), 409, 'uniqueness');
      // The same name in another Workspace is another group's.
      const ws = (await t.api.post('/workspaces', { name: unique('ws') }, admin)).body.id as number;
      expect((await t.api.post('/groups', { name }, { ...admin, workspace: ws })).status).toBe(201);
      expect((await t.api.get(`/groups/${first.body.id}`, admin)).body.name).toBe(name);
    });

    it('renames 20 groups to one name at once: one is renamed, the others are refused', async () => {
      const groups = await atOnce(20, async () => (await t.api.post('/groups', { name: unique('g') }, admin)).body.id as number);
      const name = unique('wanted');
      const answers = await atOnce(20, (i) => t.api.patch(`/groups/${groups[i]}`, { name }, admin));
      expect(countBy(answers, (a) => a.status)).toEqual({ 200: 1, 422: 19 });
    });
  });

  describe('memberships (group_users: one per group and user)', () => {
    it('refuses a member added twice, and makes one membership of an id sent twice', async () => {
      const group = (await t.api.post('/groups', { name: unique('g') }, admin)).body.id as number;
      const user = await createUser(t.database.db);
      expect((await t.api.post('/group_users', { group_id: group, user_id: user.id }, admin)).status).toBe(201);
      const again = await t.api.post('/group_users', { group_id: group, user_id: user.id }, admin);
      expect(again.status).toBe(422);
      expect(again.body.model_errors).toEqual({ user_id: ['is already a member of this group'] });
      const twice = await t.api.post('/users', { username: unique('twice'), group_ids: `${group},${group}` }, admin);
      expect(twice.status).toBe(201);
      expect(twice.body.group_ids).toBe(String(group));
      const members = await scim().post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('scim'), members: [{ value: String(user.id) }, { value: String(user.id) }] });
      expect(members.status).toBe(201);
      expect(members.body.members).toHaveLength(1);
    });

    it('adds and removes one member 300 times at once through REST and SCIM: never a 500, and History balances', async () => {
      const group = (await t.api.post('/groups', { name: unique('busy') }, admin)).body.id as number;
      const user = await createUser(t.database.db);
      const before = ((await t.api.get('/history?per_page=1', admin)).body as { id: number }[])[0]?.id ?? 0;
      const remove = { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: `members[value eq "${user.id}"]` }] };
      const add = { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: String(user.id) }] }] };
      const answers = await atOnce(300, (i) => {
        switch (i % 4) {
          case 0: return t.api.post('/group_users', { group_id: group, user_id: user.id }, admin);
          case 1: return scim().patch(`/Groups/${group}`, remove);
          case 2: return scim().patch(`/Groups/${group}`, add);
          default: return t.api.patch(`/groups/${group}`, { user_ids: '' }, admin);
        }
      });
      // Added, removed, or (adding a member already there) refused as the contract says.
      expect(answers.filter((a) => ![200, 201, 204, 422].includes(a.status)).map((a) => `${a.status} ${a.text}`)).toEqual([]);
      for (const refused of answers.filter((a) => a.status === 422)) expect(refused.body.model_errors).toEqual({ user_id: ['is already a member of this group'] });
      const records = ((await t.api.get(`/history?per_page=1000&filter[action]=group_update`, admin)).body as { id: number; targets: Record<string, unknown[] | undefined> }[])
        .filter((r) => r.id > before);
      const added = records.reduce((n, r) => n + (r.targets['members_added']?.length ?? 0), 0);
      const removed = records.reduce((n, r) => n + (r.targets['members_removed']?.length ?? 0), 0);
      const members = (await t.api.get(`/group_users?group_id=${group}`, admin)).body as unknown[];
      expect(members.length).toBeLessThanOrEqual(1);
      // Each addition recorded was undone by a removal recorded after it, or stands.
      expect(added - removed).toBe(members.length);
      expect(added).toBeGreaterThan(0);
    });
  });

  describe('public keys (public_keys: one per user and fingerprint)', () => {
    it('refuses a key its user has, also when 20 requests add it at once; another user may add it', async () => {
      const [owner, other] = [await createUser(t.database.db), await createUser(t.database.db)];
      const key = generateOpenSshKeyPairSync('ed25519', { comment: 'me@laptop' }).public.trim();
      const answers = await atOnce(20, () => t.api.post('/public_keys', { title: 'laptop', public_key: key, user_id: owner.id }, admin));
      expect(countBy(answers, (a) => a.status)).toEqual({ 201: 1, 422: 19 });
      for (const loser of answers.filter((a) => a.status === 422)) expect(loser.body.model_errors).toEqual({ public_key: ['is already registered for this user'] });
      expect((await t.api.post('/public_keys', { title: 'laptop', public_key: key, user_id: other.id }, admin)).status).toBe(201);
    });
  });

  describe('paths (entries.path_key: one entry per path, without regard to case)', () => {
    it('creates a folder once of 20 requests at once in different case; the others find it there', async () => {
      const name = unique('folder');
      const answers = await atOnce(20, (i) => t.api.post(`/folders/${i % 2 === 0 ? name : name.toUpperCase()}`, {}, admin));
      expect(countBy(answers, (a) => a.status)).toEqual({ 201: 1, 422: 19 });
      for (const loser of answers.filter((a) => a.status === 422)) expect(loser.body.type).toBe('processing-failure/destination-exists');
    });

    it('makes the shared _/Workspaces folder once when Workspaces are created at once in a new site', async () => {
      const fresh = await startTestApp(target);
      try {
        const answers = await atOnce(10, () => fresh.api.post('/workspaces', { name: unique('ws') }, admin));
        expect(countBy(answers, (a) => a.status)).toEqual({ 201: 10 });
      } finally {
        await fresh.close();
      }
    });
  });
});
