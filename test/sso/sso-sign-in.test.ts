import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createGroup, createUser, createWorkspace, unique } from '../support/factories.js';
import { ID_TOKEN_SECONDS, startOpenIdProvider, type TestOpenIdProvider } from '../support/openid-provider.js';
import { temporaryFolders } from '../support/temp-dirs.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { declaredAttributes } from '../wire/sdk-model-docs.js';

const CALLBACK = '/api/public/sso/callback';
const admin = { key: BOOTSTRAP_KEY };
const folders = temporaryFolders();

interface Returned {
  status: number;
  /** Where the callback sent the browser. */
  location: string;
  /** The console session it set, if any. */
  session: string | undefined;
}

function cookieOf(response: { headers: Headers }, name: string): string | undefined {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    if (pair?.startsWith(`${name}=`)) return pair.slice(name.length + 1);
  }
  return undefined;
}

/**
 * Single sign-on through the REST API and the console's browser endpoints, against a real OpenID
 * provider over HTTPS (oidc-provider, trusting its test CA by the fetch the core is given): what a
 * first sign-in makes, how groups follow the claim, every refusal (audience, expiry, a replayed
 * state, a name that matches an unlinked user) with its History record, links, switching a user
 * to a provider, reauthentication at the provider, and the provider's administration.
 */
describe.each(testDatabaseTargets())('single sign-on with OpenID Connect [$name]', (target) => {
  let t: TestApp;
  let op: TestOpenIdProvider;
  let providerId: number;
  let workspaceId: number;
  let staffGroup: number;
  let leadsGroup: number;
  let unmappedGroup: number;

  /** A browser: start at Atrium, sign in at the provider, come back to Atrium's callback (once, or `times`). */
  async function signIn(accountId: string, options: { next?: string; between?: () => void; times?: number } = {}): Promise<Returned[]> {
    const start = await fetch(`${t.baseUrl}/api/public/sso/providers/${providerId}/sign_in?next=${encodeURIComponent(options.next ?? '/files')}`, { redirect: 'manual' });
    expect(start.status).toBe(303);
    const flow = cookieOf(start, 'atrium_sso_flow') as string;
    expect(flow).toMatch(/^[0-9a-f]+$/);
    const callback = await op.signIn(start.headers.get('location') as string, accountId);
    expect(callback.startsWith(`${t.baseUrl}${CALLBACK}?`)).toBe(true);
    options.between?.();
    const answers: Returned[] = [];
    for (let i = 0; i < (options.times ?? 1); i += 1) {
      const back = await fetch(callback, { redirect: 'manual', headers: { cookie: `atrium_sso_flow=${flow}` } });
      answers.push({ status: back.status, location: back.headers.get('location') as string, session: cookieOf(back, 'atrium_session') });
    }
    return answers;
  }

  const asConsole = (session: string) => ({ headers: { 'X-Atrium-Console': '1', cookie: `atrium_session=${session}` } });

  async function lastRecord(action: string) {
    const records = (await t.api.get(`/history?filter[action]=${action}&per_page=1`, admin)).body as Record<string, any>[];
    return records[0] as Record<string, any>;
  }

  async function userNamed(username: string): Promise<Record<string, any>> {
    const [user] = (await t.api.get(`/users?filter[username]=${encodeURIComponent(username)}`, admin)).body as Record<string, any>[];
    expect(user).toBeDefined();
    return user as Record<string, any>;
  }

  beforeAll(async () => {
    t = await startTestApp(target, { identityProviderFetch: (url, options) => op.fetch(url, options) });
    op = await startOpenIdProvider(folders('atrium-oidc-'), [`${t.baseUrl}${CALLBACK}`]);
    workspaceId = await createWorkspace(t.database.db);
    staffGroup = await createGroup(t.database.db, { workspaceId });
    leadsGroup = await createGroup(t.database.db, { workspaceId });
    unmappedGroup = await createGroup(t.database.db, { workspaceId });
    const created = await t.api.post('/sso_providers', {
      label: 'Example ID', issuer_url: op.issuer, client_id: op.clientId, client_secret: op.clientSecret, scopes: 'openid profile email groups',
      group_claim: 'groups', group_mappings: [{ claim_value: 'staff', group_id: staffGroup }, { claim_value: 'leads', group_id: leadsGroup }],
      provision_users: true, workspace_id: workspaceId,
    }, admin);
    expect([created.status, created.body.error]).toEqual([201, undefined]);
    providerId = created.body.id;
  });
  afterAll(async () => {
    await t?.close();
    await op?.close();
  });
  // Atrium's clock is openid-client's time: kept at the real time, which the provider's tokens carry.
  beforeEach(() => t.clock.advance(Date.now() - t.clock.now()));

  it('keeps the client secret sealed and write-only, and shows where to register the callback', async () => {
    const shown = (await t.api.get(`/sso_providers/${providerId}`, admin)).body;
    expect(shown).toMatchObject({
      label: 'Example ID', issuer_url: op.issuer, client_id: op.clientId, client_secret_set: true, username_claim: 'preferred_username', provision_users: true,
      workspace_id: workspaceId, enabled: true, display_on_login_page: true, redirect_uri: `${t.baseUrl}${CALLBACK}`, provider: null, user_count: 0,
    });
    expect(JSON.stringify(shown)).not.toContain(op.clientSecret);
    const row = await t.database.db.selectFrom('sso_providers').select('client_secret_sealed').where('id', '=', providerId).executeTakeFirstOrThrow();
    expect(row.client_secret_sealed).toMatch(/^v1\./);
    expect(row.client_secret_sealed).not.toContain(op.clientSecret);
    expect((await t.api.get('/api/public/sso/providers')).body).toEqual([{ id: providerId, label: 'Example ID' }]);
  });

  it('makes a user at the first sign-in, in the provider\'s Workspace with the mapped groups, without a password, and lands in the console', async () => {
    const username = unique('ann');
    op.setAccount('ann-sub', { preferred_username: username, email: `${username}@example.com`, name: 'Ann Example', groups: ['staff', 'unrelated'] });
    const [back] = await signIn('ann-sub', { next: '/files/Reports?view=list' });
    expect(back).toMatchObject({ status: 303, location: '/files/Reports?view=list' });
    expect(back?.session).toMatch(/^[0-9a-f]{64}$/);

    const user = await userNamed(username);
    expect(user).toMatchObject({ workspace_id: workspaceId, name: 'Ann Example', email: `${username}@example.com`, authentication_method: 'sso', sso_strategy_id: providerId, password_set_at: null });
    expect(user.group_ids).toBe(String(staffGroup));
    const own = await t.api.get(`/users/${user.id}`, asConsole(back?.session as string));
    expect([own.status, own.body.username]).toEqual([200, username]);
    // No password: POST /sessions answers as for any wrong password.
    const password = await t.api.post('/sessions', { username, password: 'any password at all' });
    expect([password.status, password.body.type]).toEqual([401, 'not-authenticated/invalid-username-or-password']);
    // Nor do the protocols' password sign-ins (WebDAV here, SFTP shares its door); its API keys work.
    const basic = (secret: string) => ({ authorization: `Basic ${Buffer.from(`${username}:${secret}`).toString('base64')}` });
    expect((await fetch(`${t.baseUrl}/dav/`, { method: 'PROPFIND', headers: { ...basic('any password at all'), depth: '0' } })).status).toBe(401);
    const key = (await t.api.post('/api_keys', { name: 'scripts', user_id: user.id }, admin)).body.key as string;
    expect((await t.api.get('/folders/', { key })).status).toBe(200);
    expect(await lastRecord('login')).toMatchObject({ username, interface: 'web', display: `${username} signed in with Example ID (web), a new user` });
    expect((await t.api.get(`/sso_strategies/${providerId}`, admin)).body.user_count).toBe(1);
  });

  it('sets the mapped groups from the claim at every sign-in, and leaves groups outside the mapping alone', async () => {
    const username = unique('bob');
    op.setAccount('bob-sub', { preferred_username: username, groups: ['staff', 'leads'] });
    await signIn('bob-sub');
    const user = await userNamed(username);
    expect(user.group_ids.split(',').map(Number).sort()).toEqual([staffGroup, leadsGroup].sort());
    expect((await t.api.post('/group_users', { group_id: unmappedGroup, user_id: user.id }, admin)).status).toBe(201);

    op.setAccount('bob-sub', { preferred_username: username, groups: ['leads'] });
    const [back] = await signIn('bob-sub');
    expect(back?.status).toBe(303);
    expect((await userNamed(username)).group_ids.split(',').map(Number).sort()).toEqual([leadsGroup, unmappedGroup].sort());
    const change = await lastRecord('group_update');
    expect(change).toMatchObject({ username, interface: 'web' });
  });

  it('reads the user\'s settings after its groups follow the claim: a group the claim adds it to may admit it', async () => {
    const username = unique('rae');
    op.setAccount('rae-sub', { preferred_username: username });
    await signIn('rae-sub');
    const user = await userNamed(username);
    expect((await t.api.patch(`/users/${user.id}`, { restapi_permission: false }, admin)).status).toBe(200);
    const [closed] = await signIn('rae-sub');
    expect([closed?.location, closed?.session]).toEqual(['/sign-in?sso_error=not_allowed&next=%2Ffiles', undefined]);
    expect((await t.api.patch(`/groups/${leadsGroup}`, { restapi_permission: true }, admin)).status).toBe(200);
    try {
      op.setAccount('rae-sub', { preferred_username: username, groups: ['leads'] });
      const [opened] = await signIn('rae-sub');
      expect([opened?.location, opened?.session]).toEqual(['/files', expect.any(String)]);
      expect((await userNamed(username)).group_ids).toBe(String(leadsGroup));
    } finally {
      await t.api.patch(`/groups/${leadsGroup}`, { restapi_permission: false }, admin);
    }
  });

  it('refuses an ID token meant for another client (its audience), and records why', async () => {
    op.setAccount('cat-sub', { preferred_username: unique('cat') });
    op.tamper.audience = 'another-client';
    try {
      const [back] = await signIn('cat-sub');
      expect(back).toMatchObject({ status: 303, session: undefined });
      expect(back?.location).toMatch(/^\/sign-in\?sso_error=failed&next=%2Ffiles$/);
    } finally {
      op.tamper.audience = undefined;
    }
    const record = await lastRecord('failedlogin');
    expect(record).toMatchObject({ failure_type: 'sso_refused', interface: 'web' });
    expect(record.display).toMatch(/with Example ID \(web\).*"aud"/);
  });

  it('refuses an expired ID token, by Atrium\'s clock, without waiting', async () => {
    op.setAccount('dan-sub', { preferred_username: unique('dan') });
    const [back] = await signIn('dan-sub', { between: () => t.clock.advance((ID_TOKEN_SECONDS + 120) * 1000) });
    expect(back).toMatchObject({ status: 303, session: undefined, location: '/sign-in?sso_error=failed&next=%2Ffiles' });
    expect((await lastRecord('failedlogin')).display).toMatch(/"exp"/);
  });

  it('refuses a replayed state: a callback is used once', async () => {
    op.setAccount('eve-sub', { preferred_username: unique('eve') });
    const [first, replayed] = await signIn('eve-sub', { times: 2 });
    expect(first?.session).toBeDefined();
    expect(replayed).toMatchObject({ status: 303, session: undefined, location: '/sign-in?sso_error=expired&next=%2Ffiles' });
    expect(await lastRecord('failedlogin')).toMatchObject({ failure_type: 'sso_refused', display: expect.stringContaining('replayed') });
    // A page to go back to is one of this site's, as a valid address; another site's is not followed.
    for (const [next, kept] of [['/files/Ünïcode folder?x=1', '/files/%C3%9Cn%C3%AFcode%20folder?x=1'], ['//evil.example/x', '/files'], ['https://evil.example', '/files'], ['/\\evil.example', '/files']]) {
      const started = await fetch(`${t.baseUrl}/api/public/sso/providers/${providerId + 1000}/sign_in?next=${encodeURIComponent(next as string)}`, { redirect: 'manual' });
      expect(started.headers.get('location')).toBe(`/sign-in?sso_error=unavailable&next=${encodeURIComponent(kept as string)}`);
    }
    // Without the browser's flow cookie, nothing is found to finish.
    const foreign = await fetch(`${t.baseUrl}${CALLBACK}?code=x&state=y`, { redirect: 'manual' });
    expect([foreign.status, foreign.headers.get('location')]).toEqual([303, '/sign-in?sso_error=expired&next=%2Ffiles']);
  });

  it('never signs in a password user whose name the account claims; an administrator links it, and then it signs in', async () => {
    const existing = await createUser(t.database.db, { username: unique('fay'), password: 'the password of fay' });
    op.setAccount('fay-sub', { preferred_username: existing.username, groups: ['staff'] });
    const [refused] = await signIn('fay-sub');
    expect(refused).toMatchObject({ status: 303, session: undefined, location: '/sign-in?sso_error=not_linked&next=%2Ffiles' });
    const record = await lastRecord('failedlogin');
    expect(record).toMatchObject({ failure_type: 'sso_not_linked', user_id: existing.id, username: existing.username });
    expect(record.targets).toMatchObject({ sso_provider: { id: providerId, label: 'Example ID' }, issuer: op.issuer, subject: 'fay-sub', claimed_username: existing.username });

    const missing = await t.api.post(`/sso_providers/${providerId}/links`, { user_id: existing.id, subject: '' }, admin);
    expect([missing.status, missing.body.type]).toEqual([400, 'bad-request/request-params-invalid']);
    const link = await t.api.post(`/sso_providers/${providerId}/links`, { user_id: existing.id, subject: 'fay-sub' }, admin);
    expect(link.status).toBe(201);
    expect(link.body).toMatchObject({ sso_provider_id: providerId, user_id: existing.id, username: existing.username, issuer: op.issuer, subject: 'fay-sub', last_sign_in_at: null });
    const again = await t.api.post(`/sso_providers/${providerId}/links`, { user_id: existing.id, subject: 'fay-sub' }, admin);
    expect([again.status, again.body.type]).toEqual([422, 'processing-failure/model-save-error']);
    expect(await lastRecord('sso_link_create')).toMatchObject({ display: `Linked ${existing.username} to an account at Example ID` });

    const [linked] = await signIn('fay-sub');
    expect(linked?.session).toBeDefined();
    const user = (await t.api.get(`/users/${existing.id}`, admin)).body;
    // Linked, it keeps its password and its way of signing in; its mapped groups follow the claim.
    expect(user).toMatchObject({ authentication_method: 'password', sso_strategy_id: null });
    expect(user.group_ids).toBe('');
    expect((await t.api.post('/sessions', { username: existing.username, password: 'the password of fay' })).status).toBe(201);

    const links = (await t.api.get(`/sso_providers/${providerId}/links`, admin)).body as { id: number; user_id: number; last_sign_in_at: string | null }[];
    const own = links.find((l) => l.user_id === existing.id);
    expect(own?.last_sign_in_at).not.toBeNull();
    expect((await t.api.delete(`/sso_providers/${providerId}/links/${own?.id}`, admin)).status).toBe(204);
    const [unlinked] = await signIn('fay-sub');
    expect(unlinked?.location).toBe('/sign-in?sso_error=not_linked&next=%2Ffiles');
  });

  it('refuses an account with no Atrium user when the provider makes none, and a disabled user', async () => {
    expect((await t.api.patch(`/sso_providers/${providerId}`, { provision_users: false }, admin)).status).toBe(200);
    try {
      op.setAccount('gus-sub', { preferred_username: unique('gus') });
      const [refused] = await signIn('gus-sub');
      expect(refused?.location).toBe('/sign-in?sso_error=no_account&next=%2Ffiles');
      expect(await lastRecord('failedlogin')).toMatchObject({ failure_type: 'username_not_found' });
    } finally {
      await t.api.patch(`/sso_providers/${providerId}`, { provision_users: true }, admin);
    }
    const username = unique('hal');
    op.setAccount('hal-sub', { preferred_username: username });
    await signIn('hal-sub');
    const user = await userNamed(username);
    expect((await t.api.patch(`/users/${user.id}`, { disabled: true }, admin)).status).toBe(200);
    const [disabled] = await signIn('hal-sub');
    expect(disabled?.location).toBe('/sign-in?sso_error=disabled&next=%2Ffiles');
  });

  it('switches a user to a provider (its password goes) and back, administrators only', async () => {
    const user = await createUser(t.database.db, { workspaceId, username: unique('ivy'), password: 'the password of ivy' });
    const withPassword = await t.api.patch(`/users/${user.id}`, { authentication_method: 'sso', sso_strategy_id: providerId, password: 'another password here' }, admin);
    expect([withPassword.status, withPassword.body.type]).toEqual([422, 'processing-failure/model-save-error']);
    const unknown = await t.api.patch(`/users/${user.id}`, { authentication_method: 'sso', sso_strategy_id: providerId + 1000 }, admin);
    expect(unknown.status).toBe(422);
    const wrong = await t.api.patch(`/users/${user.id}`, { authentication_method: 'ldap' }, admin);
    expect([wrong.status, wrong.body.type]).toEqual([400, 'bad-request/request-params-invalid']);

    const session = (await t.api.post('/sessions', { username: user.username, password: 'the password of ivy' })).body.id as string;
    expect((await t.api.get('/users', { session })).status).toBe(200);
    const updatesBefore = (await t.database.db.selectFrom('history').select('id').where('action', '=', 'user_update').execute()).length;
    const switched = await t.api.patch(`/users/${user.id}`, { authentication_method: 'sso', sso_strategy_id: providerId }, admin);
    expect(switched.status).toBe(200);
    // One change, one record; the password's sessions end with the password.
    expect((await t.database.db.selectFrom('history').select('id').where('action', '=', 'user_update').execute()).length).toBe(updatesBefore + 1);
    expect((await t.api.get('/users', { session })).status).toBe(401);
    expect(switched.body).toMatchObject({ authentication_method: 'sso', sso_strategy_id: providerId, password_set_at: null });
    const signIn = await t.api.post('/sessions', { username: user.username, password: 'the password of ivy' });
    expect([signIn.status, signIn.body.type]).toEqual([401, 'not-authenticated/invalid-username-or-password']);
    expect(await lastRecord('user_update')).toMatchObject({ display: `Changed user ${user.username}: authentication_method, sso_strategy_id, password` });
    expect((await lastRecord('user_update')).targets).toMatchObject({
      before: { authentication_method: 'password', sso_strategy_id: null }, after: { authentication_method: 'sso', sso_strategy_id: providerId },
    });
    // Sent back as read (the SDK's save), it changes nothing.
    expect((await t.api.patch(`/users/${user.id}`, { authentication_method: 'sso', sso_strategy_id: providerId, name: 'Ivy' }, admin)).status).toBe(200);
    const password = await t.api.patch(`/users/${user.id}`, { password: 'a new password for ivy' }, admin);
    expect([password.status, password.body.model_errors]).toEqual([422, { password: [expect.stringContaining('SSO provider')] }]);
    const removing = await t.api.delete(`/sso_providers/${providerId}`, admin);
    expect([removing.status, removing.body.type]).toEqual([422, 'processing-failure/model-save-error']);

    const back = await t.api.patch(`/users/${user.id}`, { authentication_method: 'password', password: 'a new password for ivy', name: 'Ivy Back' }, admin);
    expect(back.body).toMatchObject({ authentication_method: 'password', sso_strategy_id: null, name: 'Ivy Back' });
    // The method, the password and the other fields: one change, recorded once.
    expect(await lastRecord('user_update')).toMatchObject({ display: `Changed user ${user.username}: name, authentication_method, sso_strategy_id, password` });
    expect((await t.api.post('/sessions', { username: user.username, password: 'a new password for ivy' })).status).toBe(201);

    const created = await t.api.post('/users', { username: unique('jay'), workspace_id: workspaceId, authentication_method: 'sso', sso_strategy_id: providerId }, admin);
    expect([created.status, created.body.authentication_method, created.body.sso_strategy_id]).toEqual([201, 'sso', providerId]);
    expect((await lastRecord('user_create')).targets).toMatchObject({ id: created.body.id, authentication_method: 'sso', sso_strategy_id: providerId });
  });

  it('confirms an SSO user\'s session by a fresh sign-in at the provider, where a password would be asked', async () => {
    const username = unique('kim');
    op.setAccount('kim-sub', { preferred_username: username });
    const [signedIn] = await signIn('kim-sub');
    const session = signedIn?.session as string;
    const console = asConsole(session);
    const sso = { headers: { ...console.headers, 'X-Service-Reauthentication': 'sso' } };
    const needed = await t.api.post('/api_keys', { name: 'deploy' }, console);
    expect(needed.body.type).toBe('not-authorized/reauthentication-needed-action');
    const early = await t.api.post('/api_keys', { name: 'deploy' }, sso);
    expect([early.status, early.body.type]).toEqual([403, 'not-authorized/reauthentication-failed']);

    const started = await t.api.post('/sso_reauthentications', { next: '/account' }, console);
    expect(started.status).toBe(201);
    const flow = cookieOf(started, 'atrium_sso_flow');
    const authorization = new URL(started.body.authorization_url);
    expect([authorization.searchParams.get('prompt'), authorization.searchParams.get('max_age')]).toEqual(['login', '0']);
    const callback = await op.signIn(started.body.authorization_url, 'kim-sub');
    const back = await fetch(callback, { redirect: 'manual', headers: { cookie: `atrium_sso_flow=${flow}` } });
    expect([back.status, back.headers.get('location')]).toEqual([303, '/account']);

    const confirmed = await t.api.post('/api_keys', { name: 'deploy' }, sso);
    expect(confirmed.status).toBe(201);
    t.clock.advanceMinutes(6);
    expect((await t.api.post('/api_keys', { name: 'later' }, sso)).body.type).toBe('not-authorized/reauthentication-failed');
  });

  it('shows the providers as the SDK\'s SsoStrategy to Site Administrators only, and records every change of them', async () => {
    const strategies = (await t.api.get('/sso_strategies', admin)).body as Record<string, unknown>[];
    expect(strategies).toHaveLength(1);
    expect(strategies[0]).toMatchObject({
      id: providerId, protocol: 'oauth2', provider: null, label: 'Example ID', enabled: true, display_on_login_page: true, provision_users: true, provision_groups: true,
      logo_url: null, subdomain: null,
    });
    // Every field the Files.com SDK declares for SsoStrategy is there.
    expect(Object.keys(strategies[0] ?? {})).toEqual(expect.arrayContaining(declaredAttributes('SsoStrategy').map((a) => a.name)));
    expect((await t.api.post(`/sso_strategies/${providerId}/sync`, {}, admin)).status).toBe(204);
    expect((await t.api.post(`/sso_strategies/${providerId + 1000}/sync`, {}, admin)).status).toBe(404);
    const member = await createUser(t.database.db, { workspaceId: 0, username: unique('member') });
    const memberKey = (await t.api.post('/api_keys', { name: 'k', user_id: member.id }, admin)).body.key as string;
    for (const path of ['/sso_strategies', `/sso_strategies/${providerId}`, '/sso_providers']) {
      expect((await t.api.get(path, { key: memberKey })).body.type).toBe('not-authorized/site-admin-required');
    }

    const insecure = await t.api.post('/sso_providers', { label: 'Plain', issuer_url: 'http://idp.example', client_id: 'x' }, admin);
    expect(insecure.body).toMatchObject({ type: 'bad-request/request-params-invalid', model_errors: { issuer_url: [expect.stringContaining('https')] } });
    const noOpenid = await t.api.post('/sso_providers', { label: 'X', issuer_url: 'https://idp.example', client_id: 'x', scopes: 'profile' }, admin);
    expect(noOpenid.body.model_errors).toEqual({ scopes: ['must include openid'] });
    const otherWorkspace = await t.api.post('/sso_providers', {
      label: 'X', issuer_url: 'https://idp.example', client_id: 'x', group_claim: 'groups', group_mappings: [{ claim_value: 'a', group_id: await createGroup(t.database.db, { workspaceId: 0 }) }], workspace_id: workspaceId,
    }, admin);
    expect(otherWorkspace.body.model_errors.group_mappings[0]).toContain("provider's Workspace");
    const duplicate = await t.api.post('/sso_providers', { label: 'Again', issuer_url: op.issuer, client_id: 'y' }, admin);
    expect([duplicate.status, duplicate.body.type]).toEqual([422, 'processing-failure/model-save-error']);

    const entra = await t.api.post('/sso_providers', {
      label: 'Entra', issuer_url: 'https://login.microsoftonline.com/00000000-0000-0000-0000-000000000000/v2.0', client_id: 'app', enabled: false,
    }, admin);
    expect(entra.body).toMatchObject({ provider: 'azure', client_secret_set: false, scopes: 'openid profile email', enabled: false });
    expect((await t.api.get('/api/public/sso/providers')).body).toEqual([{ id: providerId, label: 'Example ID' }]);
    const turnedOff = await fetch(`${t.baseUrl}/api/public/sso/providers/${entra.body.id}/sign_in`, { redirect: 'manual' });
    expect(turnedOff.headers.get('location')).toBe('/sign-in?sso_error=unavailable&next=%2Ffiles');
    const renamed = await t.api.patch(`/sso_providers/${entra.body.id}`, { label: 'Microsoft', client_secret: 'a secret' }, admin);
    expect(renamed.body).toMatchObject({ label: 'Microsoft', client_secret_set: true });
    expect(await lastRecord('sso_provider_update')).toMatchObject({ display: 'Changed sign-in provider Microsoft: label, client_secret' });
    expect(JSON.stringify(await lastRecord('sso_provider_update'))).not.toContain('a secret');
    expect((await t.api.delete(`/sso_providers/${entra.body.id}`, admin)).status).toBe(204);
    expect(await lastRecord('sso_provider_destroy')).toMatchObject({ display: 'Removed sign-in provider Microsoft' });
    expect((await t.api.get(`/sso_providers/${entra.body.id}`, admin)).status).toBe(404);
  });
});
