import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, createWorkspace } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { authenticatorCode, enrolAuthenticator, passwordSession } from '../support/two-factor.js';

const PASSWORD = 'a perfectly good passphrase';
const REAUTH = 'X-Service-Reauthentication';

describe.each(testDatabaseTargets())('two-factor authentication with an authenticator app [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  const codeOf = (secret: string, steps = 0) => authenticatorCode(secret, t.clock, steps);
  const logIn = (body: Record<string, unknown>, headers: Record<string, string> = {}) => t.api.post('/sessions', body, { headers });
  const setSite = (settings: Record<string, unknown>) => t.api.patch('/site', settings, { key: BOOTSTRAP_KEY });

  async function signedInUser(fields: { siteAdmin?: boolean } = {}) {
    const user = await createUser(t.database.db, { password: PASSWORD, ...fields });
    return { user, session: await passwordSession(t.api, user.username, PASSWORD) };
  }

  const enrol = (session: string) => enrolAuthenticator(t.api, t.clock, session, PASSWORD);

  async function usersTwoFactorFields(userId: number) {
    const shown = await t.api.get(`/users/${userId}`, { key: BOOTSTRAP_KEY });
    return { active_2fa: shown.body.active_2fa, type_of_2fa: shown.body.type_of_2fa, require_2fa: shown.body.require_2fa };
  }

  it('enrols from a session with reauthentication, confirmed by one code; gives 10 recovery codes and ends the other sessions', async () => {
    const { user, session } = await signedInUser();
    const other = (await logIn({ username: user.username, password: PASSWORD })).body.id as string;
    const noReauth = await t.api.post('/2fa/totp', {}, { session });
    expect(noReauth.body.type).toBe('not-authorized/reauthentication-needed-action');
    const { recoveryCodes } = await enrol(session);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect((await t.api.get('/2fa', { session })).body).toEqual({ required: false, totp: true, totp_pending: false, passkeys: [], recovery_codes_left: 10, methods_allowed: ['totp', 'webauthn'] });
    expect((await t.api.get('/2fa', { session: other })).body.type).toBe('not-authenticated/invalid-session');
    expect(await usersTwoFactorFields(user.id)).toEqual({ active_2fa: true, type_of_2fa: 'totp', require_2fa: 'use_system_setting' });
    // Stored sealed and hashed: neither the secret nor a code is in the database as text.
    const stored = await t.database.db.selectFrom('user_totp').select('secret_sealed').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(stored.secret_sealed).toMatch(/^v1\./);
    const codes = await t.database.db.selectFrom('user_recovery_codes').select('code_hash').where('user_id', '=', user.id).execute();
    expect(codes.map((c) => c.code_hash)).not.toContain(recoveryCodes[0]);
  });

  it('answers a correct password with the challenge; the code with partial_session_id, or with the password again, opens the session', async () => {
    const { user, session } = await signedInUser();
    const { secret } = await enrol(session);
    const challenge = await logIn({ username: user.username, password: PASSWORD });
    expect(challenge.status).toBe(401);
    expect(challenge.body).toMatchObject({
      type: 'not-authenticated/two-factor-authentication-error',
      title: 'Two Factor Authentication Error',
      'http-code': 401,
      error: expect.stringMatching(/^2FA Authentication error: /),
      data: { partial_session_id: expect.stringMatching(/^[0-9a-f]{64}$/), two_factor_authentication_methods: ['totp'] },
    });
    t.clock.advance(30_000);
    const wrong = await logIn({ partial_session_id: challenge.body.data.partial_session_id, otp: '000000', password: '' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.type).toBe('not-authenticated/one-time-password-incorrect');
    const right = await logIn({ partial_session_id: challenge.body.data.partial_session_id, otp: await codeOf(secret), password: '' });
    expect(right.status).toBe(201);
    expect(right.body.user_id).toBe(user.id);
    // The partial session opened one session: it is spent.
    t.clock.advance(30_000);
    const again = await logIn({ partial_session_id: challenge.body.data.partial_session_id, otp: await codeOf(secret) });
    expect(again.body.type).toBe('not-authenticated/two-factor-authentication-setup-expired');
    // The CLI's retry: username, password and otp together.
    t.clock.advance(30_000);
    const cli = await logIn({ username: user.username, password: PASSWORD, otp: await codeOf(secret) });
    expect(cli.status).toBe(201);
    // History: the challenge itself is no sign-in; each completed one says how it was answered.
    const records = (await t.api.get(`/history/users/${user.id}`, { key: BOOTSTRAP_KEY })).body as { action: string; display: string; failure_type: string }[];
    const signIns = records.filter((r) => r.action === 'login' || r.action === 'failedlogin');
    expect(signIns.map((r) => [r.action, r.failure_type])).toEqual(expect.arrayContaining([['failedlogin', 'two_factor_mismatch'], ['login', 'none']]));
    expect(signIns.filter((r) => r.display.endsWith('with an authenticator code)'))).toHaveLength(2);
  });

  it('accepts a code once: the same code (or an older one) again is refused, even with the password', async () => {
    const { user, session } = await signedInUser();
    const { secret } = await enrol(session);
    t.clock.advance(60_000);
    const code = await codeOf(secret);
    expect((await logIn({ username: user.username, password: PASSWORD, otp: code })).status).toBe(201);
    const replay = await logIn({ username: user.username, password: PASSWORD, otp: code });
    expect(replay.body.type).toBe('not-authenticated/one-time-password-incorrect');
    const older = await logIn({ username: user.username, password: PASSWORD, otp: await codeOf(secret, -1) });
    expect(older.body.type).toBe('not-authenticated/one-time-password-incorrect');
  });

  it('takes a recovery code once, in any case and without dashes', async () => {
    const { user, session } = await signedInUser();
    const { recoveryCodes } = await enrol(session);
    const code = recoveryCodes[3]!;
    const typed = code.replaceAll('-', '').toUpperCase();
    expect((await logIn({ username: user.username, password: PASSWORD, otp: typed })).status).toBe(201);
    expect((await logIn({ username: user.username, password: PASSWORD, otp: code })).body.type).toBe('not-authenticated/one-time-password-incorrect');
  });

  it('counts wrong codes toward the lockout, and a partial session takes five answers at most', async () => {
    const { user, session } = await signedInUser();
    await enrol(session);
    const challenge = await logIn({ username: user.username, password: PASSWORD });
    const partial = challenge.body.data.partial_session_id as string;
    for (let i = 0; i < 5; i++) expect((await logIn({ partial_session_id: partial, otp: '123456' })).body.type).toBe('not-authenticated/one-time-password-incorrect');
    // Five wrong codes lock the username out (the site's user_lockout_tries is 5): the right password is no use now.
    expect((await logIn({ username: user.username, password: PASSWORD })).body.type).toBe('not-authenticated/locked-out');
    expect((await logIn({ partial_session_id: partial, otp: '123456' })).body.type).toBe('not-authenticated/locked-out');
    const history = await t.api.get('/history/login', { key: BOOTSTRAP_KEY });
    const failures = (history.body as { username: string; failure_type: string }[]).filter((r) => r.username === user.username && r.failure_type === 'two_factor_mismatch');
    expect(failures).toHaveLength(5);
  });

  it('leads a user the site requires 2FA of through enrolment: no session until a code confirms it', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    expect((await setSite({ require_2fa: true, require_2fa_user_type: 'all' })).status).toBe(200);
    try {
      const refused = await logIn({ username: user.username, password: PASSWORD });
      expect(refused.status).toBe(403);
      expect(refused.body.type).toBe('not-authorized/two-factor-authentication-required');
      const partial = refused.body.data.partial_session_id as string;
      // The partial session opens enrolment only.
      expect((await t.api.get('/users', { session: partial })).body.type).toBe('not-authenticated/invalid-credentials');
      // Never in a URL (logs keep URLs): the query is not read, only the body or the console's cookie.
      expect((await t.api.get(`/2fa?partial_session_id=${partial}`, {})).body.type).toBe('not-authenticated/authentication-required');
      const started = await t.api.post('/2fa/totp', { partial_session_id: partial }, {});
      expect(started.status).toBe(201);
      // The address an authenticator app reads from the QR code: the site's name, the username, the secret.
      const uri = new URL(started.body.otpauth_uri);
      expect([uri.protocol, uri.host, decodeURIComponent(uri.pathname)]).toEqual(['otpauth:', 'totp', `/Atrium:${user.username}`]);
      expect(uri.searchParams.get('secret')).toBe(started.body.secret);
      const confirmed = await t.api.post('/2fa/totp/confirm', { partial_session_id: partial, otp: await codeOf(started.body.secret) }, {});
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.recovery_codes).toHaveLength(10);
      expect(confirmed.body.session).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{64}$/), user_id: user.id });
      expect((await t.api.get('/2fa', { session: confirmed.body.session.id })).status).toBe(200);
      expect((await t.api.post('/2fa/totp', { partial_session_id: partial }, {})).body.type).toBe('not-authenticated/two-factor-authentication-setup-expired');
    } finally {
      await setSite({ require_2fa: false });
    }
  });

  it('requires 2FA by the user type the site names, or by the user\'s own require_2fa, which only an administrator sets', async () => {
    const admin = await createUser(t.database.db, { password: PASSWORD, siteAdmin: true });
    const plain = await createUser(t.database.db, { password: PASSWORD });
    await setSite({ require_2fa: true, require_2fa_user_type: 'site_admins' });
    try {
      expect((await logIn({ username: admin.username, password: PASSWORD })).body.type).toBe('not-authorized/two-factor-authentication-required');
      expect((await logIn({ username: plain.username, password: PASSWORD })).status).toBe(201);
      const own = (await logIn({ username: plain.username, password: PASSWORD })).body.id as string;
      const selfExempt = await t.api.patch(`/users/${admin.id}`, { require_2fa: 'never_require' }, { session: own });
      expect(selfExempt.status).toBe(404);
      const byOwn = await t.api.patch(`/users/${plain.id}`, { require_2fa: 'always_require' }, { session: own });
      expect(byOwn.body.type).toBe('not-authorized/insufficient-permission-for-params');
      expect((await t.api.patch(`/users/${plain.id}`, { require_2fa: 'always_require' }, { key: BOOTSTRAP_KEY })).status).toBe(200);
      expect((await logIn({ username: plain.username, password: PASSWORD })).body.type).toBe('not-authorized/two-factor-authentication-required');
      // Exempting someone from the site's requirement is a Site Administrator's: not a Workspace Administrator's, not even for itself.
      const ws = await createWorkspace(t.database.db);
      const wsAdmin = await createUser(t.database.db, { password: PASSWORD, workspaceId: ws, workspaceAdmin: true });
      const wsAdminKey = await createApiKey(t.database.db, { userId: wsAdmin.id, workspaceId: ws });
      for (const target of [wsAdmin, await createUser(t.database.db, { workspaceId: ws })]) {
        const exempted = await t.api.patch(`/users/${target.id}`, { require_2fa: 'never_require' }, { key: wsAdminKey });
        expect(exempted.body.type).toBe('not-authorized/insufficient-permission-for-params');
      }
      const madeExempt = await t.api.post('/users', { username: `exempt-${wsAdmin.id}`, require_2fa: 'never_require' }, { key: wsAdminKey });
      expect(madeExempt.body.type).toBe('not-authorized/insufficient-permission-for-params');
      expect((await t.api.patch(`/users/${wsAdmin.id}`, { require_2fa: 'always_require' }, { key: wsAdminKey })).status).toBe(200);
      expect((await t.api.patch(`/users/${admin.id}`, { require_2fa: 'never_require' }, { key: BOOTSTRAP_KEY })).status).toBe(200);
      expect((await logIn({ username: admin.username, password: PASSWORD })).status).toBe(201);
    } finally {
      await setSite({ require_2fa: false });
    }
  });

  it('an administrator resets a user\'s 2FA (POST /users/<id>/2fa/reset, or clear_2fa): methods and codes gone, sessions ended', async () => {
    const { user, session } = await signedInUser();
    await enrol(session);
    const reset = await t.api.post(`/users/${user.id}/2fa/reset`, {}, { key: BOOTSTRAP_KEY });
    expect(reset.status).toBe(204);
    expect((await t.api.get('/2fa', { session })).body.type).toBe('not-authenticated/invalid-session');
    expect(await usersTwoFactorFields(user.id)).toEqual({ active_2fa: false, type_of_2fa: null, require_2fa: 'use_system_setting' });
    const again = await logIn({ username: user.username, password: PASSWORD });
    expect(again.status).toBe(201);
    await enrol(again.body.id);
    expect((await t.api.patch(`/users/${user.id}`, { clear_2fa: true }, { key: BOOTSTRAP_KEY })).status).toBe(200);
    expect((await usersTwoFactorFields(user.id)).active_2fa).toBe(false);
    const history = await t.api.get('/history', { key: BOOTSTRAP_KEY, headers: {} });
    const actions = (history.body as { action: string; display: string }[]).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['two_factor_create', 'two_factor_destroy']));
  });

  it('an API key cannot change its user\'s second factors; removing the app takes reauthentication', async () => {
    const { user, session } = await signedInUser();
    const key = await createApiKey(t.database.db, { userId: user.id });
    expect((await t.api.post('/2fa/totp', {}, { key })).body.type).toBe('not-authorized/reauthentication-needed-action');
    await enrol(session);
    expect((await t.api.delete('/2fa/totp', { key })).body.type).toBe('not-authorized/reauthentication-needed-action');
    expect((await t.api.delete('/2fa/totp', { session })).body.type).toBe('not-authorized/reauthentication-needed-action');
    expect((await t.api.delete('/2fa/totp', { session, headers: { [REAUTH]: `password:${PASSWORD}` } })).status).toBe(204);
    expect((await t.api.get('/2fa', { session })).body).toMatchObject({ totp: false, recovery_codes_left: 0 });
    // An API key signs in without a second factor, as before.
    expect((await t.api.get(`/users/${user.id}`, { key })).status).toBe(200);
  });
});
