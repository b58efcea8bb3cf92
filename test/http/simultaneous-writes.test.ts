import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOpenSshKeyPairSync } from '../../src/lib/openssh-key-pair.js';
import { atOnce, countBy } from '../support/at-once.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createSession, createUser, unique } from '../support/factories.js';
import type { ApiResponse, CallOptions } from '../support/http-client.js';
import { SoftwareAuthenticator } from '../support/software-authenticator.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/** How many identical requests are sent at once. */
const AT_ONCE = 20;
const API = '/api/rest/v1';
const PASSWORD = 'a perfectly good passphrase';

interface Recorded {
  id: number;
  action: string;
  targets: Record<string, unknown> | null;
}

/** One write sent AT_ONCE times at the same moment, and what the site must look like after it. */
interface Burst {
  method: string;
  /** Under the API's base, as ApiClient takes it. */
  path: string;
  options?: CallOptions;
  /** How many answers of each status. */
  answers: Record<number, number>;
  /** The error type of every refused request. */
  refusal?: string;
  /** The History records the burst leaves, by action; no other action may be recorded. */
  recorded: Record<string, number>;
  /** The data after the burst, and anything the answers and records must agree on. */
  after?: (answers: ApiResponse[], records: Recorded[]) => Promise<void>;
}

const admin: CallOptions = { key: BOOTSTRAP_KEY };

/**
 * Every write of the REST API sent 20 times at once, identical, on every database. Whatever the
 * interleaving, the outcome is one the same requests could have had one after another: exactly one
 * effect where the rules allow one (a name is taken once, a thing is deleted once, an identical
 * change is made once), every other request answered as it would be after that one, never a 500,
 * and History recording exactly what happened. The table holds one entry per write operation of
 * the OpenAPI document, so a new write route cannot be left out.
 */
describe.each(testDatabaseTargets())('simultaneous identical writes [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(() => t.close());

  const post = async (path: string, body: unknown, options: CallOptions = admin) => {
    const answer = await t.api.post(path, body, options);
    if (answer.status >= 300) throw new Error(`setup POST ${path}: ${answer.status} ${answer.text}`);
    return answer.body;
  };
  const upload = async (path: string, content: string) => {
    const answer = await t.api.call('PUT', `/files/${path}`, { ...admin, rawBody: content, headers: { 'content-type': 'application/octet-stream' } });
    if (answer.status !== 201) throw new Error(`setup upload ${path}: ${answer.status} ${answer.text}`);
  };
  const sshKey = () => generateOpenSshKeyPairSync('ed25519', { comment: 'me@laptop' }).public.trim();
  const keyIdOf = async (userId: number) => ((await t.api.get(`/api_keys?user_id=${userId}`, admin)).body as { id: number }[])[0]!.id;
  const newGroup = async (fields: Record<string, unknown> = {}) => (await post('/groups', { name: unique('group'), ...fields })) as { id: number };
  const newPartner = async () => (await post('/partners', { name: unique('partner'), root_folder: unique('partner-root') })) as { id: number };
  const newProvider = async () => (await post('/sso_providers', { label: 'IdP', issuer_url: `https://${unique('idp')}.example`, client_id: 'atrium' })) as { id: number };
  const newAutomation = async () => (await post('/automations', { automation: 'copy_file', name: unique('automation') })) as { id: number };
  /** A share link of a folder of its own, made for a Site Administrator (the site-wide key has no user). */
  const newBundle = async (fields: Record<string, unknown> = {}) => {
    const folder = unique('shared');
    await post(`/folders/${folder}`, {});
    const owner = await createUser(db(), { siteAdmin: true });
    return { ...(await post('/bundles', { paths: [folder], user_id: owner.id, ...fields })) as { id: number; code: string }, folder };
  };
  const membershipOf = async (groupId: number, userId: number) => {
    await post('/group_users', { group_id: groupId, user_id: userId });
    return ((await t.api.get(`/group_users?group_id=${groupId}`, admin)).body as { id: number; user_id: number }[]).find((m) => m.user_id === userId)!.id;
  };
  const db = () => t.database.db;
  const statusOf = async (path: string, options: CallOptions = admin) => (await t.api.get(path, options)).status;
  const beganUpload = async (path: string) => (await post(`/files/${path}`, { action: 'put' })) as { ref: string; upload_uri: string };

  /** A user with a session that confirms its password when asked, and with `withPasskey`, a passkey of its own. */
  const passkeyOwner = async (options: { withPasskey?: boolean } = {}) => {
    const user = await createUser(db(), { password: PASSWORD });
    const session: CallOptions = { session: await createSession(db(), user.id, t.clock.now()), headers: { 'X-Service-Reauthentication': `password:${PASSWORD}` } };
    if (options.withPasskey !== true) return { user, session, passkey: 0 };
    const asked = await post('/2fa/passkeys/options', {}, session);
    const added = (await post('/2fa/passkeys', { name: 'laptop', response: new SoftwareAuthenticator().register(asked, t.baseUrl) }, session)) as { id: number };
    return { user, session, passkey: added.id };
  };

  /** Rename bursts of one resource: every request succeeds; one change, one record. */
  const renamed = (method: string, path: string, body: Record<string, unknown>, action: string, check: () => Promise<void>, options: CallOptions = admin): Burst => ({
    method, path, options: { ...options, body }, answers: { 200: AT_ONCE }, recorded: { [action]: 1 }, after: check,
  });

  /** Deletion bursts: one deletes, the others find nothing left to delete. */
  const deleted = (path: string, refusal: string, action: string, options: CallOptions = admin): Burst => ({
    method: 'DELETE', path, options, answers: { 204: 1, [refusal.startsWith('not-authenticated') ? 401 : 404]: AT_ONCE - 1 }, refusal, recorded: { [action]: 1 },
    after: async () => expect(await statusOf(path)).toBe(404),
  });

  /** A file deleted into the trash: its path and the trash entry's id. */
  const trashed = async (name: string) => {
    const path = `${unique(name)}.txt`;
    await upload(path, 'trashed bytes');
    const gone = await t.api.call('DELETE', `/files/${path}`, admin);
    if (gone.status !== 204) throw new Error(`setup DELETE ${path}: ${gone.status} ${gone.text}`);
    const [entry] = (await t.api.get(`/trash?path=${encodeURIComponent(path)}`, admin)).body as { id: number }[];
    return { path, id: entry!.id };
  };
  /** A person's remembered Workspace, set to the same one twenty times at once: the same answer for all, nothing recorded. */
  const preferenceSet = async (method: 'PUT' | 'PATCH'): Promise<Burst> => {
    const user = await createUser(db());
    const key = await createApiKey(db(), { userId: user.id });
    return {
      method, path: '/user_preferences', options: { key, body: { last_workspace_id: 0 } }, answers: { 200: AT_ONCE }, recorded: {},
      after: async (answers) => expect(new Set(answers.map((a) => a.body.last_workspace_id))).toEqual(new Set([0])),
    };
  };

  /** A user the site requires a second factor of, signed in up to its partial session (the enrolment's only key). */
  const enrollingUser = async () => {
    const user = await createUser(db(), { password: PASSWORD });
    await db().updateTable('users').set({ require_2fa: 'always_require' }).where('id', '=', user.id).execute();
    const refused = await t.api.post('/sessions', { username: user.username, password: PASSWORD });
    return { user, partial: refused.body.data.partial_session_id as string };
  };
  /** A user with an authenticator app, for the writes only its session may make. */
  const userWithTotp = async () => {
    const { user, partial } = await enrollingUser();
    const secret = (await post('/2fa/totp', { partial_session_id: partial }, {})).secret as string;
    await post('/2fa/totp/confirm', { partial_session_id: partial, otp: await generate({ secret, epoch: Math.floor(t.clock.now() / 1000) }) }, {});
    return { user, key: await createApiKey(db(), { userId: user.id }) };
  };

  const SCENARIOS: Record<string, () => Promise<Burst>> = {
    // Setting up an authenticator app: each start replaces the secret waiting for its code; one confirmation takes the code.
    'POST /2fa/totp': async () => {
      const { user, partial } = await enrollingUser();
      return {
        method: 'POST', path: '/2fa/totp', options: { body: { partial_session_id: partial } }, answers: { 201: AT_ONCE }, recorded: {},
        after: async () => expect(await db().selectFrom('user_totp').select('confirmed_at').where('user_id', '=', user.id).execute()).toEqual([{ confirmed_at: null }]),
      };
    },
    'POST /2fa/totp/confirm': async () => {
      const { user, partial } = await enrollingUser();
      const secret = (await post('/2fa/totp', { partial_session_id: partial }, {})).secret as string;
      const otp = await generate({ secret, epoch: Math.floor(t.clock.now() / 1000) });
      return {
        method: 'POST', path: '/2fa/totp/confirm', options: { body: { partial_session_id: partial, otp } },
        answers: { 200: 1, 401: AT_ONCE - 1 }, refusal: 'not-authenticated/two-factor-authentication-setup-expired', recorded: { two_factor_create: 1, login: 1 },
        after: async (answers) => {
          expect(answers.find((a) => a.status === 200)?.body.recovery_codes).toHaveLength(10);
          expect(await db().selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toHaveLength(1);
        },
      };
    },
    // A session reauthenticates for these, and counts the attempts it has pending (five at most, so
    // that parallel guesses cannot pass the limit): twenty at once from one session are refused by
    // design. Twenty from the user's API key are refused alike, and change nothing.
    'DELETE /2fa/totp': async () => {
      const { user, key } = await userWithTotp();
      return {
        method: 'DELETE', path: '/2fa/totp', options: { key }, answers: { 403: AT_ONCE }, refusal: 'not-authorized/reauthentication-needed-action', recorded: {},
        after: async () => expect((await t.api.get(`/users/${user.id}`, admin)).body.active_2fa).toBe(true),
      };
    },
    'POST /2fa/recovery_codes': async () => {
      const { user, key } = await userWithTotp();
      return {
        method: 'POST', path: '/2fa/recovery_codes', options: { key, body: {} }, answers: { 403: AT_ONCE }, refusal: 'not-authorized/reauthentication-needed-action', recorded: {},
        after: async () => expect(await db().selectFrom('user_recovery_codes').select('id').where('user_id', '=', user.id).execute()).toHaveLength(10),
      };
    },
    'POST /users/{id}/2fa/reset': async () => {
      const { user } = await userWithTotp();
      return {
        method: 'POST', path: `/users/${user.id}/2fa/reset`, options: { ...admin, body: {} }, answers: { 204: AT_ONCE }, recorded: { two_factor_destroy: 1 },
        after: async () => expect((await t.api.get(`/users/${user.id}`, admin)).body.active_2fa).toBe(false),
      };
    },

    'POST /sessions': async () => {
      const user = await createUser(db(), { password: PASSWORD });
      return {
        method: 'POST', path: '/sessions', options: { body: { username: user.username, password: PASSWORD } },
        answers: { 201: AT_ONCE }, recorded: { login: AT_ONCE },
        after: async (answers) => expect(new Set(answers.map((a) => a.body.id)).size).toBe(AT_ONCE),
      };
    },
    'DELETE /sessions': async () => {
      const user = await createUser(db());
      const session = await createSession(db(), user.id, t.clock.now());
      return {
        method: 'DELETE', path: '/sessions', options: { session }, answers: { 200: AT_ONCE }, recorded: { logout: 1 },
        after: async () => expect(await statusOf(`/users/${user.id}`, { session })).toBe(401),
      };
    },

    'POST /sessions/passkey_options': async () => {
      const { user, session } = await passkeyOwner({ withPasskey: true });
      const challenged = await t.api.post('/sessions', { username: user.username, password: PASSWORD });
      const partial = challenged.body.data.partial_session_id as string;
      // Each asks for the challenge again: the last one written waits, for one answer.
      return {
        method: 'POST', path: '/sessions/passkey_options', options: { body: { partial_session_id: partial } }, answers: { 200: AT_ONCE }, recorded: {},
        after: async (answers) => {
          const [waiting] = await db().selectFrom('partial_sessions').select('webauthn_challenge').where('user_id', '=', user.id).execute();
          expect(answers.map((a) => a.body.challenge)).toContain(waiting?.webauthn_challenge);
          expect((await t.api.get('/2fa/passkeys', session)).status).toBe(200);
        },
      };
    },

    'POST /api_keys': async () => {
      const user = await createUser(db());
      const name = unique('key');
      return {
        method: 'POST', path: '/api_keys', options: { ...admin, body: { name, user_id: user.id } }, answers: { 201: AT_ONCE }, recorded: { api_key_create: AT_ONCE },
        // No rule makes a key's name unique: each request makes a key of its own.
        after: async (answers) => {
          expect(new Set(answers.map((a) => a.body.key)).size).toBe(AT_ONCE);
          expect(((await t.api.get(`/api_keys?user_id=${user.id}&per_page=100`, admin)).body as { name: string }[]).filter((k) => k.name === name)).toHaveLength(AT_ONCE);
        },
      };
    },
    'PUT /api_keys/{id}': async () => keyRenamed('PUT'),
    'PATCH /api_keys/{id}': async () => keyRenamed('PATCH'),
    'DELETE /api_keys/{id}': async () => {
      const user = await createUser(db());
      await createApiKey(db(), { userId: user.id });
      return deleted(`/api_keys/${await keyIdOf(user.id)}`, 'not-found/api-key-not-found', 'api_key_destroy');
    },
    // Passkeys: a session's own. Starting a registration and removing a passkey ask for the password,
    // whose attempts a session may have only five of at once (docs/authentication.md, Reauthentication):
    // twenty at once without it are each refused alike, and nothing changes.
    'POST /2fa/passkeys/options': async () => {
      const { user, session } = await passkeyOwner();
      return {
        method: 'POST', path: '/2fa/passkeys/options', options: { session: session.session!, body: {} }, answers: { 403: AT_ONCE },
        refusal: 'not-authorized/reauthentication-needed-action', recorded: {},
        after: async () => expect(await db().selectFrom('sessions').select('webauthn_challenge').where('user_id', '=', user.id).execute()).toEqual([{ webauthn_challenge: null }]),
      };
    },
    'POST /2fa/passkeys': async () => {
      const { user, session } = await passkeyOwner();
      const asked = await post('/2fa/passkeys/options', {}, session);
      const response = new SoftwareAuthenticator().register(asked, t.baseUrl);
      // The challenge is taken by one answer; the others find none waiting.
      return {
        method: 'POST', path: '/2fa/passkeys', options: { ...session, body: { name: 'laptop', response } },
        answers: { 201: 1, 422: AT_ONCE - 1 }, refusal: 'processing-failure/two-factor-authentication-general-error', recorded: { two_factor_create: 1 },
        after: async () => expect(await db().selectFrom('user_passkeys').select('id').where('user_id', '=', user.id).execute()).toHaveLength(1),
      };
    },
    'PATCH /2fa/passkeys/{id}': async () => {
      const { session, passkey } = await passkeyOwner({ withPasskey: true });
      return renamed('PATCH', `/2fa/passkeys/${passkey}`, { name: 'renamed' }, 'two_factor_update', async () => {
        expect(((await t.api.get('/2fa/passkeys', session)).body as { name: string }[]).map((p) => p.name)).toEqual(['renamed']);
      }, session);
    },
    'DELETE /2fa/passkeys/{id}': async () => {
      const { session, passkey } = await passkeyOwner({ withPasskey: true });
      return {
        method: 'DELETE', path: `/2fa/passkeys/${passkey}`, options: { session: session.session! }, answers: { 403: AT_ONCE },
        refusal: 'not-authorized/reauthentication-needed-action', recorded: {},
        after: async () => expect((await t.api.get('/2fa/passkeys', session)).body).toHaveLength(1),
      };
    },
    'PUT /api_key': async () => callingKeyRenamed('PUT'),
    'PATCH /api_key': async () => callingKeyRenamed('PATCH'),
    'DELETE /api_key': async () => {
      const user = await createUser(db());
      const key = await createApiKey(db(), { userId: user.id });
      // The others were authenticated by the key before it went: answered as if they came after.
      return { ...deleted('/api_key', 'not-authenticated/invalid-credentials', 'api_key_destroy', { key }), after: async () => expect(await statusOf('/api_key', { key })).toBe(401) };
    },

    'POST /public_keys': async () => {
      const user = await createUser(db());
      return {
        method: 'POST', path: '/public_keys', options: { ...admin, body: { title: 'laptop', public_key: sshKey(), user_id: user.id } },
        answers: { 201: 1, 422: AT_ONCE - 1 }, refusal: 'processing-failure/model-save-error', recorded: { public_key_create: 1 },
        after: async () => expect((await t.api.get(`/public_keys?user_id=${user.id}`, admin)).body).toHaveLength(1),
      };
    },
    'PUT /public_keys/{id}': async () => publicKeyRenamed('PUT'),
    'PATCH /public_keys/{id}': async () => publicKeyRenamed('PATCH'),
    'DELETE /public_keys/{id}': async () => {
      const user = await createUser(db());
      const key = (await post('/public_keys', { title: 'laptop', public_key: sshKey(), user_id: user.id })) as { id: number };
      return deleted(`/public_keys/${key.id}`, 'not-found', 'public_key_destroy');
    },

    'PUT /site': async () => siteChanged('PUT', 61),
    'PATCH /site': async () => siteChanged('PATCH', 62),

    'POST /workspaces': async () => {
      const name = unique('ws');
      return {
        method: 'POST', path: '/workspaces', options: { ...admin, body: { name } }, answers: { 201: AT_ONCE }, recorded: { workspace_create: AT_ONCE },
        // Workspace names are not unique (contract 7 names no such rule): each request makes one.
        after: async (answers) => {
          expect(new Set(answers.map((a) => a.body.id)).size).toBe(AT_ONCE);
          for (const answer of answers) expect(await statusOf(`/folders/_/Workspaces/${answer.body.id}`)).toBe(200);
        },
      };
    },
    'PUT /workspaces/{id}': async () => workspaceRenamed('PUT'),
    'PATCH /workspaces/{id}': async () => workspaceRenamed('PATCH'),
    'DELETE /workspaces/{id}': async () => {
      const ws = (await post('/workspaces', { name: unique('ws') })) as { id: number };
      return deleted(`/workspaces/${ws.id}`, 'not-found/workspace-not-found', 'workspace_destroy');
    },

    'POST /permissions': async () => {
      const user = await createUser(db());
      const path = unique('shared');
      return {
        method: 'POST', path: '/permissions', options: { ...admin, body: { path, user_id: user.id, permission: 'readonly' } },
        // Each creation replaces the identical grant before it (contract 5.2): one grant remains.
        answers: { 201: AT_ONCE }, recorded: { permission_create: AT_ONCE, permission_destroy: AT_ONCE - 1 },
        after: async (answers, records) => {
          const grants = (await t.api.get(`/permissions?user_id=${user.id}`, admin)).body as { id: number }[];
          expect(grants).toHaveLength(1);
          const created = answers.map((a) => a.body.id as number);
          const replaced = records.filter((r) => r.action === 'permission_destroy').map((r) => r.targets?.['id']);
          // The grant that remains is the one created and not replaced by a later one.
          expect(new Set(created)).toEqual(new Set([...replaced, grants[0]!.id]));
          expect(records.filter((r) => r.action === 'permission_destroy').every((r) => created.includes(r.targets?.['replaced_by'] as number))).toBe(true);
          expect(new Set(answers.flatMap((a) => a.body.replaced_permission_ids as number[]))).toEqual(new Set(replaced));
        },
      };
    },
    'DELETE /permissions/{id}': async () => {
      const user = await createUser(db());
      const grant = (await post('/permissions', { path: unique('shared'), user_id: user.id, permission: 'full' })) as { id: number };
      return { ...deleted(`/permissions/${grant.id}`, 'not-found/permission-not-found', 'permission_destroy'), after: async () => expect((await t.api.get(`/permissions?user_id=${user.id}`, admin)).body).toEqual([]) };
    },

    'POST /users': async () => {
      const username = unique('user');
      return {
        method: 'POST', path: '/users', options: { ...admin, body: { username } },
        answers: { 201: 1, 422: AT_ONCE - 1 }, refusal: 'processing-failure/model-save-error', recorded: { user_create: 1 },
        after: async () => expect((await t.api.get('/users?per_page=1000', admin)).body.filter((u: { username: string }) => u.username === username)).toHaveLength(1),
      };
    },
    'PUT /users/{id}': async () => userRenamed('PUT'),
    'PATCH /users/{id}': async () => userRenamed('PATCH'),
    'DELETE /users/{id}': async () => deleted(`/users/${(await createUser(db())).id}`, 'not-found/user-not-found', 'user_destroy'),
    'POST /users/{id}/unlock': async () => {
      const user = await createUser(db());
      await db().insertInto('login_lockouts').values({ username_key: user.username.toLowerCase(), locked_until: t.clock.now() + 3_600_000 }).execute();
      return {
        method: 'POST', path: `/users/${user.id}/unlock`, options: { ...admin, body: {} },
        // Every request ends the lockout; the first finds one to end, so only it is recorded.
        answers: { 204: AT_ONCE }, recorded: { user_update: 1 },
        after: async () => expect((await t.api.get(`/users/${user.id}`, admin)).body.lockout_expires).toBeNull(),
      };
    },
    'POST /users/{id}/resend_welcome_email': async () => ({
      method: 'POST', path: `/users/${(await createUser(db())).id}/resend_welcome_email`, options: { ...admin, body: {} },
      answers: { 422: AT_ONCE }, refusal: 'processing-failure/mail-server-not-configured', recorded: {},
    }),

    'POST /groups': async () => {
      const name = unique('group');
      return {
        method: 'POST', path: '/groups', options: { ...admin, body: { name } },
        answers: { 201: 1, 422: AT_ONCE - 1 }, refusal: 'processing-failure/model-save-error', recorded: { group_create: 1 },
        after: async () => expect((await t.api.get(`/groups?per_page=1000`, admin)).body.filter((g: { name: string }) => g.name === name)).toHaveLength(1),
      };
    },
    'PUT /groups/{id}': async () => groupChanged('PUT'),
    'PATCH /groups/{id}': async () => groupChanged('PATCH'),
    'DELETE /groups/{id}': async () => deleted(`/groups/${(await newGroup()).id}`, 'not-found/group-not-found', 'group_destroy'),

    'POST /partners': async () => {
      const name = unique('partner');
      return {
        method: 'POST', path: '/partners', options: { ...admin, body: { name, root_folder: unique('partner-root') } },
        // One Partner, and its root folder made once.
        answers: { 201: 1, 422: AT_ONCE - 1 }, refusal: 'processing-failure/model-save-error', recorded: { partner_create: 1, create: 1 },
        after: async () => expect((await t.api.get('/partners?per_page=1000', admin)).body.filter((p: { name: string }) => p.name === name)).toHaveLength(1),
      };
    },
    'PUT /partners/{id}': async () => partnerRenamed('PUT'),
    'PATCH /partners/{id}': async () => partnerRenamed('PATCH'),
    'DELETE /partners/{id}': async () => deleted(`/partners/${(await newPartner()).id}`, 'not-found', 'partner_destroy'),

    // Automations have no unique field: each creation makes one, and each manual run queues one run and its job.
    'POST /automations': async () => {
      const name = unique('automation');
      return {
        method: 'POST', path: '/automations', options: { ...admin, body: { automation: 'copy_file', name } }, answers: { 201: AT_ONCE }, recorded: { automation_create: AT_ONCE },
        after: async () => expect((await t.api.get('/automations?per_page=1000', admin)).body.filter((a: { name: string }) => a.name === name)).toHaveLength(AT_ONCE),
      };
    },
    'PUT /automations/{id}': async () => automationRenamed('PUT'),
    'PATCH /automations/{id}': async () => automationRenamed('PATCH'),
    'DELETE /automations/{id}': async () => deleted(`/automations/${(await newAutomation()).id}`, 'not-found', 'automation_destroy'),
    // A share link's chosen code is taken once; a random one is each link's own.
    'POST /bundles': async () => {
      const { id } = await newBundle();
      const { paths, user_id: userId } = (await t.api.get(`/bundles/${id}`, admin)).body;
      await t.api.patch('/site', { allow_bundle_names: true }, admin);
      const code = unique('code').replace(/[^A-Za-z0-9_-]/g, '');
      return {
        method: 'POST', path: '/bundles', options: { ...admin, body: { paths, user_id: userId, code } }, answers: { 201: 1, 422: AT_ONCE - 1 },
        refusal: 'processing-failure/model-save-error', recorded: { bundle_create: 1 },
        after: async () => {
          expect((await t.api.get(`/bundles?filter[code]=${code}`, admin)).body).toHaveLength(1);
          await t.api.patch('/site', { allow_bundle_names: false }, admin);
        },
      };
    },
    'PUT /bundles/{id}': async () => bundleChanged('PUT'),
    'PATCH /bundles/{id}': async () => bundleChanged('PATCH'),
    'DELETE /bundles/{id}': async () => deleted(`/bundles/${(await newBundle()).id}`, 'not-found', 'bundle_destroy'),
    'POST /bundles/{id}/share': async () => {
      const bundle = await newBundle();
      return {
        method: 'POST', path: `/bundles/${bundle.id}/share`, options: { ...admin, body: { to: ['once@example.com'] } }, answers: { 204: AT_ONCE }, recorded: { bundle_share: 1 },
        after: async () => expect((await t.api.get(`/bundle_recipients?bundle_id=${bundle.id}`, admin)).body).toHaveLength(1),
      };
    },
    'POST /bundle_recipients': async () => {
      const bundle = await newBundle();
      return {
        method: 'POST', path: '/bundle_recipients', options: { ...admin, body: { bundle_id: bundle.id, recipient: 'once@example.com' } },
        answers: { 201: 1, 422: AT_ONCE - 1 }, refusal: 'processing-failure/recipient-already-shared', recorded: { bundle_share: 1 },
        after: async () => expect((await t.api.get(`/bundle_recipients?bundle_id=${bundle.id}`, admin)).body).toHaveLength(1),
      };
    },
    // A share link's visitors (docs/sharing.md#visiting-a-link), each request without a cookie a visitor of its own.
    'POST /api/public/bundles/{code}/visits': async () => {
      // A link used once: one visit of twenty at once gets in, the others find it used up.
      const link = await newBundle({ max_uses: 1 });
      return {
        method: 'POST', path: `/api/public/bundles/${link.code}/visits`, options: { body: {} }, answers: { 201: 1, 404: AT_ONCE - 1 },
        refusal: 'not-found/bundle-not-found', recorded: {},
        after: async () => expect(await db().selectFrom('bundle_visits').select('id').where('bundle_id', '=', link.id).execute()).toHaveLength(1),
      };
    },
    'PUT /api/public/bundles/{code}/files/{path}': async () => {
      // On a full link an upload replaces: the first creates the file, each later one replaces it.
      const link = await newBundle({ permissions: 'full', dont_separate_submissions_by_folder: true });
      return {
        method: 'PUT', path: `/api/public/bundles/${link.code}/files/${link.folder}/same.txt`, options: { rawBody: 'same bytes', headers: { 'content-type': 'application/octet-stream' } },
        answers: { 201: AT_ONCE }, recorded: { create: 1, update: AT_ONCE - 1 },
        after: async () => expect((await t.api.get(`/files/${link.folder}/same.txt?action=stream`, admin)).text).toBe('same bytes'),
      };
    },
    'POST /file_actions/zip': async () => {
      // A read: every request gets the archive, and each records its file's download once.
      const path = `${unique('zipped')}.txt`;
      await upload(path, 'zipped bytes');
      return { method: 'POST', path: '/file_actions/zip', options: { ...admin, body: { paths: [path] } }, answers: { 200: AT_ONCE }, recorded: { read: AT_ONCE } };
    },
    'POST /trash/{id}/restore': async () => {
      // A deletion comes back once; the others find it gone from the trash.
      const { path, id } = await trashed('restored');
      return {
        method: 'POST', path: `/trash/${id}/restore`, options: { ...admin, body: {} },
        answers: { 200: 1, 404: AT_ONCE - 1 }, refusal: 'not-found/trashed-entry-not-found', recorded: { create: 1 },
        after: async () => expect((await t.api.get(`/files/${path}?action=stream`, admin)).text).toBe('trashed bytes'),
      };
    },
    'DELETE /trash/{id}': async () => deleted(`/trash/${(await trashed('purged')).id}`, 'not-found/trashed-entry-not-found', 'destroy'),
    'POST /file_versions/{id}/restore': async () => {
      // A version is taken once: the first restore makes it the content again, the others find it gone.
      const path = `${unique('versioned')}.txt`;
      await upload(path, 'first');
      await upload(path, 'second');
      const [version] = (await t.api.get(`/file_versions?path=${encodeURIComponent(path)}`, admin)).body as { id: number }[];
      return {
        method: 'POST', path: `/file_versions/${version!.id}/restore`, options: { ...admin, body: {} },
        answers: { 200: 1, 404: AT_ONCE - 1 }, refusal: 'not-found/file-version-not-found', recorded: { update: 1 },
        after: async () => expect((await t.api.get(`/files/${path}?action=stream`, admin)).text).toBe('first'),
      };
    },
    'PUT /user_preferences': async () => preferenceSet('PUT'),
    'PATCH /user_preferences': async () => preferenceSet('PATCH'),
    'DELETE /api/public/bundles/{code}/files/{path}': async () => {
      const link = await newBundle({ permissions: 'full' });
      await upload(`${link.folder}/gone.txt`, 'contents');
      return {
        ...deleted(`/api/public/bundles/${link.code}/files/${link.folder}/gone.txt`, 'not-found/file-not-found', 'destroy', {}),
        after: async () => expect(await statusOf(`/files/${link.folder}/gone.txt`)).toBe(404),
      };
    },
    'POST /automations/webhook/{webhookId}/{secret}': async () => {
      // Each call of a webhook is a request to run: twenty calls queue twenty runs, none lost.
      const made = await post('/automations', { automation: 'copy_file', trigger: 'webhook', name: unique('webhook') }) as { id: number; webhook_url: string };
      const path = new URL(made.webhook_url).pathname.slice(API.length);
      return {
        method: 'POST', path, options: { body: { file: 'a.txt' } }, answers: { 200: AT_ONCE }, recorded: {},
        after: async (answers) => {
          const runs = (await t.api.get(`/automation_runs?automation_id=${made.id}&per_page=1000`, admin)).body as { id: number }[];
          expect(runs).toHaveLength(AT_ONCE);
          expect(new Set(answers.map((answer) => answer.body.automation_run_id))).toEqual(new Set(runs.map((run) => run.id)));
        },
      };
    },
    'POST /automations/{id}/manual_run': async () => {
      const automation = await newAutomation();
      return {
        method: 'POST', path: `/automations/${automation.id}/manual_run`, options: { ...admin, body: {} }, answers: { 204: AT_ONCE }, recorded: {},
        after: async () => {
          expect((await t.api.get(`/automation_runs?automation_id=${automation.id}&per_page=1000`, admin)).body).toHaveLength(AT_ONCE);
        },
      };
    },

    // Sign-in providers: an issuer is configured once; links, one per account and user.
    'POST /sso_providers': async () => {
      const issuer = `https://${unique('idp')}.example`;
      return {
        method: 'POST', path: '/sso_providers', options: { ...admin, body: { label: 'IdP', issuer_url: issuer, client_id: 'atrium' } },
        answers: { 201: 1, 422: AT_ONCE - 1 }, refusal: 'processing-failure/model-save-error', recorded: { sso_provider_create: 1 },
        after: async () => expect((await t.api.get('/sso_providers', admin)).body.filter((p: { issuer_url: string }) => p.issuer_url === issuer)).toHaveLength(1),
      };
    },
    'PUT /sso_providers/{id}': async () => providerRenamed('PUT'),
    'PATCH /sso_providers/{id}': async () => providerRenamed('PATCH'),
    'DELETE /sso_providers/{id}': async () => deleted(`/sso_providers/${(await newProvider()).id}`, 'not-found', 'sso_provider_destroy'),
    'POST /sso_providers/{id}/links': async () => {
      const provider = await newProvider();
      const user = await createUser(db());
      return {
        method: 'POST', path: `/sso_providers/${provider.id}/links`, options: { ...admin, body: { user_id: user.id, subject: unique('sub') } },
        answers: { 201: 1, 422: AT_ONCE - 1 }, refusal: 'processing-failure/model-save-error', recorded: { sso_link_create: 1 },
        after: async () => expect((await t.api.get(`/sso_providers/${provider.id}/links`, admin)).body).toHaveLength(1),
      };
    },
    'DELETE /sso_providers/{id}/links/{link_id}': async () => {
      const provider = await newProvider();
      const link = await post(`/sso_providers/${provider.id}/links`, { user_id: (await createUser(db())).id, subject: unique('sub') }) as { id: number };
      return {
        ...deleted(`/sso_providers/${provider.id}/links/${link.id}`, 'not-found', 'sso_link_destroy'),
        after: async () => expect((await t.api.get(`/sso_providers/${provider.id}/links`, admin)).body).toEqual([]),
      };
    },
    // OpenID Connect has nothing to synchronise: every request is answered the same, nothing changes.
    'POST /sso_strategies/{id}/sync': async () => ({
      method: 'POST', path: `/sso_strategies/${(await newProvider()).id}/sync`, options: { ...admin, body: {} }, answers: { 204: AT_ONCE }, recorded: {},
    }),
    // Only a console session is confirmed at a provider: a key is refused, every time, and nothing is kept.
    'POST /sso_reauthentications': async () => ({
      method: 'POST', path: '/sso_reauthentications', options: { ...admin, body: { sso_provider_id: (await newProvider()).id } },
      answers: { 422: AT_ONCE }, refusal: 'processing-failure/model-save-error', recorded: {},
    }),

    'POST /group_users': async () => {
      const group = await newGroup();
      const user = await createUser(db());
      return {
        method: 'POST', path: '/group_users', options: { ...admin, body: { group_id: group.id, user_id: user.id } },
        answers: { 201: 1, 422: AT_ONCE - 1 }, refusal: 'processing-failure/model-save-error', recorded: { group_update: 1 },
        after: async () => expect((await t.api.get(`/group_users?group_id=${group.id}`, admin)).body).toHaveLength(1),
      };
    },
    'PUT /group_users/{id}': async () => membershipChanged('PUT'),
    'PATCH /group_users/{id}': async () => membershipChanged('PATCH'),
    'DELETE /group_users/{id}': async () => {
      const group = await newGroup();
      const membership = await membershipOf(group.id, (await createUser(db())).id);
      return { ...deleted(`/group_users/${membership}`, 'not-found/group-user-not-found', 'group_update'), after: async () => expect((await t.api.get(`/group_users?group_id=${group.id}`, admin)).body).toEqual([]) };
    },

    // The routes without a path act on the root, which cannot be made, replaced or deleted:
    // every request is refused alike and nothing changes.
    'POST /folders': async () => ({ method: 'POST', path: '/folders', options: { ...admin, body: {} }, answers: { 400: AT_ONCE }, refusal: 'bad-request/invalid-path', recorded: {} }),
    'POST /folders/{path}': async () => {
      const path = unique('folder');
      return {
        method: 'POST', path: `/folders/${path}`, options: { ...admin, body: {} },
        answers: { 201: 1, 422: AT_ONCE - 1 }, refusal: 'processing-failure/destination-exists', recorded: { create: 1 },
        after: async () => expect(await statusOf(`/folders/${path}`)).toBe(200),
      };
    },
    'DELETE /files': async () => ({ method: 'DELETE', path: '/files', options: admin, answers: { 400: AT_ONCE }, refusal: 'bad-request/invalid-path', recorded: {} }),
    'DELETE /files/{path}': async () => {
      const path = `${unique('file')}.txt`;
      await upload(path, 'contents');
      return deleted(`/files/${path}`, 'not-found/file-not-found', 'destroy');
    },
    'PATCH /files': async () => ({
      method: 'PATCH', path: '/files', options: { ...admin, body: { provided_mtime: '2020-01-01T00:00:00Z' } }, answers: { 400: AT_ONCE }, refusal: 'bad-request/invalid-path', recorded: {},
    }),
    'PATCH /files/{path}': async () => {
      // A client's time is set once and is the same for every answer; a time is not recorded in History.
      const path = `${unique('patched')}.txt`;
      await upload(path, 'contents');
      return {
        method: 'PATCH', path: `/files/${path}`, options: { ...admin, body: { provided_mtime: '2020-01-02T03:04:05Z' } }, answers: { 200: AT_ONCE }, recorded: {},
        after: async (answers) => {
          expect(new Set(answers.map((a) => a.body.provided_mtime))).toEqual(new Set(['2020-01-02T03:04:05Z']));
          expect((await t.api.get(`/file_actions/metadata/${path}`, admin)).body.provided_mtime).toBe('2020-01-02T03:04:05Z');
        },
      };
    },
    'POST /files': async () => ({ method: 'POST', path: '/files', options: { ...admin, body: { action: 'put' } }, answers: { 400: AT_ONCE }, refusal: 'bad-request/invalid-path', recorded: {} }),
    'POST /files/{path}': async () => {
      // Ending one upload: it becomes the file once; the upload is gone for the others.
      const path = `${unique('ended')}.txt`;
      const begun = await beganUpload(path);
      expect((await fetch(begun.upload_uri, { method: 'PUT', body: 'the parts' })).status).toBe(200);
      return {
        method: 'POST', path: `/files/${path}`, options: { ...admin, body: { action: 'end', ref: begun.ref } },
        answers: { 201: 1, 404: AT_ONCE - 1 }, refusal: 'not-found/file-upload-not-found', recorded: { create: 1 },
        after: async () => expect((await t.api.get(`/files/${path}?action=stream`, admin)).text).toBe('the parts'),
      };
    },
    'PUT /files': async () => ({
      method: 'PUT', path: '/files', options: { ...admin, rawBody: 'x', headers: { 'content-type': 'application/octet-stream' } },
      answers: { 400: AT_ONCE }, refusal: 'bad-request/invalid-path', recorded: {},
    }),
    'PUT /files/{path}': async () => {
      // Uploads replace the file (contract 6): the first creates it, each later one replaces it.
      const path = `${unique('put')}.txt`;
      return {
        method: 'PUT', path: `/files/${path}`, options: { ...admin, rawBody: 'same bytes', headers: { 'content-type': 'application/octet-stream' } },
        answers: { 201: AT_ONCE }, recorded: { create: 1, update: AT_ONCE - 1 },
        after: async () => expect((await t.api.get(`/files/${path}?action=stream`, admin)).text).toBe('same bytes'),
      };
    },
    // A move is made once, and the source is gone for the others; a copy once, and the
    // destination is taken for the others.
    'POST /locks': async () => ({ method: 'POST', path: '/locks', options: { ...admin, body: {} }, answers: { 400: AT_ONCE }, refusal: 'bad-request/request-params-required', recorded: {} }),
    'POST /locks/{path}': async () => {
      // One exclusive lock is taken; every other conflicts with it. Locks are not History.
      const path = `${unique('locked')}.txt`;
      await upload(path, 'contents');
      return {
        method: 'POST', path: `/locks/${path}`, options: { ...admin, body: { exclusive: true } },
        answers: { 201: 1, 422: AT_ONCE - 1 }, refusal: 'processing-failure/resource-locked', recorded: {},
        after: async () => expect((await t.api.get(`/locks/${path}`, admin)).body).toHaveLength(1),
      };
    },
    'DELETE /locks': async () => ({ method: 'DELETE', path: '/locks?token=x', options: admin, answers: { 400: AT_ONCE }, refusal: 'bad-request/request-params-required', recorded: {} }),
    'DELETE /locks/{path}': async () => {
      const path = `${unique('unlocked')}.txt`;
      await upload(path, 'contents');
      const { token } = (await post(`/locks/${path}`, {})) as { token: string };
      return {
        method: 'DELETE', path: `/locks/${path}?token=${encodeURIComponent(token)}`, options: admin,
        answers: { 204: 1, 404: AT_ONCE - 1 }, refusal: 'not-found', recorded: {},
        after: async () => expect((await t.api.get(`/locks/${path}`, admin)).body).toEqual([]),
      };
    },
    'POST /file_actions/move/{path}': async () => transferred('move', { 404: AT_ONCE - 1 }, 'not-found/file-not-found', 404),
    'POST /file_actions/copy/{path}': async () => transferred('copy', { 422: AT_ONCE - 1 }, 'processing-failure/destination-exists', 200),
    'POST /file_actions/begin_upload/{path}': async () => {
      const path = `${unique('begun')}.txt`;
      return {
        // Each request begins an upload of its own; nothing is visible until one ends.
        method: 'POST', path: `/file_actions/begin_upload/${path}`, options: { ...admin, body: {} }, answers: { 200: AT_ONCE }, recorded: {},
        after: async (answers) => {
          expect(new Set(answers.map((a) => a.body[0].ref)).size).toBe(AT_ONCE);
          expect(await statusOf(`/files/${path}`)).toBe(404);
        },
      };
    },
    'PUT /uploads/{token}': async () => {
      // The same part sent again replaces it: one part, and the file is its bytes once.
      const path = `${unique('part')}.txt`;
      const begun = await beganUpload(path);
      return {
        method: 'PUT', path: new URL(begun.upload_uri).pathname, options: { rawBody: 'one part', headers: { 'content-type': 'application/octet-stream' } },
        answers: { 200: AT_ONCE }, recorded: {},
        after: async () => {
          expect((await t.api.post(`/files/${path}`, { action: 'end', ref: begun.ref }, admin)).status).toBe(201);
          expect((await t.api.get(`/files/${path}?action=stream`, admin)).text).toBe('one part');
        },
      };
    },

    'POST /history_exports': async () => ({
      method: 'POST', path: '/history_exports', options: { ...admin, body: { query_action: 'login' } }, answers: { 201: AT_ONCE }, recorded: {},
      after: async (answers) => expect(new Set(answers.map((a) => a.body.id)).size).toBe(AT_ONCE),
    }),
  };

  async function transferred(action: 'move' | 'copy', losers: Record<number, number>, refusal: string, sourceAfter: number): Promise<Burst> {
    const path = `${unique(action)}.txt`;
    const destination = `${unique('destination')}.txt`;
    await upload(path, 'transferred');
    return {
      method: 'POST', path: `/file_actions/${action}/${path}`, options: { ...admin, body: { destination } },
      answers: { 201: 1, ...losers }, refusal, recorded: { [action]: 1 },
      after: async () => {
        expect(await statusOf(`/files/${path}`)).toBe(sourceAfter);
        expect((await t.api.get(`/files/${destination}?action=stream`, admin)).text).toBe('transferred');
      },
    };
  }

  async function keyRenamed(method: string): Promise<Burst> {
    const user = await createUser(db());
    await createApiKey(db(), { userId: user.id });
    const id = await keyIdOf(user.id);
    const name = unique('renamed');
    return renamed(method, `/api_keys/${id}`, { name }, 'api_key_update', async () => expect((await t.api.get(`/api_keys/${id}`, admin)).body.name).toBe(name));
  }

  async function callingKeyRenamed(method: string): Promise<Burst> {
    const user = await createUser(db());
    const key = await createApiKey(db(), { userId: user.id });
    const name = unique('renamed');
    return renamed(method, '/api_key', { name }, 'api_key_update', async () => expect((await t.api.get('/api_key', { key })).body.name).toBe(name), { key });
  }

  async function publicKeyRenamed(method: string): Promise<Burst> {
    const user = await createUser(db());
    const key = (await post('/public_keys', { title: 'laptop', public_key: sshKey(), user_id: user.id })) as { id: number };
    const title = unique('desktop');
    return renamed(method, `/public_keys/${key.id}`, { title }, 'public_key_update', async () => expect((await t.api.get(`/public_keys/${key.id}`, admin)).body.title).toBe(title));
  }

  async function siteChanged(method: string, minutes: number): Promise<Burst> {
    return renamed(method, '/site', { session_expiry_minutes: minutes }, 'site_update', async () => expect((await t.api.get('/site', admin)).body.session_expiry_minutes).toBe(minutes));
  }

  async function workspaceRenamed(method: string): Promise<Burst> {
    const ws = (await post('/workspaces', { name: unique('ws') })) as { id: number };
    const name = unique('renamed');
    return renamed(method, `/workspaces/${ws.id}`, { name }, 'workspace_update', async () => expect((await t.api.get(`/workspaces/${ws.id}`, admin)).body.name).toBe(name));
  }

  async function userRenamed(method: string): Promise<Burst> {
    const user = await createUser(db());
    const username = unique('renamed');
    return renamed(method, `/users/${user.id}`, { username }, 'user_update', async () => expect((await t.api.get(`/users/${user.id}`, admin)).body.username).toBe(username));
  }

  async function groupChanged(method: string): Promise<Burst> {
    const group = await newGroup();
    const member = await createUser(db());
    const name = unique('renamed');
    return renamed(method, `/groups/${group.id}`, { name, user_ids: [member.id] }, 'group_update', async () => {
      expect((await t.api.get(`/groups/${group.id}`, admin)).body).toMatchObject({ name, user_ids: String(member.id) });
      expect((await t.api.get(`/group_users?group_id=${group.id}`, admin)).body).toHaveLength(1);
    });
  }

  async function partnerRenamed(method: string): Promise<Burst> {
    const partner = await newPartner();
    const name = unique('renamed');
    return renamed(method, `/partners/${partner.id}`, { name }, 'partner_update', async () => expect((await t.api.get(`/partners/${partner.id}`, admin)).body.name).toBe(name));
  }

  async function automationRenamed(method: string): Promise<Burst> {
    const automation = await newAutomation();
    const name = unique('renamed');
    return renamed(method, `/automations/${automation.id}`, { name }, 'automation_update', async () => expect((await t.api.get(`/automations/${automation.id}`, admin)).body.name).toBe(name));
  }

  async function bundleChanged(method: string): Promise<Burst> {
    const bundle = await newBundle();
    const note = unique('note');
    return renamed(method, `/bundles/${bundle.id}`, { note }, 'bundle_update', async () => expect((await t.api.get(`/bundles/${bundle.id}`, admin)).body.note).toBe(note));
  }

  async function providerRenamed(method: string): Promise<Burst> {
    const provider = await newProvider();
    const label = unique('label');
    return renamed(method, `/sso_providers/${provider.id}`, { label }, 'sso_provider_update', async () => expect((await t.api.get(`/sso_providers/${provider.id}`, admin)).body.label).toBe(label));
  }

  async function membershipChanged(method: string): Promise<Burst> {
    const group = await newGroup();
    const membership = await membershipOf(group.id, (await createUser(db())).id);
    return renamed(method, `/group_users/${membership}`, { admin: true }, 'group_update', async () => expect((await t.api.get(`/group_users?group_id=${group.id}`, admin)).body[0].admin).toBe(true));
  }

  /** The newest History record's id: records after it are the burst's. */
  async function lastRecordId(): Promise<number> {
    return ((await t.api.get('/history?per_page=1', admin)).body as Recorded[])[0]?.id ?? 0;
  }

  async function recordsAfter(id: number): Promise<Recorded[]> {
    return ((await t.api.get('/history?per_page=1000', admin)).body as Recorded[]).filter((record) => record.id > id);
  }

  it('has a case for every write operation of the OpenAPI document', async () => {
    const document = (await t.api.get(`${API}/openapi.json`)).body as { paths: Record<string, Record<string, unknown>> };
    const writes = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).filter((method) => method !== 'get').map((method) => `${method.toUpperCase()} ${path.startsWith(API) ? path.slice(API.length) : path}`));
    expect(Object.keys(SCENARIOS).sort()).toEqual(writes.sort());
  });

  it.each(Object.keys(SCENARIOS))('%s', async (operation) => {
    const burst = await SCENARIOS[operation]!();
    const before = await lastRecordId();
    const answers = await atOnce(AT_ONCE, () => t.api.call(burst.method, burst.path, burst.options));
    expect(countBy(answers, (a) => a.status), answers.map((a) => `${a.status} ${a.text.slice(0, 200)}`).join('\n')).toEqual(burst.answers);
    for (const refused of answers.filter((a) => a.status >= 400)) expect(refused.body?.type).toBe(burst.refusal);
    // The records first, before the checks of the data make any; the data is checked first.
    const records = await recordsAfter(before);
    await burst.after?.(answers, records);
    expect(countBy(records, (r) => r.action)).toEqual(burst.recorded);
  });
});
