import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMEMBER_PASSWORD_MS } from '../../src/identity/index.js';
import type { HistoryRow } from '../../src/repositories/history.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY } from '../support/test-app.js';
import { enrolAuthenticator, passwordSession } from '../support/two-factor.js';
import { DavClient } from '../webdav/dav-client.js';
import { call, startSftpTestApp, type SftpTestApp } from './sftp-fixture.js';

const PASSWORD = 'a perfectly good passphrase';

/**
 * Signing in to SFTP: a password exactly as POST /sessions takes it (login protection, lockout,
 * disabled users, History with interface `sftp`), an API key as its user's password, and where
 * the user lands. Public keys: public-key-sign-in.test.ts.
 */
describe.each(testDatabaseTargets())('SFTP sign-in [$name]', (target) => {
  let t: SftpTestApp;
  beforeAll(async () => { t = await startSftpTestApp(target); });
  afterAll(() => t.close());

  const records = async (username: string) =>
    (await t.database.db.selectFrom('history').selectAll().orderBy('id').execute()).filter((row: HistoryRow) => row.username === username);
  const refused = (username: string, password: string) =>
    t.connect({ username, password }).then((c) => { c.close(); return false; }, (error: Error) => /authentication methods failed/.test(error.message));

  it('signs in with a password, lands in the home Workspace and records the login with interface sftp', async () => {
    const ws = await createWorkspace(t.database.db);
    const user = await createUser(t.database.db, { password: PASSWORD, workspaceId: ws, workspaceAdmin: true });
    const c = await t.connect({ username: user.username, password: PASSWORD });
    expect(await call((done) => c.sftp.realpath('.', done))).toBe('/');
    await call((done) => c.sftp.mkdir('/landed', done));
    c.close();
    // The folder was made in the Workspace's root: REST in that Workspace sees it at its top.
    const listed = await t.api.get(`/folders/`, { key: BOOTSTRAP_KEY, headers: { 'X-Service-Workspace-Id': String(ws) } });
    expect(listed.body.map((entry: { path: string }) => entry.path)).toContain('landed');
    const [login] = await records(user.username);
    expect(login).toMatchObject({ action: 'login', interface: 'sftp', user_id: user.id, failure_type: null });
    expect(login?.ip).toMatch(/127\.0\.0\.1$/);
    const mkdir = (await records(user.username)).find((row) => row.action === 'create');
    expect(mkdir).toMatchObject({ interface: 'sftp', user_id: user.id });
  });

  it('refuses a wrong password, an unknown user and a disabled user alike, each recorded with its reason', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const disabled = await createUser(t.database.db, { password: PASSWORD });
    await t.database.db.updateTable('users').set({ disabled: true }).where('id', '=', disabled.id).execute();
    expect(await refused(user.username, 'not the password at all')).toBe(true);
    expect(await refused(disabled.username, PASSWORD)).toBe(true);
    expect(await refused('nobody-by-that-name', PASSWORD)).toBe(true);
    expect(await records(user.username)).toEqual([expect.objectContaining({ action: 'failedlogin', failure_type: 'password_mismatch', interface: 'sftp' })]);
    expect(await records(disabled.username)).toEqual([expect.objectContaining({ action: 'failedlogin', failure_type: 'disabled', interface: 'sftp' })]);
  });

  it('holds a lockout: wrong passwords in a loop lock the username out, and then the right one is refused too', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    for (let i = 0; i < 5; i += 1) expect(await refused(user.username, `wrong ${i}`)).toBe(true);
    expect(await refused(user.username, PASSWORD)).toBe(true);
    expect((await records(user.username)).at(-1)).toMatchObject({ action: 'failedlogin', failure_type: 'locked_out', interface: 'sftp' });
    // The lockout is the site's, not SFTP's: POST /sessions refuses the same user.
    expect((await t.api.post('/sessions', { username: user.username, password: PASSWORD })).status).toBe(401);
  });

  it('takes an API key as the password of its own user, and of no other', async () => {
    const owner = await createUser(t.database.db, { password: PASSWORD });
    const other = await createUser(t.database.db, { password: PASSWORD });
    const key = await createApiKey(t.database.db, { userId: owner.id });
    const c = await t.connect({ username: owner.username, password: key });
    expect(await call((done) => c.sftp.realpath('/', done))).toBe('/');
    c.close();
    expect(await refused(other.username, key)).toBe(true);
    // A site-wide key has no user to sign in as.
    expect(await refused('root-admin', BOOTSTRAP_KEY)).toBe(true);
  });

  it('under two-factor authentication refuses a password alone, recorded with why, and takes the user\'s API key', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    await enrolAuthenticator(t.api, t.clock, await passwordSession(t.api, user.username, PASSWORD), PASSWORD);
    expect(await refused(user.username, PASSWORD)).toBe(true);
    expect((await records(user.username)).at(-1)).toMatchObject({ action: 'failedlogin', failure_type: 'two_factor_required', interface: 'sftp' });
    const key = await createApiKey(t.database.db, { userId: user.id });
    const c = await t.connect({ username: user.username, password: key });
    expect(await call((done) => c.sftp.realpath('/', done))).toBe('/');
    c.close();
  });

  it('closes a connection after too many failed attempts on it', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const attempts: string[] = [];
    const error = await t.connect({
      username: user.username,
      authHandler: (_methods, _partial, next) => {
        attempts.push('password');
        next({ type: 'password', username: user.username, password: `wrong ${attempts.length}` });
      },
    }).then(() => undefined, (failure: Error) => failure);
    expect(error?.message).toMatch(/closed|authentication methods failed/);
    expect(attempts.length).toBeLessThanOrEqual(7);
  });

  it('shares one memory of verified passwords with WebDAV: a password verified at one door is no full sign-in at the other', async () => {
    const logins = async (username: string) => (await records(username)).filter((row) => row.action === 'login').map((row) => row.interface);
    const signInBoth = async (username: string, first: 'dav' | 'sftp') => {
      const dav = async () => expect((await new DavClient(t.baseUrl, [username, PASSWORD]).propfind('', '0')).status).toBe(207);
      const sftp = async () => {
        const c = await t.connect({ username, password: PASSWORD });
        expect(await call((done) => c.sftp.realpath('.', done))).toBe('/');
        c.close();
      };
      for (const door of first === 'dav' ? [dav, sftp] : [sftp, dav]) await door();
    };
    // Each door's first sign-in is a full one (argon2, recorded in History); the other door then
    // recognises the same password: one login recorded, by the door that verified it.
    const viaDav = await createUser(t.database.db, { password: PASSWORD });
    await signInBoth(viaDav.username, 'dav');
    expect(await logins(viaDav.username)).toEqual(['dav']);
    const viaSftp = await createUser(t.database.db, { password: PASSWORD });
    await signInBoth(viaSftp.username, 'sftp');
    expect(await logins(viaSftp.username)).toEqual(['sftp']);
    // Once the memory has lapsed, SFTP signs in in full again: it was the memory that spared it.
    t.clock.advance(REMEMBER_PASSWORD_MS + 1);
    const c = await t.connect({ username: viaDav.username, password: PASSWORD });
    c.close();
    expect(await logins(viaDav.username)).toEqual(['dav', 'sftp']);
  });
});
