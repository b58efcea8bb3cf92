import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, createWorkspace } from '../support/factories.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { enrolAuthenticator, passwordSession } from '../support/two-factor.js';
import { DavClient } from './dav-client.js';

const PASSWORD = 'a perfectly good passphrase';

/** Sign-in at /dav/: Basic with a password or an API key, and what refusals look like. */
describe.each(testDatabaseTargets())('webdav sign-in [$name]', (target) => {
  let t: TestApp;
  let dav: DavClient;
  beforeAll(async () => {
    t = await startTestApp(target);
    dav = new DavClient(t.baseUrl, [ADMIN_USERNAME, ADMIN_PASSWORD]);
  });
  afterAll(() => t.close());

  const history = (action: string) => t.database.db.selectFrom('history').selectAll().where('action', '=', action).orderBy('id').execute();

  it('asks for Basic credentials, and refuses wrong ones with the same challenge', async () => {
    const none = await dav.propfind('', '0', undefined);
    expect((await dav.call('PROPFIND', '', { auth: null, headers: { Depth: '0' } })).status).toBe(401);
    expect(none.status).toBe(207);
    const anonymous = await dav.call('PROPFIND', '', { auth: null, headers: { Depth: '0' } });
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm="Atrium"/);
    const wrong = await dav.call('PROPFIND', '', { auth: [ADMIN_USERNAME, 'not the password'], headers: { Depth: '0' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic realm="Atrium"/);
    expect(wrong.text).not.toContain('not the password');
  });

  it('signs in with a password, records it in History as dav, and refuses a disabled user', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    expect((await dav.as(user.username, PASSWORD).propfind('', '0')).status).toBe(207);
    expect((await history('login')).at(-1)).toMatchObject({ user_id: user.id, interface: 'dav', failure_type: null });
    expect((await dav.as(user.username, 'wrong password here').propfind('', '0')).status).toBe(401);
    expect((await history('failedlogin')).at(-1)).toMatchObject({ user_id: user.id, interface: 'dav', failure_type: 'password_mismatch' });

    await t.database.db.updateTable('users').set({ disabled: true }).where('id', '=', user.id).execute();
    // Remembered a moment ago, yet refused at once.
    expect((await dav.as(user.username, PASSWORD).propfind('', '0')).status).toBe(401);
  });

  it('under two-factor authentication refuses a password alone, recorded with why, and takes an API key; the site may allow the password', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const client = dav.as(user.username, PASSWORD);
    // Remembered before the second factor is set up: forgotten once it is.
    expect((await client.propfind('', '0')).status).toBe(207);
    await enrolAuthenticator(t.api, t.clock, await passwordSession(t.api, user.username, PASSWORD), PASSWORD);
    expect((await client.propfind('', '0')).status).toBe(401);
    expect((await history('failedlogin')).at(-1)).toMatchObject({ user_id: user.id, interface: 'dav', failure_type: 'two_factor_required' });
    const key = await createApiKey(t.database.db, { userId: user.id });
    expect((await dav.as(key, 'x').propfind('', '0')).status).toBe(207);
    // Refusals that guessed nothing lock nobody out.
    for (let i = 0; i < 6; i += 1) expect((await client.propfind('', '0')).status).toBe(401);
    const site = (settings: Record<string, unknown>) => t.api.patch('/site', settings, { key: BOOTSTRAP_KEY });
    await site({ allowed_2fa_method_bypass_for_ftp_sftp_dav: true });
    try {
      expect((await client.propfind('', '0')).status).toBe(207);
    } finally {
      await site({ allowed_2fa_method_bypass_for_ftp_sftp_dav: false });
    }
  });

  it('forgets a remembered password at once when it changes', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const client = dav.as(user.username, PASSWORD);
    expect((await client.propfind('', '0')).status).toBe(207);
    const changed = await t.api.patch(`/users/${user.id}`, { password: 'an entirely new passphrase 42' }, { key: BOOTSTRAP_KEY });
    expect(changed.status).toBe(200);
    expect((await client.propfind('', '0')).status).toBe(401);
    expect((await dav.as(user.username, 'an entirely new passphrase 42').propfind('', '0')).status).toBe(207);
  });

  it('locks a user out after repeated failures, even with the right password', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    let status = 0;
    for (let i = 0; i < 30 && status !== 429; i += 1) {
      status = (await dav.as(user.username, `wrong ${i}`).propfind('', '0')).status;
      if ((await history('failedlogin')).some((row) => row.user_id === user.id && row.failure_type === 'locked_out')) break;
    }
    const right = await dav.as(user.username, PASSWORD).propfind('', '0');
    expect(right.status).toBe(401);
    expect((await history('failedlogin')).some((row) => row.user_id === user.id && row.failure_type === 'locked_out')).toBe(true);
  });

  it('accepts an API key as the Basic user name, whatever the password, files_only keys included', async () => {
    const ws = await createWorkspace(t.database.db);
    const user = await createUser(t.database.db, { workspaceId: ws });
    const key = await createApiKey(t.database.db, { userId: user.id, permissionSet: 'files_only' as never });
    const answer = await dav.as(key, 'x').propfind('', '0');
    expect(answer.status).toBe(207);
    expect(answer.text).toContain('<D:href>/dav/</D:href>');
    expect((await dav.as(`${key.slice(0, -2)}AA`, 'x').propfind('', '0')).status).toBe(401);
    // A key of another shape, such as a configured bootstrap key, works too, with any password or none.
    expect((await dav.as(BOOTSTRAP_KEY, '').propfind('', '0')).status).toBe(207);
    expect((await dav.as(BOOTSTRAP_KEY, 'anything').propfind('', '0')).status).toBe(207);
  });
});
