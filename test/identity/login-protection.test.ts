import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildAppOn } from '../support/test-app.js';
import { clientAddressKey } from '../../src/identity/index.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser, unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const PASSWORD = 'the right passphrase';
const WRONG = 'not the right passphrase';
const HOUR_MINUTES = 60;

describe.each(testDatabaseTargets())('login protection [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());
  // Every test starts from the defaults and an hour after the last one, so no failure from an
  // earlier test counts against the client address.
  beforeEach(async () => {
    t.clock.advanceMinutes(8 * 24 * 60);
    const reset = await t.api.patch('/site', {
      user_lockout: true, user_lockout_tries: 5, user_lockout_within_minutes: 60, user_lockout_lock_period_minutes: 60, login_attempts_per_ip_per_hour: 100,
    }, { key: BOOTSTRAP_KEY });
    expect(reset.status).toBe(200);
  });

  const logIn = (username: string, password: string) => t.api.post('/sessions', { username, password });
  const failTimes = async (username: string, times: number) => {
    for (let i = 0; i < times; i += 1) {
      const response = await logIn(username, WRONG);
      expect(response.body.type, `failure ${i + 1}`).toBe('not-authenticated/invalid-username-or-password');
    }
  };

  it('locks a username out after 5 failures within 60 minutes, even for the right password, for 60 minutes', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    await failTimes(user.username, 5);
    const locked = await logIn(user.username, PASSWORD);
    expect(locked.status).toBe(401);
    expect(locked.body.type).toBe('not-authenticated/locked-out');
    const row = await t.database.db.selectFrom('login_lockouts').selectAll().where('username_key', '=', user.username.toLowerCase()).executeTakeFirstOrThrow();
    expect(Number(row.locked_until)).toBe(t.clock.now() + 60 * 60_000);
    // Attempts while locked are refused without looking at the password and are not recorded.
    const failuresBefore = await t.database.db.selectFrom('login_failures').selectAll().execute();
    expect((await logIn(user.username, WRONG)).body.type).toBe('not-authenticated/locked-out');
    expect(await t.database.db.selectFrom('login_failures').selectAll().execute()).toHaveLength(failuresBefore.length);

    t.clock.advanceMinutes(59);
    expect((await logIn(user.username, PASSWORD)).body.type).toBe('not-authenticated/locked-out');
    t.clock.advanceMinutes(1);
    expect((await logIn(user.username, PASSWORD)).status).toBe(201);
  });

  it('gives an unlocked account all its tries again', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    await failTimes(user.username, 5);
    t.clock.advanceMinutes(61);
    await failTimes(user.username, 4);
    expect((await logIn(user.username, PASSWORD)).status).toBe(201);
    // And five new failures lock it again.
    t.clock.advanceMinutes(1);
    await failTimes(user.username, 5);
    expect((await logIn(user.username, PASSWORD)).body.type).toBe('not-authenticated/locked-out');
  });

  it('locks out an unknown username the same way, so a lockout says nothing about existence', async () => {
    const nobody = unique('nobody');
    await failTimes(nobody, 5);
    const response = await logIn(nobody, PASSWORD);
    expect(response.status).toBe(401);
    expect(response.body.type).toBe('not-authenticated/locked-out');
  });

  it('counts the username case-insensitively', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    await failTimes(user.username.toUpperCase(), 5);
    expect((await logIn(user.username, PASSWORD)).body.type).toBe('not-authenticated/locked-out');
  });

  it('clears the failure count on a successful login', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    await failTimes(user.username, 4);
    t.clock.advanceMinutes(1);
    expect((await logIn(user.username, PASSWORD)).status).toBe(201);
    t.clock.advanceMinutes(1);
    await failTimes(user.username, 4);
    expect((await logIn(user.username, PASSWORD)).status).toBe(201);
    // Without the success in between, the same eight failures lock the account.
    const other = await createUser(t.database.db, { password: PASSWORD });
    await failTimes(other.username, 4);
    t.clock.advanceMinutes(2);
    await failTimes(other.username, 1);
    expect((await logIn(other.username, PASSWORD)).body.type).toBe('not-authenticated/locked-out');
  });

  it('counts only failures within user_lockout_within_minutes', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    await failTimes(user.username, 4);
    t.clock.advanceMinutes(61);
    await failTimes(user.username, 4);
    expect((await logIn(user.username, PASSWORD)).status).toBe(201);
  });

  it('follows the lockout settings: tries, period, and off', async () => {
    await t.api.patch('/site', { user_lockout_tries: 2, user_lockout_lock_period_minutes: 5 }, { key: BOOTSTRAP_KEY });
    const user = await createUser(t.database.db, { password: PASSWORD });
    await failTimes(user.username, 2);
    expect((await logIn(user.username, PASSWORD)).body.type).toBe('not-authenticated/locked-out');
    t.clock.advanceMinutes(5);
    expect((await logIn(user.username, PASSWORD)).status).toBe(201);

    await t.api.patch('/site', { user_lockout: false }, { key: BOOTSTRAP_KEY });
    const other = await createUser(t.database.db, { password: PASSWORD });
    await failTimes(other.username, 10);
    expect((await logIn(other.username, PASSWORD)).status).toBe(201);
  });

  it('holds across restarts and nodes: another app on the same database sees the lockout', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    await failTimes(user.username, 5);
    const otherNode = await buildAppOn({ database: t.database, config: { headerBrands: ['Service'], logLevel: 'silent', accessLog: false }, clock: t.clock });
    try {
      const response = await otherNode.inject({ method: 'POST', url: '/api/rest/v1/sessions', payload: { username: user.username, password: PASSWORD } });
      expect(response.statusCode).toBe(401);
      expect(response.json().type).toBe('not-authenticated/locked-out');
    } finally {
      await otherNode.close();
    }
  });

  it('limits failures per client address: more than login_attempts_per_ip_per_hour is rate-limited with Retry-After', async () => {
    await t.api.patch('/site', { login_attempts_per_ip_per_hour: 3 }, { key: BOOTSTRAP_KEY });
    const user = await createUser(t.database.db, { password: PASSWORD });
    // Different usernames: the lockout does not come into it.
    for (const name of [unique('a'), unique('b')]) await failTimes(name, 1);
    t.clock.advanceMinutes(10);
    await failTimes(unique('c'), 1);
    const limited = await logIn(user.username, PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.body.type).toBe('rate-limited/too-many-login-attempts');
    // The oldest failure leaves the hour window in 50 minutes.
    expect(limited.headers.get('retry-after')).toBe(String(50 * 60));

    // Another address is not affected.
    const elsewhere = await t.app.inject({
      method: 'POST', url: '/api/rest/v1/sessions', remoteAddress: '10.9.8.7', payload: { username: user.username, password: PASSWORD },
    });
    expect(elsewhere.statusCode).toBe(201);

    t.clock.advanceMinutes(50);
    expect((await logIn(user.username, PASSWORD)).status).toBe(201);
  });

  it('does not let a successful login wipe the failures the address collected', async () => {
    await t.api.patch('/site', { login_attempts_per_ip_per_hour: 3 }, { key: BOOTSTRAP_KEY });
    const user = await createUser(t.database.db, { password: PASSWORD });
    await failTimes(user.username, 2);
    expect((await logIn(user.username, PASSWORD)).status).toBe(201);
    await failTimes(unique('other'), 1);
    expect((await logIn(user.username, PASSWORD)).status).toBe(429);
  });

  it('prunes failure records older than the counting windows', async () => {
    await failTimes(unique('old'), 3);
    const before = await t.database.db.selectFrom('login_failures').select('created_at').execute();
    expect(before.length).toBeGreaterThanOrEqual(3);
    t.clock.advanceMinutes(HOUR_MINUTES + 11);
    await failTimes(unique('new'), 1);
    const after = await t.database.db.selectFrom('login_failures').select('created_at').execute();
    expect(after.map((r) => Number(r.created_at))).toEqual([t.clock.now()]);
  });
});

describe('client address key', () => {
  it('counts IPv4 as itself, also IPv4-mapped, and IPv6 by its /64', () => {
    expect(clientAddressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddressKey('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(clientAddressKey('2001:0DB8:0000:0001:ffff:ffff:ffff:ffff')).toBe('2001:db8:0:1::/64');
    expect(clientAddressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
  });
});
