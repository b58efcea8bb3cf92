import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser } from '../support/factories.js';
import { BOOTSTRAP_KEY } from '../support/test-app.js';
import { DavClient } from '../webdav/dav-client.js';
import { call, startSftpTestApp, type SftpTestApp } from '../sftp/sftp-fixture.js';

const PASSWORD = 'a perfectly good passphrase';
const ACTIVITY = ['first_login_at', 'last_active_at', 'last_api_use_at', 'last_web_login_at', 'last_restapi_login_at', 'last_sftp_login_at', 'last_dav_login_at'] as const;

/**
 * A user's activity times (identity/user-activity.ts), through each door that records one, and
 * cheaply: a time is written when it is a minute old, not on every request.
 */
describe.each(testDatabaseTargets())('user activity times [$name]', (target) => {
  let t: SftpTestApp;
  beforeAll(async () => { t = await startSftpTestApp(target); });
  afterAll(() => t.close());

  const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const activityOf = async (userId: number) => {
    const body = (await t.api.get(`/users/${userId}`, { key: BOOTSTRAP_KEY })).body as Record<string, unknown>;
    return Object.fromEntries(ACTIVITY.map((field) => [field, body[field]]));
  };

  it('records each door\'s time and the latest of them, and a first sign-in once', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const key = await createApiKey(t.database.db, { userId: user.id });
    expect(Object.values(await activityOf(user.id))).toEqual(ACTIVITY.map(() => null));

    const apiAt = t.clock.now();
    expect((await t.api.get('/folders/', { key })).status).toBe(200);
    expect(await activityOf(user.id)).toMatchObject({ last_api_use_at: iso(apiAt), last_active_at: iso(apiAt), first_login_at: null });

    t.clock.advance(120_000);
    const restAt = t.clock.now();
    expect((await t.api.post('/sessions', { username: user.username, password: PASSWORD })).status).toBe(201);
    t.clock.advance(120_000);
    const webAt = t.clock.now();
    expect((await t.api.post('/sessions', { username: user.username, password: PASSWORD }, { headers: { 'X-Atrium-Console': '1' } })).status).toBe(201);
    t.clock.advance(120_000);
    const sftpAt = t.clock.now();
    const c = await t.connect({ username: user.username, password: PASSWORD });
    await call((done) => c.sftp.realpath('.', done));
    c.close();
    t.clock.advance(120_000);
    const davAt = t.clock.now();
    expect((await new DavClient(t.baseUrl, [user.username, PASSWORD]).propfind('', '0')).status).toBe(207);

    expect(await activityOf(user.id)).toEqual({
      first_login_at: iso(restAt),
      last_active_at: iso(davAt),
      last_api_use_at: iso(apiAt),
      last_web_login_at: iso(webAt),
      last_restapi_login_at: iso(restAt),
      last_sftp_login_at: iso(sftpAt),
      last_dav_login_at: iso(davAt),
    });
  });

  it('writes a time at most once a minute per door: requests within the minute leave it, the next after it moves it', async () => {
    const user = await createUser(t.database.db);
    const key = await createApiKey(t.database.db, { userId: user.id });
    const firstAt = t.clock.now();
    await t.api.get('/folders/', { key });
    for (let i = 0; i < 5; i++) {
      t.clock.advance(10_000);
      expect((await t.api.get('/folders/', { key })).status).toBe(200);
    }
    const stored = () => t.database.db.selectFrom('users').select(['last_api_use_at', 'last_active_at']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(await stored()).toEqual({ last_api_use_at: firstAt, last_active_at: firstAt });
    t.clock.advance(10_001);
    await t.api.get('/folders/', { key });
    expect(await stored()).toEqual({ last_api_use_at: t.clock.now(), last_active_at: t.clock.now() });
  });
});
