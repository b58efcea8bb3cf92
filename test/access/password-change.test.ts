import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const HANDED_OVER = 'the password the administrator handed over';
const OWN = 'a password of my very own';
const REQUIRED = { status: 403, type: 'not-authorized/password-change-required' };

/**
 * require_password_change (access/password-change-gate.ts): the user signs in, and its session
 * reaches nothing but its own record and the site's password rules until it sets a new password
 * of its own; its API keys are not held up; setting the password clears the flag.
 */
describe.each(testDatabaseTargets())('a required password change [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  const reauth = (password: string) => ({ 'X-Service-Reauthentication': `password:${password}` });
  const answer = (response: { status: number; body: { type?: string } }) => ({ status: response.status, type: response.body.type });

  it('holds the session to changing the password, then lets it work; a key of the user is not held', async () => {
    const user = await createUser(t.database.db, { password: HANDED_OVER });
    const key = await createApiKey(t.database.db, { userId: user.id });
    const flagged = await t.api.patch(`/users/${user.id}`, { require_password_change: true }, { key: BOOTSTRAP_KEY });
    expect(flagged.body.require_password_change).toBe(true);

    const signIn = await t.api.post('/sessions', { username: user.username, password: HANDED_OVER });
    expect(signIn.status).toBe(201);
    const session = signIn.body.id as string;

    // Its own record (the console learns the change is due) and the password rules are open.
    const own = await t.api.get(`/users/${user.id}`, { session });
    expect({ status: own.status, flag: own.body.require_password_change }).toEqual({ status: 200, flag: true });
    expect((await t.api.get('/site/policies', { session })).status).toBe(200);
    // Everything else is refused, another user's record and its own files included.
    expect(answer(await t.api.get('/folders/', { session }))).toEqual(REQUIRED);
    expect(answer(await t.api.get('/users/1', { session }))).toEqual(REQUIRED);
    expect(answer(await t.api.get('/api_keys', { session }))).toEqual(REQUIRED);
    // An update of its own record must set the password; the handed-over one is no change.
    expect(answer(await t.api.patch(`/users/${user.id}`, { name: 'Someone' }, { session, headers: reauth(HANDED_OVER) }))).toEqual(REQUIRED);
    // Whether a text is the current password is told only after the password confirms the change.
    expect(answer(await t.api.patch(`/users/${user.id}`, { password: HANDED_OVER }, { session }))).toEqual({ status: 400, type: 'bad-request/reauthentication-needed-fields' });
    const same = await t.api.patch(`/users/${user.id}`, { password: HANDED_OVER }, { session, headers: reauth(HANDED_OVER) });
    expect({ ...answer(same), errors: same.body.model_errors?.password }).toEqual({
      status: 422, type: 'processing-failure/model-save-error', errors: ['must differ from the current password'],
    });
    // The key is for unattended use: it is not held up meanwhile.
    expect((await t.api.get('/folders/', { key })).status).toBe(200);

    const changed = await t.api.patch(`/users/${user.id}`, { password: OWN }, { session, headers: reauth(HANDED_OVER) });
    expect({ status: changed.status, flag: changed.body.require_password_change }).toEqual({ status: 200, flag: false });
    expect((await t.api.get('/folders/', { session })).status).toBe(200);
    const stored = await t.database.db.selectFrom('users').select('require_password_change').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(Boolean(stored.require_password_change)).toBe(false);
  });

  it('leaves the flag set when an administrator sets the password for the user, so the user still changes it', async () => {
    const user = await createUser(t.database.db, { password: HANDED_OVER });
    const reset = await t.api.patch(`/users/${user.id}`, { password: 'a brand new handed-over password', require_password_change: true }, { key: BOOTSTRAP_KEY });
    expect({ status: reset.status, flag: reset.body.require_password_change }).toEqual({ status: 200, flag: true });
    const again = await t.api.patch(`/users/${user.id}`, { password: 'yet another handed-over password' }, { key: BOOTSTRAP_KEY });
    expect(again.body.require_password_change).toBe(true);
    const session = (await t.api.post('/sessions', { username: user.username, password: 'yet another handed-over password' })).body.id as string;
    expect(answer(await t.api.get('/folders/', { session }))).toEqual(REQUIRED);
  });
});
