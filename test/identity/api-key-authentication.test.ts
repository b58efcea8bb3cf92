import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createSession, createUser } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

describe.each(testDatabaseTargets())('API-key authentication [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  it('requires a credential', async () => {
    const response = await t.api.get('/workspaces');
    expect(response.status).toBe(401);
    expect(response.body.type).toBe('not-authenticated/authentication-required');
  });

  it('accepts the key in HTTP Basic as the user name, with an empty or placeholder password', async () => {
    for (const userInfo of [`${BOOTSTRAP_KEY}:x`, `${BOOTSTRAP_KEY}:`, BOOTSTRAP_KEY]) {
      const response = await t.api.get('/workspaces', { headers: { authorization: `Basic ${Buffer.from(userInfo).toString('base64')}` } });
      expect(response.status, userInfo).toBe(200);
    }
  });

  it('refuses a wrong key in HTTP Basic with invalid-credentials', async () => {
    const response = await t.api.get('/workspaces', { headers: { authorization: `Basic ${Buffer.from('wrong:x').toString('base64')}` } });
    expect(response.status).toBe(401);
    expect(response.body.type).toBe('not-authenticated/invalid-credentials');
  });

  it('never accepts a credential in the query string', async () => {
    for (const name of ['api_key', 'key', 'X-ServiceAPI-Key']) {
      const response = await t.api.get(`/workspaces?${name}=${BOOTSTRAP_KEY}`);
      expect(response.status, name).toBe(401);
      expect(response.body.type).toBe('not-authenticated/authentication-required');
    }
  });

  it('refuses an expired key with invalid-credentials', async () => {
    const user = await createUser(t.database.db);
    const key = await createApiKey(t.database.db, { userId: user.id, expiresAt: t.clock.now() + 60_000 });
    expect((await t.api.get('/workspaces', { key })).status).toBe(200);
    t.clock.advance(60_000);
    const response = await t.api.get('/workspaces', { key });
    expect(response.status).toBe(401);
    expect(response.body.type).toBe('not-authenticated/invalid-credentials');
  });

  it("refuses the key of a disabled user with invalid-credentials", async () => {
    const user = await createUser(t.database.db);
    const key = await createApiKey(t.database.db, { userId: user.id });
    await t.database.db.updateTable('users').set({ disabled: true }).where('id', '=', user.id).execute();
    const response = await t.api.get('/workspaces', { key });
    expect(response.status).toBe(401);
    expect(response.body.type).toBe('not-authenticated/invalid-credentials');
  });

  it('takes the session header before the key header (contract 3.1 order)', async () => {
    const user = await createUser(t.database.db);
    const session = await createSession(t.database.db, user.id, t.clock.now());
    // A valid key beside an unknown session id: the session decides, so the request fails.
    const unknownSession = await t.api.get('/workspaces', { key: BOOTSTRAP_KEY, session: 'f'.repeat(64) });
    expect(unknownSession.status).toBe(401);
    expect(unknownSession.body.type).toBe('not-authenticated/invalid-credentials');
    const validSession = await t.api.get('/workspaces', { key: 'not-a-key', session });
    expect(validSession.status).toBe(200);
  });

  it('records last use of a key without storing its secret anywhere', async () => {
    const user = await createUser(t.database.db);
    const key = await createApiKey(t.database.db, { userId: user.id });
    await t.api.get('/workspaces', { key });
    const rows = await t.database.db.selectFrom('api_keys').selectAll().execute();
    const row = rows.find((r) => r.user_id === user.id);
    expect(row?.last_use_at).toBe(t.clock.now());
    const everything = JSON.stringify(rows);
    expect(everything).not.toContain(key);
    expect(everything).not.toContain(BOOTSTRAP_KEY);
  });
});
