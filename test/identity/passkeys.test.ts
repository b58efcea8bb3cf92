import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearSecondFactors, passkeyAuthenticationOptions, secondFactorsOf, verifyPasskeySignIn } from '../../src/identity/index.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createSession, createUser } from '../support/factories.js';
import { ApiClient } from '../support/http-client.js';
import { SoftwareAuthenticator } from '../support/software-authenticator.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const PASSWORD = 'a perfectly good passphrase';
const REAUTH = { 'X-Service-Reauthentication': `password:${PASSWORD}` };

describe.each(testDatabaseTargets())('passkeys [$name]', (target) => {
  let t: TestApp;
  /** The test app as a browser reaches it: by name, since a passkey cannot be bound to an IP address. */
  let api: ApiClient;
  let origin: string;
  beforeAll(async () => {
    t = await startTestApp(target);
    origin = t.baseUrl.replace('127.0.0.1', 'localhost');
    api = new ApiClient(origin);
  });
  afterAll(() => t.close());

  const signIn = async (username: string) => {
    const response = await api.post('/sessions', { username, password: PASSWORD });
    expect(response.status).toBe(201);
    return response.body.id as string;
  };
  const newUser = async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    return { user, session: await signIn(user.username) };
  };
  const options = (session: string) => api.post('/2fa/passkeys/options', {}, { session, headers: REAUTH });
  /** Options, answered by the authenticator, added. */
  const register = async (session: string, authenticator: SoftwareAuthenticator, name = 'laptop') => {
    const asked = await options(session);
    expect(asked.status).toBe(200);
    return api.post('/2fa/passkeys', { name, response: authenticator.register(asked.body, origin) }, { session });
  };
  const passkeysOf = (userId: number) => t.database.db.selectFrom('user_passkeys').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  const historyOf = (action: string, userId: number) =>
    t.database.db.selectFrom('history').selectAll().where('action', '=', action).where('user_id', '=', userId).orderBy('id').execute();
  const sessionWorks = async (session: string) => (await api.get('/2fa/passkeys', { session })).status === 200;

  it('adds a passkey from a reauthenticated session, lists, renames and removes it; adding and removing end the other sessions', async () => {
    const { user, session } = await newUser();
    const other = await signIn(user.username);
    const authenticator = new SoftwareAuthenticator({ backedUp: true });

    expect((await api.post('/2fa/passkeys/options', {}, { session })).body.type).toBe('not-authorized/reauthentication-needed-action');
    const asked = await options(session);
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({
      rp: { id: 'localhost', name: 'Atrium' },
      user: { name: user.username, displayName: user.username },
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      attestation: 'none',
      timeout: 300_000,
    });
    expect(asked.body.challenge).toMatch(/^[A-Za-z0-9_-]{32,}$/);

    const answer = authenticator.register(asked.body, origin);
    const added = await api.post('/2fa/passkeys', { name: 'laptop', response: answer }, { session });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ id: expect.any(Number), name: 'laptop', created_at: '2026-01-01T00:00:00Z', last_used_at: null, backed_up: true, recovery_codes: expect.any(Array) });
    // The first second factor comes with recovery codes.
    expect(added.body.recovery_codes).toHaveLength(10);
    const [row] = await passkeysOf(user.id);
    expect(row).toMatchObject({ id: added.body.id, credential_id: answer.id, name: 'laptop', transports: 'internal', aaguid: null });
    expect(Number(row?.counter)).toBe(1);
    expect(await sessionWorks(other)).toBe(false);
    expect(await sessionWorks(session)).toBe(true);
    expect(await historyOf('two_factor_create', user.id)).toMatchObject([{ display: `${user.username} added the passkey "laptop" for two-factor authentication` }]);

    // The same answer again: its challenge was taken.
    const replayed = await api.post('/2fa/passkeys', { name: 'again', response: answer }, { session });
    expect(replayed.status).toBe(422);
    expect(replayed.body.type).toBe('processing-failure/two-factor-authentication-general-error');
    // The next options exclude it, and the authenticator that holds it refuses them.
    const next = await options(session);
    expect(next.body.excludeCredentials).toEqual([{ id: answer.id, type: 'public-key', transports: ['internal'] }]);
    expect(() => authenticator.register(next.body, origin)).toThrow(/InvalidStateError/);

    const { recovery_codes: codes, ...shown } = added.body;
    expect((await api.get('/2fa/passkeys', { session })).body).toEqual([shown]);
    expect((await api.get('/2fa', { session })).body).toMatchObject({ passkeys: [shown], recovery_codes_left: 10 });
    const renamed = await api.patch(`/2fa/passkeys/${added.body.id}`, { name: 'work laptop' }, { session });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...shown, name: 'work laptop' });
    expect(await historyOf('two_factor_update', user.id)).toHaveLength(1);
    expect((await api.patch(`/2fa/passkeys/${added.body.id}`, { name: 'work laptop' }, { session })).status).toBe(200);
    expect(await historyOf('two_factor_update', user.id)).toHaveLength(1);
    expect(codes).toHaveLength(10);

    // Signing in with the password alone is now a challenge: another session, made as the second step would.
    expect((await api.post('/sessions', { username: user.username, password: PASSWORD })).body.type).toBe('not-authenticated/two-factor-authentication-error');
    const third = await createSession(t.database.db, user.id, t.clock.now());
    const unconfirmed = await api.delete(`/2fa/passkeys/${added.body.id}`, { session });
    expect(unconfirmed.body.type).toBe('not-authorized/reauthentication-needed-action');
    const removed = await api.delete(`/2fa/passkeys/${added.body.id}`, { session, headers: REAUTH });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect(await passkeysOf(user.id)).toEqual([]);
    expect(await sessionWorks(third)).toBe(false);
    expect(await sessionWorks(session)).toBe(true);
    expect(await historyOf('two_factor_destroy', user.id)).toMatchObject([{ display: `${user.username} removed the passkey "work laptop"` }]);
    // With no second factor left, the recovery codes went too.
    expect((await api.get('/2fa', { session })).body).toMatchObject({ passkeys: [], recovery_codes_left: 0 });
    const listed = await t.api.get('/history?filter[action]=two_factor_create', { key: BOOTSTRAP_KEY });
    expect(listed.body.map((record: { targets: unknown }) => record.targets)).toContainEqual({
      user: { id: user.id, username: user.username }, method: 'webauthn', passkey: { id: added.body.id, name: 'laptop', aaguid: null, backed_up: true },
    });
  });

  it("keeps each user to its own passkeys: another user's is not found, and an API key manages none", async () => {
    const alice = await newUser();
    const bob = await newUser();
    const added = await register(alice.session, new SoftwareAuthenticator());
    expect(added.status).toBe(201);
    expect((await api.get('/2fa/passkeys', { session: bob.session })).body).toEqual([]);
    for (const response of [
      await api.patch(`/2fa/passkeys/${added.body.id}`, { name: 'mine now' }, { session: bob.session }),
      await api.delete(`/2fa/passkeys/${added.body.id}`, { session: bob.session, headers: REAUTH }),
      await api.delete('/2fa/passkeys/999999', { session: bob.session, headers: REAUTH }),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ type: 'not-found', error: 'Passkey not found.' });
    }
    const key = await createApiKey(t.database.db, { userId: alice.user.id });
    for (const response of [
      await api.post('/2fa/passkeys/options', {}, { key }),
      await api.get('/2fa/passkeys', { key }),
      await api.delete(`/2fa/passkeys/${added.body.id}`, { key }),
      await api.get('/2fa/passkeys', { key: BOOTSTRAP_KEY }),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.type).toBe('not-authorized/reauthentication-needed-action');
      expect(response.body.error).toMatch(/an API key cannot change it/);
    }
    expect(await passkeysOf(alice.user.id)).toHaveLength(1);
    expect((await api.get('/2fa/passkeys')).body.type).toBe('not-authenticated/authentication-required');
  });

  it('refuses answers for another origin, host name, challenge or ceremony, a late answer, and a credential already registered', async () => {
    const { user, session } = await newUser();
    const authenticator = new SoftwareAuthenticator();
    const refusals: [string, (asked: any) => unknown, RegExp][] = [
      ['another origin', (asked) => authenticator.register(asked, 'http://localhost:1'), /origin/],
      ['another host name', (asked) => authenticator.register(asked, origin, { rpId: 'evil.example' }), /RP ID/],
      ['another challenge', (asked) => authenticator.register(asked, origin, { challenge: 'c29tZXRoaW5nIGVsc2UgZW50aXJlbHk' }), /challenge/],
      ['a sign-in answer', (asked) => authenticator.register(asked, origin, { type: 'webauthn.get' }), /type/],
    ];
    for (const [name, answer, reason] of refusals) {
      const response = await api.post('/2fa/passkeys', { name, response: answer((await options(session)).body) }, { session });
      expect({ name, status: response.status, type: response.body.type }).toEqual({ name, status: 422, type: 'processing-failure/two-factor-authentication-general-error' });
      expect(response.body.error, name).toMatch(reason);
    }
    const late = (await options(session)).body;
    t.clock.advanceMinutes(6);
    const tooLate = await api.post('/2fa/passkeys', { name: 'late', response: authenticator.register(late, origin) }, { session });
    expect(tooLate.body.type).toBe('processing-failure/two-factor-authentication-general-error');
    expect(tooLate.body.error).toMatch(/No passkey registration is waiting/);
    const never = await api.post('/2fa/passkeys', { name: 'never', response: authenticator.register(late, origin) }, { session });
    expect(never.body.error).toMatch(/No passkey registration is waiting/);

    const first = await register(session, authenticator);
    expect(first.status).toBe(201);
    const [{ credential_id } = { credential_id: '' }] = await passkeysOf(user.id);
    const other = await newUser();
    const copied = await api.post('/2fa/passkeys', {
      name: 'copy', response: new SoftwareAuthenticator().register((await options(other.session)).body, origin, { credentialId: credential_id }),
    }, { session: other.session });
    expect(copied.status).toBe(422);
    expect(copied.body).toMatchObject({ type: 'processing-failure/model-save-error', model_errors: { response: ['is a passkey already registered'] } });
    expect(await passkeysOf(user.id)).toHaveLength(1);
    expect(await passkeysOf(other.user.id)).toHaveLength(0);
  });

  it('refuses to add one while the site setting allowed_2fa_method_webauthn is off; the passkeys there stay listed and removable', async () => {
    const { user, session } = await newUser();
    const authenticator = new SoftwareAuthenticator();
    const asked = await options(session);
    const setting = (value: boolean) => t.database.db.insertInto('site_settings')
      .values({ name: 'allowed_2fa_method_webauthn', value: JSON.stringify(value) })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value: JSON.stringify(value) })).execute();
    await setting(false);
    try {
      for (const response of [await options(session), await api.post('/2fa/passkeys', { response: authenticator.register(asked.body, origin) }, { session })]) {
        expect(response.status).toBe(422);
        expect(response.body.type).toBe('processing-failure/two-factor-authentication-method-unsupported-error');
      }
      expect(await passkeysOf(user.id)).toEqual([]);
    } finally {
      await setting(true);
    }
    const added = await register(session, authenticator);
    expect(added.body.name).toBe('laptop');
    await setting(false);
    try {
      expect((await api.get('/2fa/passkeys', { session })).body).toHaveLength(1);
      expect((await api.delete(`/2fa/passkeys/${added.body.id}`, { session, headers: REAUTH })).status).toBe(204);
    } finally {
      await setting(true);
    }
  });

  it('answers bad input with the documented refusals, never a 500', async () => {
    const { user, session } = await newUser();
    const answer = new SoftwareAuthenticator().register((await options(session)).body, origin);
    const huge = 'A'.repeat(70_000);
    const bodies: [string, unknown, string][] = [
      ['no response', { name: 'x' }, 'bad-request/request-params-required'],
      ['response a string', { response: 'x' }, 'bad-request/request-params-invalid'],
      ['response empty', { response: {} }, 'bad-request/request-params-required'],
      ['response an array', { response: [answer] }, 'bad-request/request-params-invalid'],
      ['name a number', { name: 5, response: answer }, 'bad-request/request-params-invalid'],
      ['name empty', { name: '', response: answer }, 'bad-request/request-params-invalid'],
      ['name blank', { name: '   ', response: answer }, 'bad-request/request-params-invalid'],
      ['name with a control character', { name: 'a\u0007b', response: answer }, 'bad-request/request-params-invalid'],
      ['name huge', { name: huge, response: answer }, 'bad-request/request-params-invalid'],
      ['id huge', { response: { ...answer, id: huge, rawId: huge } }, 'bad-request/request-params-invalid'],
      ['id not base64url', { response: { ...answer, id: 'a b', rawId: 'a b' } }, 'bad-request/request-params-invalid'],
      ['rawId another', { response: { ...answer, rawId: 'AAAA' } }, 'bad-request/request-params-invalid'],
      ['type other', { response: { ...answer, type: 'password' } }, 'bad-request/request-params-invalid'],
      ['attestation a number', { response: { ...answer, response: { ...answer.response, attestationObject: 7 } } }, 'bad-request/request-params-invalid'],
      ['attestation garbage', { response: { ...answer, response: { ...answer.response, attestationObject: 'AAAA' } } }, 'processing-failure/two-factor-authentication-general-error'],
      ['client data garbage', { response: { ...answer, response: { ...answer.response, clientDataJSON: 'e30' } } }, 'processing-failure/two-factor-authentication-general-error'],
      ['transports not strings', { response: { ...answer, response: { ...answer.response, transports: [1] } } }, 'bad-request/request-params-invalid'],
    ];
    for (const [name, body, type] of bodies) {
      // Each case on fresh options, so a refusal is the body's and not a taken challenge's.
      await options(session);
      const response = await api.post('/2fa/passkeys', body, { session });
      expect({ name, type: response.body?.type }).toEqual({ name, type });
      expect(response.status, name).toBeLessThan(500);
    }
    for (const raw of ['null', '[]', '"x"', '{', 'x'.repeat(2_000_000)]) {
      const response = await api.call('POST', '/2fa/passkeys', { session, rawBody: raw });
      expect(response.status, raw.slice(0, 10)).toBe(400);
    }
    for (const [path, body] of [['/2fa/passkeys/abc', { name: 'x' }], ['/2fa/passkeys/99999999999', { name: 'x' }], ['/2fa/passkeys/1', { name: 7 }], ['/2fa/passkeys/1', {}]] as const) {
      const response = await api.patch(path, body, { session });
      expect(response.status, path).toBe(400);
      expect(response.body.type).toMatch(/^bad-request\/request-params-(invalid|required)$/);
    }
    expect(await passkeysOf(user.id)).toEqual([]);
  });

  it('sets up a first passkey with the partial session of an enrolment the user must make: recovery codes and the session come with it', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    expect((await t.api.patch(`/users/${user.id}`, { require_2fa: 'always_require' }, { key: BOOTSTRAP_KEY })).status).toBe(200);
    const refused = await api.post('/sessions', { username: user.username, password: PASSWORD });
    expect(refused.body.type).toBe('not-authorized/two-factor-authentication-required');
    const partial = refused.body.data.partial_session_id as string;
    // No reauthentication: the password was just given, for this alone.
    const asked = await api.post('/2fa/passkeys/options', { partial_session_id: partial });
    expect(asked.status).toBe(200);
    expect(asked.body.user.name).toBe(user.username);
    // What removes or renames takes a session.
    expect((await api.patch('/2fa/passkeys/1', { name: 'x', partial_session_id: partial })).body.type).toBe('not-authenticated/authentication-required');
    const added = await api.post('/2fa/passkeys', { partial_session_id: partial, name: 'phone', response: new SoftwareAuthenticator().register(asked.body, origin) });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ name: 'phone', recovery_codes: expect.any(Array), session: { id: expect.stringMatching(/^[0-9a-f]{64}$/), user_id: user.id } });
    expect(added.body.recovery_codes).toHaveLength(10);
    const session = added.body.session.id as string;
    expect((await api.get('/2fa/passkeys', { session })).body).toMatchObject([{ name: 'phone' }]);
    // The partial session opened its one session.
    expect((await api.post('/2fa/passkeys/options', { partial_session_id: partial })).body.type).toBe('not-authenticated/two-factor-authentication-setup-expired');
    expect((await api.get(`/users/${user.id}`, { key: BOOTSTRAP_KEY })).body).toMatchObject({ active_2fa: true, type_of_2fa: 'webauthn' });

    // An administrator's reset takes passkeys away with everything else.
    expect((await api.post(`/users/${user.id}/2fa/reset`, {}, { key: BOOTSTRAP_KEY })).status).toBe(204);
    expect(await passkeysOf(user.id)).toEqual([]);
    expect(await sessionWorks(session)).toBe(false);
  });

  it('signs in with the password, then a passkey: POST /sessions/passkey_options and the answer as webauthn; a wrong answer is refused and counted', async () => {
    const { user, session } = await newUser();
    const authenticator = new SoftwareAuthenticator();
    expect((await register(session, authenticator)).status).toBe(201);
    const challenged = await api.post('/sessions', { username: user.username, password: PASSWORD });
    expect(challenged.status).toBe(401);
    // An API client cannot use a passkey: none is offered, but the partial session is there.
    expect(challenged.body.data.two_factor_authentication_methods).toEqual([]);
    const partial = challenged.body.data.partial_session_id as string;
    const fromConsole = await api.post('/sessions', { username: user.username, password: PASSWORD }, { headers: { 'X-Atrium-Console': '1' } });
    expect(fromConsole.body.data.two_factor_authentication_methods).toEqual(['webauthn']);

    const asked = await api.post('/sessions/passkey_options', { partial_session_id: partial });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ rpId: 'localhost', userVerification: 'preferred', allowCredentials: [{ id: (await passkeysOf(user.id))[0]?.credential_id, type: 'public-key' }] });
    const forged = authenticator.authenticate(asked.body, 'http://localhost:1');
    const wrong = await api.post('/sessions', { partial_session_id: partial, webauthn: forged });
    expect(wrong.status).toBe(401);
    expect(wrong.body.type).toBe('not-authenticated/one-time-password-incorrect');
    expect(await t.database.db.selectFrom('history').select('failure_type').where('action', '=', 'failedlogin').where('user_id', '=', user.id).execute()).toEqual([{ failure_type: 'two_factor_mismatch' }]);
    // Its challenge was taken with it: ask again.
    const again = await api.post('/sessions/passkey_options', { partial_session_id: partial });
    const signedIn = await api.post('/sessions', { partial_session_id: partial, webauthn: authenticator.authenticate(again.body, origin) });
    expect(signedIn.status).toBe(201);
    expect(signedIn.body.user_id).toBe(user.id);
    expect(await sessionWorks(signedIn.body.id)).toBe(true);
    expect((await passkeysOf(user.id))[0]?.last_used_at).not.toBeNull();
    // The partial session opened its one session.
    expect((await api.post('/sessions/passkey_options', { partial_session_id: partial })).body.type).toBe('not-authenticated/two-factor-authentication-setup-expired');
    for (const body of [{}, { partial_session_id: 'nonsense' }, { partial_session_id: 5 }]) {
      expect((await api.post('/sessions/passkey_options', body)).status).toBeLessThan(500);
    }
    expect((await api.post('/sessions', { partial_session_id: partial, webauthn: 'x' })).body.type).toBe('bad-request/request-params-invalid');
  });

  it('signs in a partial session with a passkey: options allow only the user\'s passkeys, each challenge counts once, the counter must move on', async () => {
    const { user, session } = await newUser();
    const authenticator = new SoftwareAuthenticator();
    expect((await secondFactorsOf(t.database.db, user.id)).passkeys).toBe(false);
    expect((await register(session, authenticator)).status).toBe(201);
    expect((await register(session, new SoftwareAuthenticator(), 'phone')).status).toBe(201);
    expect((await secondFactorsOf(t.database.db, user.id)).passkeys).toBe(true);
    const rp = { id: 'localhost', origin };
    const db = t.database.db;
    const now = t.clock.now();
    const { id: partial } = await db.insertInto('partial_sessions')
      .values({ user_id: user.id, lookup: 'l', secret_hash: 'h', purpose: 'second_factor', created_at: now, expires_at: now + 300_000 })
      .returning('id').executeTakeFirstOrThrow();
    const credentials = (await passkeysOf(user.id)).map((row) => row.credential_id);

    const asked = await passkeyAuthenticationOptions(db, partial, user.id, rp);
    expect(asked).toMatchObject({ rpId: 'localhost', userVerification: 'preferred' });
    expect(asked.allowCredentials?.map((c) => c.id)).toEqual(credentials);
    const answer = authenticator.authenticate(asked, origin);
    expect(await verifyPasskeySignIn(db, partial, user.id, answer, rp, now)).toBe(true);
    const [used] = await passkeysOf(user.id);
    expect({ counter: Number(used?.counter), last_used_at: Number(used?.last_used_at) }).toEqual({ counter: 2, last_used_at: now });
    expect(await verifyPasskeySignIn(db, partial, user.id, answer, rp, now)).toBe(false);

    const refused: [string, (asked: any) => unknown, { rp?: typeof rp; user?: number; now?: number }?][] = [
      ['the counter not moved on', (o) => authenticator.authenticate(o, origin, { counter: 2 })],
      ['another origin', (o) => authenticator.authenticate(o, 'http://localhost:1')],
      ['another relying party', (o) => authenticator.authenticate(o, origin), { rp: { id: 'example.com', origin } }],
      ['another user', (o) => authenticator.authenticate(o, origin), { user: (await createUser(db)).id }],
      ['too late', (o) => authenticator.authenticate(o, origin), { now: now + 300_000 }],
      ['a forged signature', (o) => {
        const good = authenticator.authenticate(o, origin);
        return { ...good, response: { ...good.response, signature: Buffer.alloc(70, 1).toString('base64url') } };
      }],
      ['an unknown passkey', (o) => ({ ...authenticator.authenticate(o, origin), id: 'AAAA', rawId: 'AAAA' })],
      ['nothing', () => undefined], ['a string', () => 'x'], ['an empty object', () => ({})], ['null', () => null],
      ['a huge id', (o) => ({ ...authenticator.authenticate(o, origin), id: 'A'.repeat(100_000), rawId: 'A'.repeat(100_000) })],
    ];
    for (const [name, answerTo, context = {}] of refused) {
      const o = await passkeyAuthenticationOptions(db, partial, user.id, rp);
      expect(await verifyPasskeySignIn(db, partial, context.user ?? user.id, answerTo(o), context.rp ?? rp, context.now ?? now), name).toBe(false);
    }
    // Without options first, no answer counts.
    expect(await verifyPasskeySignIn(db, partial, user.id, authenticator.authenticate(asked, origin), rp, now)).toBe(false);
    // A user without passkeys is offered none; an ended partial session gets no challenge.
    await expect(passkeyAuthenticationOptions(db, partial, (await createUser(db)).id, rp)).rejects.toMatchObject({ type: 'processing-failure/two-factor-authentication-method-unsupported-error' });
    await db.updateTable('partial_sessions').set({ ended_at: now }).where('id', '=', partial).execute();
    await expect(passkeyAuthenticationOptions(db, partial, user.id, rp)).rejects.toMatchObject({ type: 'not-authenticated/invalid-session' });

    await clearSecondFactors(db, user.id, now);
    expect((await secondFactorsOf(db, user.id)).passkeys).toBe(false);
  });
});

describe('passkeys behind ATRIUM_PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(testDatabaseTargets()[0]!, { publicUrl: 'https://files.example.com:8443/atrium' }); });
  afterAll(() => t.close());

  it('binds passkeys to its host name and origin, whatever host the request named', async () => {
    const user = await createUser(t.database.db, { password: PASSWORD });
    const session = (await t.api.post('/sessions', { username: user.username, password: PASSWORD })).body.id as string;
    const asked = await t.api.post('/2fa/passkeys/options', {}, { session, headers: REAUTH });
    expect(asked.body.rp.id).toBe('files.example.com');
    const authenticator = new SoftwareAuthenticator();
    const refused = await t.api.post('/2fa/passkeys', { response: authenticator.register(asked.body, t.baseUrl) }, { session });
    expect(refused.body.error).toMatch(/origin/);
    const again = await t.api.post('/2fa/passkeys/options', {}, { session, headers: REAUTH });
    const added = await t.api.post('/2fa/passkeys', { response: authenticator.register(again.body, 'https://files.example.com:8443') }, { session });
    expect(added.status).toBe(201);
    expect(added.body.name).toBe('Passkey');
  });
});
