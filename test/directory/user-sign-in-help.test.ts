import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser } from '../support/factories.js';
import { buildSite, type SiteFixture } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const PASSWORD = 'the right passphrase';
const WRONG = 'not the right passphrase';

/**
 * POST /users/<id>/unlock and /resend_welcome_email (docs/workspaces-users-groups.md), and the
 * user's `lockout_expires`.
 */
describe.each(testDatabaseTargets())('unlocking a user and its welcome email [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  beforeAll(async () => {
    t = await startTestApp(target);
    s = await buildSite(t);
  });
  afterAll(() => t.close());
  // Each test an hour and more after the last: no earlier failure counts against the client.
  beforeEach(async () => {
    t.clock.advanceMinutes(8 * 24 * 60);
    const reset = await t.api.patch('/site', { user_lockout: true, user_lockout_tries: 3, user_lockout_within_minutes: 60, user_lockout_lock_period_minutes: 60 }, { key: BOOTSTRAP_KEY });
    expect(reset.status).toBe(200);
  });

  const logIn = (username: string, password: string) => t.api.post('/sessions', { username, password });
  const lockOut = async (username: string) => {
    for (let i = 0; i < 3; i += 1) expect((await logIn(username, WRONG)).body.type).toBe('not-authenticated/invalid-username-or-password');
    expect((await logIn(username, PASSWORD)).body.type).toBe('not-authenticated/locked-out');
  };
  const unlockRecords = async (userId: number) => (await t.api.get('/history?filter[action]=user_update', { key: BOOTSTRAP_KEY })).body
    .filter((record: any) => record.targets?.id === userId && record.targets?.changed?.includes('lockout_expires'));

  it('ends a lockout: 204, the user signs in at once, lockout_expires goes from the end to null, History records it', async () => {
    const user = await createUser(t.database.db, { workspaceId: s.ws1, password: PASSWORD });
    await lockOut(user.username);
    const locked = await t.api.get(`/users/${user.id}`, { key: s.admin1.key });
    const end = new Date(Math.floor((t.clock.now() + 60 * 60_000) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    expect(locked.body.lockout_expires).toBe(end);
    const listed = await t.api.get(`/users?ids=${user.id}`, { key: s.admin1.key });
    expect(listed.body[0].lockout_expires).toBe(end);

    const unlocked = await t.api.post(`/users/${user.id}/unlock`, {}, { key: s.admin1.key });
    expect(unlocked.status).toBe(204);
    expect((await t.api.get(`/users/${user.id}`, { key: s.admin1.key })).body.lockout_expires).toBeNull();
    expect((await t.api.get(`/users?ids=${user.id}`, { key: s.admin1.key })).body[0].lockout_expires).toBeNull();
    const row = await t.database.db.selectFrom('login_lockouts').selectAll().where('username_key', '=', user.username.toLowerCase()).executeTakeFirstOrThrow();
    expect(Number(row.locked_until)).toBe(t.clock.now());
    expect(await unlockRecords(user.id)).toEqual([expect.objectContaining({
      action: 'user_update',
      display: `Unlocked user ${user.username}: lockout_expires`,
      targets: { id: user.id, username: user.username, changed: ['lockout_expires'], before: { lockout_expires: end }, after: { lockout_expires: null } },
    })]);
    expect((await logIn(user.username, PASSWORD)).status).toBe(201);
  });

  it('gives the unlocked user all its tries again', async () => {
    const user = await createUser(t.database.db, { workspaceId: s.ws1, password: PASSWORD });
    await lockOut(user.username);
    expect((await t.api.post(`/users/${user.id}/unlock`, {}, { key: BOOTSTRAP_KEY })).status).toBe(204);
    for (let i = 0; i < 2; i += 1) await logIn(user.username, WRONG);
    expect((await logIn(user.username, PASSWORD)).status).toBe(201);
  });

  it('answers 204 and records nothing for a user who is not locked out', async () => {
    const user = await createUser(t.database.db, { workspaceId: s.ws1, password: PASSWORD });
    expect((await t.api.get(`/users/${user.id}`, { key: s.admin1.key })).body.lockout_expires).toBeNull();
    expect((await t.api.post(`/users/${user.id}/unlock`, {}, { key: s.admin1.key })).status).toBe(204);
    expect(await unlockRecords(user.id)).toEqual([]);
  });

  it('shows no lockout while lockouts are switched off in the site settings', async () => {
    const user = await createUser(t.database.db, { workspaceId: s.ws1, password: PASSWORD });
    await lockOut(user.username);
    expect((await t.api.patch('/site', { user_lockout: false }, { key: BOOTSTRAP_KEY })).status).toBe(200);
    expect((await t.api.get(`/users/${user.id}`, { key: s.admin1.key })).body.lockout_expires).toBeNull();
  });

  it('is for administrators of the user\'s Workspace: others are refused, a user out of reach is not found, nothing changes', async () => {
    const user = await createUser(t.database.db, { workspaceId: s.ws1, password: PASSWORD });
    await lockOut(user.username);
    for (const path of [`/users/${user.id}/unlock`, `/users/${user.id}/resend_welcome_email`]) {
      const byMember = await t.api.post(path, {}, { key: s.member1.key });
      expect([byMember.status, byMember.body.type], path).toEqual([404, 'not-found/user-not-found']);
      const bySelf = await t.api.post(path.replace(String(user.id), String(s.member1.user.id)), {}, { key: s.member1.key });
      expect([bySelf.status, bySelf.body.type], path).toEqual([403, 'not-authorized/site-admin-or-workspace-admin-permission-required']);
      const otherWorkspace = await t.api.post(path.replace(String(user.id), String(s.member2.user.id)), {}, { key: s.admin1.key });
      expect([otherWorkspace.status, otherWorkspace.body.type], path).toEqual([404, 'not-found/user-not-found']);
      const missing = await t.api.post(path.replace(String(user.id), '999999'), {}, { key: BOOTSTRAP_KEY });
      expect([missing.status, missing.body.type], path).toEqual([404, 'not-found/user-not-found']);
    }
    expect((await logIn(user.username, PASSWORD)).body.type).toBe('not-authenticated/locked-out');
    expect(await unlockRecords(user.id)).toEqual([]);
  });

  it('refuses to send a welcome email: Atrium has no mail server', async () => {
    const user = await createUser(t.database.db, { workspaceId: s.ws1 });
    const response = await t.api.post(`/users/${user.id}/resend_welcome_email`, {}, { key: s.admin1.key });
    expect(response.status).toBe(422);
    expect(response.body.type).toBe('processing-failure/mail-server-not-configured');
    expect(response.body.error).toContain('No mail server is configured');
  });
});
