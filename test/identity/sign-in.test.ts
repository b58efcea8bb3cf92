import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyPasswordSignIn } from '../../src/identity/index.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser, unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const PASSWORD = 'the right passphrase';
const WRONG = 'not the right passphrase';
/** The address the test client's POST /sessions comes from. */
const LOOPBACK = '127.0.0.1';

// The password sign-in every door shares, called directly as a door without sessions would.
describe.each(testDatabaseTargets())('password sign-in verification [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());
  // A week on for every test, so no failure from an earlier one still counts against an address.
  beforeEach(async () => {
    t.clock.advanceMinutes(8 * 24 * 60);
    const reset = await t.api.patch('/site', { user_lockout: true, user_lockout_tries: 5, login_attempts_per_ip_per_hour: 100 }, { key: BOOTSTRAP_KEY });
    expect(reset.status).toBe(200);
  });

  const verify = (username: string, password: string, clientIp = '192.0.2.7') =>
    verifyPasswordSignIn(t.database.db, t.clock.now(), { username, password, clientIp, interface: 'restapi' });
  const failuresOf = async (username: string) =>
    (await t.database.db.selectFrom('login_failures').select('id').where('username_key', '=', username.toLowerCase()).execute()).length;
  const sessionsOf = async (userId: number) =>
    (await t.database.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length;

  it('answers the user for the right password, matching the username case-insensitively, and starts nothing', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const verified = await verify(user.username.toUpperCase(), PASSWORD);
    expect(verified).toMatchObject({ id: user.id, username: user.username, lastLoginAt: null });
    expect(await sessionsOf(user.id)).toBe(0);
    expect((await t.api.get(`/users/${user.id}`, { key: BOOTSTRAP_KEY })).body.last_login_at).toBeNull();
  });

  it('answers an unknown user, a wrong password, a user without a password and a disabled user alike, recording each', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const passwordless = await createUser(t.database.db);
    const disabled = await createUser(t.database.db, { password: PASSWORD });
    expect((await t.api.patch(`/users/${disabled.id}`, { disabled: true }, { key: BOOTSTRAP_KEY })).status).toBe(200);

    for (const [username, password] of [[unique('nobody'), PASSWORD], [user.username, WRONG], [passwordless.username, PASSWORD], [disabled.username, PASSWORD]] as const) {
      await expect(verify(username, password), username).rejects.toMatchObject({
        type: 'not-authenticated/invalid-username-or-password', message: 'The username or password is not valid.',
      });
      expect(await failuresOf(username), username).toBe(1);
    }
  });

  it('shares the username lockout with POST /sessions, both ways', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    for (let i = 0; i < 5; i += 1) await expect(verify(user.username, WRONG)).rejects.toMatchObject({ type: 'not-authenticated/invalid-username-or-password' });
    expect((await t.api.post('/sessions', { username: user.username, password: PASSWORD })).body.type).toBe('not-authenticated/locked-out');
    await expect(verify(user.username, PASSWORD)).rejects.toMatchObject({ type: 'not-authenticated/locked-out' });
    // Refused before the password is looked at, so not recorded.
    expect(await failuresOf(user.username)).toBe(5);

    const other = await createUser(t.database.db, { password: PASSWORD });
    for (let i = 0; i < 5; i += 1) await t.api.post('/sessions', { username: other.username, password: WRONG });
    await expect(verify(other.username, PASSWORD)).rejects.toMatchObject({ type: 'not-authenticated/locked-out' });
  });

  it('clears the username failure count on success, as a login does', async () => {
    expect((await t.api.patch('/site', { user_lockout_tries: 2 }, { key: BOOTSTRAP_KEY })).status).toBe(200);
    const user = await createUser(t.database.db, { password: PASSWORD });
    await expect(verify(user.username, WRONG)).rejects.toMatchObject({ type: 'not-authenticated/invalid-username-or-password' });
    t.clock.advanceMinutes(1);
    await expect(verify(user.username, PASSWORD)).resolves.toMatchObject({ id: user.id });
    t.clock.advanceMinutes(1);
    // Without the success this second failure would be the second try and lock the username.
    await expect(verify(user.username, WRONG)).rejects.toMatchObject({ type: 'not-authenticated/invalid-username-or-password' });
    await expect(verify(user.username, PASSWORD)).resolves.toMatchObject({ id: user.id });
  });

  it('shares the per-client limit with POST /sessions', async () => {
    expect((await t.api.patch('/site', { login_attempts_per_ip_per_hour: 3 }, { key: BOOTSTRAP_KEY })).status).toBe(200);
    const user = await createUser(t.database.db, { password: PASSWORD });
    await expect(verify(user.username, WRONG, LOOPBACK)).rejects.toMatchObject({ type: 'not-authenticated/invalid-username-or-password' });
    await expect(verify(unique('nobody'), WRONG, LOOPBACK)).rejects.toMatchObject({ type: 'not-authenticated/invalid-username-or-password' });
    expect((await t.api.post('/sessions', { username: user.username, password: WRONG })).body.type).toBe('not-authenticated/invalid-username-or-password');
    await expect(verify(user.username, PASSWORD, LOOPBACK)).rejects.toMatchObject({
      type: 'rate-limited/too-many-login-attempts', extra: { retryAfterSeconds: 3600 },
    });
    expect((await t.api.post('/sessions', { username: user.username, password: PASSWORD })).body.type).toBe('rate-limited/too-many-login-attempts');
  });
});
