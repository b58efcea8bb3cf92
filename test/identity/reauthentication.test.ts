import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/access/index.js';
import { AtriumError } from '../../src/errors/atrium-error.js';
import { authenticate, requireReauthentication } from '../../src/identity/index.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser } from '../support/factories.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const PASSWORD = 'a perfectly good passphrase';
const REAUTH = 'X-Service-Reauthentication';

describe.each(testDatabaseTargets())('reauthentication [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  async function userSession() {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const response = await t.api.post('/sessions', { username: user.username, password: PASSWORD });
    expect(response.status).toBe(201);
    return { user, session: response.body.id as string };
  }
  const failuresOf = async (userId: number) =>
    (await t.database.db.selectFrom('sessions').select(['reauth_failures', 'ended_at']).where('user_id', '=', userId).executeTakeFirstOrThrow());
  const createKey = (session: string, reauth?: string) =>
    t.api.post('/api_keys', { name: 'k' }, { session, headers: reauth === undefined ? {} : { [REAUTH]: reauth } });

  it('asks a session for it to create an API key: missing is reauthentication-needed-action', async () => {
    const { session } = await userSession();
    const response = await createKey(session);
    expect(response.status).toBe(403);
    expect(response.body.type).toBe('not-authorized/reauthentication-needed-action');
    expect(await t.database.db.selectFrom('api_keys').select('id').where('name', '=', 'k').execute()).toHaveLength(0);
  });

  it('accepts password:<PASSWORD>, and the bare password the files CLI sends', async () => {
    const { user, session } = await userSession();
    const prefixed = await createKey(session, `password:${PASSWORD}`);
    expect(prefixed.status).toBe(201);
    const bare = await createKey(session, PASSWORD);
    expect(bare.status).toBe(201);
    expect((await failuresOf(user.id)).reauth_failures).toBe(0);
  });

  it('refuses a wrong password with reauthentication-failed and counts it in the session', async () => {
    const { user, session } = await userSession();
    for (const wrong of ['password:nope', 'nope', 'password:', `totp:${PASSWORD}`]) {
      const response = await createKey(session, wrong);
      expect(response.status, wrong).toBe(403);
      expect(response.body.type).toBe('not-authorized/reauthentication-failed');
    }
    expect((await failuresOf(user.id)).reauth_failures).toBe(4);
    // A success clears the count.
    expect((await createKey(session, `password:${PASSWORD}`)).status).toBe(201);
    expect((await failuresOf(user.id)).reauth_failures).toBe(0);
  });

  it('after 5 failures rate-limits the next attempt, even a right one, and ends the session', async () => {
    const { user, session } = await userSession();
    for (let i = 0; i < 5; i += 1) {
      expect((await createKey(session, `password:wrong-${i}`)).body.type).toBe('not-authorized/reauthentication-failed');
    }
    const limited = await createKey(session, `password:${PASSWORD}`);
    expect(limited.status).toBe(429);
    expect(limited.body.type).toBe('rate-limited/reauthentication-rate-limited');
    expect(limited.headers.get('retry-after')).toBe('0');
    expect(Number((await failuresOf(user.id)).ended_at)).toBe(t.clock.now());
    const after = await t.api.get('/workspaces', { session });
    expect(after.status).toBe(401);
    expect(after.body.type).toBe('not-authenticated/invalid-session');
    // Logging in again gives a fresh session with a fresh count.
    const again = await t.api.post('/sessions', { username: user.username, password: PASSWORD });
    expect((await createKey(again.body.id, `password:${PASSWORD}`)).status).toBe(201);
  });

  it('cannot be outpaced by parallel wrong guesses', async () => {
    const { user, session } = await userSession();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => createKey(session, `password:wrong-${i}`)));
    const types = answers.map((r) => r.body.type);
    expect(types.filter((type) => type === 'not-authorized/reauthentication-failed')).toHaveLength(5);
    // The others were refused: rate-limited, or, once that ended the session, invalid-session.
    const refused = types.filter((type) => type !== 'not-authorized/reauthentication-failed');
    expect(refused).toContain('rate-limited/reauthentication-rate-limited');
    for (const type of refused) expect(['rate-limited/reauthentication-rate-limited', 'not-authenticated/invalid-session']).toContain(type);
    expect((await failuresOf(user.id)).ended_at).not.toBeNull();
  });

  it('asks for it to delete an API key, and to change site settings', async () => {
    const { session } = await userSession();
    const made = await createKey(session, `password:${PASSWORD}`);
    const missing = await t.api.delete(`/api_keys/${made.body.id}`, { session });
    expect(missing.status).toBe(403);
    expect(missing.body.type).toBe('not-authorized/reauthentication-needed-action');
    expect((await t.api.get(`/api_keys/${made.body.id}`, { session })).status).toBe(200);
    const done = await t.api.delete(`/api_keys/${made.body.id}`, { session, headers: { [REAUTH]: `password:${PASSWORD}` } });
    expect(done.status).toBe(204);

    const admin = (await t.api.post('/sessions', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD })).body.id;
    const noHeader = await t.api.patch('/site', { user_lockout_tries: 6 }, { session: admin });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body.type).toBe('not-authorized/reauthentication-needed-action');
    const wrong = await t.api.patch('/site', { user_lockout_tries: 6 }, { session: admin, headers: { [REAUTH]: 'password:wrong' } });
    expect(wrong.body.type).toBe('not-authorized/reauthentication-failed');
    expect((await t.api.get('/site', { session: admin })).body.user_lockout_tries).toBe(5);
    const changed = await t.api.patch('/site', { user_lockout_tries: 6 }, { session: admin, headers: { [REAUTH]: `password:${ADMIN_PASSWORD}` } });
    expect(changed.status).toBe(200);
    expect(changed.body.user_lockout_tries).toBe(6);
    await t.api.patch('/site', { user_lockout_tries: 5 }, { key: BOOTSTRAP_KEY });
  });

  it('checks authority first: a request refused anyway is not asked for it', async () => {
    const { session } = await userSession();
    const other = await createUser(t.database.db);
    const response = await t.api.post('/api_keys', { name: 'k', user_id: other.id }, { session });
    expect(response.body.type).toBe('not-found/user-not-found');
    const site = await t.api.patch('/site', { user_lockout_tries: 6 }, { session });
    expect(site.body.type).toBe('not-authorized/site-admin-required');
  });

  it('is never needed under an API key, and a header sent with a key is not checked', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const key = await createApiKey(t.database.db, { userId: user.id });
    const made = await t.api.post('/api_keys', { name: 'k' }, { key });
    expect(made.status).toBe(201);
    const withWrongHeader = await t.api.post('/api_keys', { name: 'k' }, { key, headers: { [REAUTH]: 'password:wrong' } });
    expect(withWrongHeader.status).toBe(201);
    expect((await t.api.delete(`/api_keys/${made.body.id}`, { key })).status).toBe(204);
    expect((await t.api.patch('/site', { user_lockout_tries: 5 }, { key: BOOTSTRAP_KEY })).status).toBe(200);
  });

  it('answers reauthentication-needed-fields when a field change needs it (the form PATCH /users uses)', async () => {
    const { session } = await userSession();
    const callAs = (caller: Caller) => ({ db: t.database.db, caller, requestWorkspaceId: caller.homeWorkspaceId, now: t.clock.now(), origin: { interface: 'restapi' as const, ip: '127.0.0.1' } });
    const a = callAs(await authenticate(t.database.db, t.clock, { sessionId: session, apiKey: undefined }));
    const missing = requireReauthentication(a, undefined, 'fields');
    await expect(missing).rejects.toBeInstanceOf(AtriumError);
    await expect(missing).rejects.toMatchObject({ type: 'bad-request/reauthentication-needed-fields', family: 'bad-request' });
    await expect(requireReauthentication(a, undefined, 'action'))
      .rejects.toMatchObject({ type: 'not-authorized/reauthentication-needed-action', family: 'not-authorized' });
    await expect(requireReauthentication(a, 'password:wrong', 'fields'))
      .rejects.toMatchObject({ type: 'not-authorized/reauthentication-failed', family: 'not-authorized' });
    await expect(requireReauthentication(a, `password:${PASSWORD}`, 'fields')).resolves.toBeUndefined();

    const keyCall = callAs(await authenticate(t.database.db, t.clock, { sessionId: undefined, apiKey: BOOTSTRAP_KEY }));
    await expect(requireReauthentication(keyCall, undefined, 'fields')).resolves.toBeUndefined();
  });

  it('reads the header in every configured brand', async () => {
    const branded = await startTestApp(target, { brands: ['Service', 'Files'] });
    try {
      const session = (await branded.api.post('/sessions', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD })).body.id;
      const response = await branded.api.post('/api_keys', { name: 'k' }, { headers: { 'X-FilesAPI-Auth': session, 'X-Files-Reauthentication': `password:${ADMIN_PASSWORD}` } });
      expect(response.status).toBe(201);
    } finally {
      await branded.close();
    }
  });
});
