import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endSessionsOfUser } from '../../src/repositories/sessions.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, unique } from '../support/factories.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const PASSWORD = 'a perfectly good passphrase';

describe.each(testDatabaseTargets())('sessions [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  const logIn = (username: string, password: string, options: { headers?: Record<string, string> } = {}) =>
    t.api.post('/sessions', { username, password }, options);

  async function newUserSession(fields: { workspaceId?: number } = {}) {
    const user = await createUser(t.database.db, { password: PASSWORD, ...fields });
    const response = await logIn(user.username, PASSWORD);
    expect(response.status).toBe(201);
    return { user, session: response.body.id as string };
  }

  it('logs in with username and password: 201 with the session id, and the session authenticates', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const response = await logIn(user.username, PASSWORD);
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{64}$/),
      user_id: user.id,
      username: user.username,
      workspace_id: 0,
      created_at: '2026-01-01T00:00:00Z',
      read_only: false,
    });
    const workspaces = await t.api.get('/workspaces', { session: response.body.id });
    expect(workspaces.status).toBe(200);
  });

  it('matches the username case-insensitively and records last_login_at', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD, username: unique('Mixed-Case') });
    t.clock.advance(1234);
    const response = await logIn(user.username.toUpperCase(), PASSWORD);
    expect(response.status).toBe(201);
    const row = await t.database.db.selectFrom('users').select('last_login_at').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(Number(row.last_login_at)).toBe(t.clock.now());
  });

  it('logs in with a stale session header or a wrong key header present (the JS SDK sends them)', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const stale = await logIn(user.username, PASSWORD, { headers: { 'X-ServiceAPI-Auth': 'f'.repeat(64) } });
    expect(stale.status).toBe(201);
    const withKey = await logIn(user.username, PASSWORD, { headers: { 'X-ServiceAPI-Key': 'not-a-key' } });
    expect(withKey.status).toBe(201);
    expect(withKey.body.id).not.toBe(stale.body.id);
  });

  it('answers on /sessions.json as well', async () => {
    const response = await t.api.post('/sessions.json', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    expect(response.status).toBe(201);
  });

  it('gives unknown user, wrong password and disabled user the same answer', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const disabled = await createUser(t.database.db, { password: PASSWORD });
    await t.database.db.updateTable('users').set({ disabled: true }).where('id', '=', disabled.id).execute();
    const answers = [
      await logIn(unique('nobody'), PASSWORD),
      await logIn(user.username, 'wrong password, long enough'),
      await logIn(disabled.username, PASSWORD),
    ];
    for (const response of answers) {
      expect(response.status).toBe(401);
      const { instance, ...rest } = response.body;
      expect(instance).toBe(response.headers.get('x-request-id'));
      expect(rest).toEqual({
        error: 'The username or password is not valid.',
        'http-code': 401,
        title: 'Invalid Username Or Password',
        type: 'not-authenticated/invalid-username-or-password',
      });
      expect(response.headers.get('x-service-error-class')).toBe('not-authenticated/invalid-username-or-password');
    }
  });

  it('does the same work for an unknown user as for a wrong password (a dummy hash is verified)', async () => {
    // The work is argon2's, which runs on this process's threads: measured as the CPU time the
    // process spends on the request, which a busy machine slows but does not shrink, unlike the
    // wall time a clock would measure.
    const work = async (username: string) => {
      const started = process.cpuUsage();
      const response = await logIn(username, 'wrong password, long enough');
      expect(response.status).toBe(401);
      const spent = process.cpuUsage(started);
      return spent.user + spent.system;
    };
    const users = await Promise.all([1, 2, 3].map(() => createUser(t.database.db, { password: PASSWORD, serverHashCost: true })));
    const wrongPassword: number[] = [];
    const unknownUser: number[] = [];
    for (const user of users) {
      wrongPassword.push(await work(user.username));
      unknownUser.push(await work(unique('nobody')));
    }
    // argon2 dominates both; without the dummy verification an unknown user would cost a small
    // fraction of a wrong password's work.
    const least = (values: number[]) => Math.min(...values);
    expect(least(unknownUser)).toBeGreaterThan(least(wrongPassword) * 0.4);
    expect(least(wrongPassword)).toBeGreaterThan(least(unknownUser) * 0.4);
  });

  it('refuses a login without username or password as a missing parameter', async () => {
    const noPassword = await t.api.post('/sessions', { username: 'someone' });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.type).toBe('bad-request/request-params-required');
    expect(noPassword.body.model_errors).toEqual({ password: ['is required'] });
    const noBody = await t.api.call('POST', '/sessions');
    expect(noBody.status).toBe(400);
    const notJson = await t.api.call('POST', '/sessions', { rawBody: '{"username":', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect(notJson.body.type).toBe('bad-request/invalid-body');
  });

  it('logs out with DELETE /sessions: 200 [] and the session is ended', async () => {
    const { session } = await newUserSession();
    const response = await t.api.delete('/sessions', { session });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual([]);
    const after = await t.api.get('/workspaces', { session });
    expect(after.status).toBe(401);
    expect(after.body.type).toBe('not-authenticated/invalid-session');
  });

  it('answers DELETE /sessions with 200 [] for an unknown, already ended or missing id, changing nothing', async () => {
    const { session } = await newUserSession();
    const before = await t.database.db.selectFrom('sessions').selectAll().orderBy('id').execute();
    for (const options of [{ session: 'f'.repeat(64) }, { session: 'not even hex' }, {}, { key: BOOTSTRAP_KEY }, { body: { id: 5 } }]) {
      const response = await t.api.delete('/sessions', options);
      expect(response.status).toBe(200);
      expect(response.body).toEqual([]);
    }
    expect(await t.database.db.selectFrom('sessions').selectAll().orderBy('id').execute()).toEqual(before);

    expect((await t.api.delete('/sessions', { session })).body).toEqual([]);
    const ended = await t.database.db.selectFrom('sessions').selectAll().orderBy('id').execute();
    const again = await t.api.delete('/sessions', { session });
    expect(again.status).toBe(200);
    expect(again.body).toEqual([]);
    expect(await t.database.db.selectFrom('sessions').selectAll().orderBy('id').execute()).toEqual(ended);
  });

  it('ends a session idle longer than session_expiry_minutes (default 360)', async () => {
    const { user, session } = await newUserSession();
    t.clock.advanceMinutes(359);
    expect((await t.api.get('/workspaces', { session })).status).toBe(200);
    // Activity moved the idle clock: another 359 minutes are fine again.
    t.clock.advanceMinutes(359);
    expect((await t.api.get('/workspaces', { session })).status).toBe(200);
    t.clock.advanceMinutes(361);
    const response = await t.api.get('/workspaces', { session });
    expect(response.status).toBe(401);
    expect(response.body.type).toBe('not-authenticated/invalid-session');
    const row = await t.database.db.selectFrom('sessions').select('ended_at').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(Number(row.ended_at)).toBe(t.clock.now());
  });

  it('ends a session older than session_max_lifetime_minutes (default 1440) however active', async () => {
    const { session } = await newUserSession();
    for (let i = 0; i < 4; i += 1) {
      t.clock.advanceMinutes(300);
      expect((await t.api.get('/workspaces', { session })).status).toBe(200);
    }
    t.clock.advanceMinutes(240);
    expect((await t.api.get('/workspaces', { session })).status, 'exactly 1440 minutes old').toBe(200);
    t.clock.advanceMinutes(1);
    const response = await t.api.get('/workspaces', { session });
    expect(response.status).toBe(401);
    expect(response.body.type).toBe('not-authenticated/invalid-session');
  });

  it('follows changed timeout settings', async () => {
    const changed = await t.api.patch('/site', { session_expiry_minutes: 10, session_max_lifetime_minutes: 30 }, { key: BOOTSTRAP_KEY });
    expect(changed.status).toBe(200);
    try {
      const idle = await newUserSession();
      t.clock.advanceMinutes(11);
      expect((await t.api.get('/workspaces', { session: idle.session })).body.type).toBe('not-authenticated/invalid-session');

      const busy = await newUserSession();
      for (let i = 0; i < 3; i += 1) {
        t.clock.advanceMinutes(9);
        expect((await t.api.get('/workspaces', { session: busy.session })).status).toBe(200);
      }
      t.clock.advanceMinutes(4);
      expect((await t.api.get('/workspaces', { session: busy.session })).body.type).toBe('not-authenticated/invalid-session');
    } finally {
      await t.api.patch('/site', { session_expiry_minutes: 360, session_max_lifetime_minutes: 1440 }, { key: BOOTSTRAP_KEY });
    }
  });

  it("refuses a disabled user's sessions and keys at once, and its keys again work when re-enabled", async () => {
    const { user, session } = await newUserSession();
    const key = await createApiKey(t.database.db, { userId: user.id });
    await t.database.db.updateTable('users').set({ disabled: true }).where('id', '=', user.id).execute();
    const bySession = await t.api.get('/workspaces', { session });
    expect(bySession.status).toBe(401);
    expect(bySession.body.type).toBe('not-authenticated/invalid-session');
    const byKey = await t.api.get('/workspaces', { key });
    expect(byKey.status).toBe(401);
    expect(byKey.body.type).toBe('not-authenticated/invalid-credentials');
    const login = await logIn(user.username, PASSWORD);
    expect(login.body.type).toBe('not-authenticated/invalid-username-or-password');

    await t.database.db.updateTable('users').set({ disabled: false }).where('id', '=', user.id).execute();
    expect((await t.api.get('/workspaces', { key })).status).toBe(200);
    // The session stays ended: disabling ended it for good.
    expect((await t.api.get('/workspaces', { session })).body.type).toBe('not-authenticated/invalid-session');
  });

  it('refuses sessions ended by a password change except the one that made it', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const first = (await logIn(user.username, PASSWORD)).body.id as string;
    const second = (await logIn(user.username, PASSWORD)).body.id as string;
    const firstRow = await t.database.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).orderBy('id').executeTakeFirstOrThrow();
    // What PATCH /users does on a password change (the users routes own that call).
    await endSessionsOfUser(t.database.db, user.id, t.clock.now(), firstRow.id);
    expect((await t.api.get('/workspaces', { session: first })).status).toBe(200);
    expect((await t.api.get('/workspaces', { session: second })).body.type).toBe('not-authenticated/invalid-session');
  });

  it("refuses a deleted user's sessions and keys", async () => {
    const { user, session } = await newUserSession();
    const key = await createApiKey(t.database.db, { userId: user.id });
    await endSessionsOfUser(t.database.db, user.id, t.clock.now());
    await t.database.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect((await t.api.get('/workspaces', { session })).status).toBe(401);
    expect((await t.api.get('/workspaces', { key })).body.type).toBe('not-authenticated/invalid-credentials');
  });

  it('never stores a session id, key or password in clear', async () => {
    const { user, session } = await newUserSession();
    const created = await t.api.post('/api_keys', { name: 'mine' }, { session, headers: { 'X-Service-Reauthentication': `password:${PASSWORD}` } });
    expect(created.status).toBe(201);
    await logIn(user.username, 'a wrong password to leave a failure');
    const tables = ['users', 'sessions', 'api_keys', 'login_failures', 'login_lockouts', 'site_settings'] as const;
    const dump = JSON.stringify(await Promise.all(tables.map((table) => t.database.db.selectFrom(table).selectAll().execute())));
    for (const secret of [session, created.body.key, PASSWORD, 'a wrong password to leave a failure', ADMIN_PASSWORD, BOOTSTRAP_KEY]) {
      expect(dump).not.toContain(secret);
    }
    expect(dump).toContain(user.username);
  });

  it('accepts the session header in every configured brand', async () => {
    const branded = await startTestApp(target, { brands: ['Service', 'Files'] });
    try {
      const login = await branded.api.post('/sessions', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
      const session = login.body.id as string;
      const response = await branded.api.get('/workspaces', { headers: { 'X-FilesAPI-Auth': session } });
      expect(response.status).toBe(200);
      const logout = await branded.api.delete('/sessions', { headers: { 'X-FilesAPI-Auth': session } });
      expect(logout.body).toEqual([]);
      expect((await branded.api.get('/workspaces', { headers: { 'X-FilesAPI-Auth': session } })).body.type).toBe('not-authenticated/invalid-session');
    } finally {
      await branded.close();
    }
  });
});
