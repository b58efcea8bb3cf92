import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATRIUM_USER, expectScimError, PATCH_OP, ScimClient, USER_SCHEMA } from '../scim/scim-client.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createGroup, createUser } from '../support/factories.js';
import type { ApiResponse } from '../support/http-client.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Every id a request can carry is read by one rule (src/lib/record-id.ts): a whole number from 0 to
 * 2147483647, the bound of the database's id columns. Beyond it, or not a whole number at all, the
 * REST API answers `bad-request/request-params-invalid` (the Workspace header its own
 * `invalid-workspace-id-header`) and SCIM `404` for a resource id in a path (it names nothing, as an
 * unknown id) or `400 invalidValue` for an id in a body; never 500, on either database. The REST
 * table is checked against the OpenAPI document, so an id parameter added later without a row here
 * fails this file.
 */
const API = '/api/rest/v1';
const MAX_ID = 2_147_483_647;
const NOT_IDS = [2_147_483_648, 9_007_199_254_740_991, -1, 1.5, 'abc'] as const;
type Sent = (typeof NOT_IDS)[number] | typeof MAX_ID;

/** How a REST row is sent: where the id goes, and what else the request needs to be otherwise valid. */
interface RestRow {
  /** `METHOD /path <in> <name>` as the OpenAPI document lists the parameter (nested query names with a dot). */
  parameter: string;
  /** A list field (`group_ids`, ...): each value is sent as a one-element array and as a string. */
  list?: true;
  /** A field the SDK types as a string: each value is sent as text. */
  text?: true;
  /** The rest of a valid body or query. */
  base?: Record<string, unknown>;
  /** When 2147483647 (an id no record has yet) is refused for another reason than its form: that error type. */
  maxRefusedAs?: string;
}

function restRows(ids: { user: number; group: number }): RestRow[] {
  const grant = { path: 'id-probe', permission: 'full' };
  return [
    ...['GET', 'PUT', 'PATCH', 'DELETE'].flatMap((method) => ['api_keys', 'public_keys', 'workspaces', 'users', 'groups', 'partners'].map((resource) => ({ parameter: `${method} /${resource}/{id} path id` }))),
    ...['PUT', 'PATCH', 'DELETE'].map((method) => ({ parameter: `${method} /group_users/{id} path id` })),
    ...['PUT', 'PATCH'].flatMap((method) => ['group_id', 'user_id'].map((name) => ({ parameter: `${method} /group_users/{id} body ${name}` }))),
    { parameter: 'DELETE /permissions/{id} path id' },
    ...['PATCH', 'DELETE'].map((method) => ({ parameter: `${method} /2fa/passkeys/{id} path id` })),
    { parameter: 'POST /users/{id}/unlock path id' },
    { parameter: 'POST /users/{id}/2fa/reset path id' },
    { parameter: 'POST /users/{id}/resend_welcome_email path id' },
    { parameter: 'GET /history_exports/{id} path id' },
    { parameter: 'GET /history_exports/{id}/results.csv path id' },
    { parameter: 'GET /history_exports/{id}/results.jsonl path id' },
    { parameter: 'GET /history/users/{user_id} path user_id' },
    { parameter: 'GET /api_keys query user_id' },
    ...['PUT', 'PATCH'].map((method) => ({ parameter: `${method} /user_preferences body last_workspace_id` })),
    { parameter: 'POST /api_keys body user_id', base: { name: 'probe' } },
    { parameter: 'POST /api_keys body workspace_id', base: { name: 'probe' } },
    { parameter: 'GET /public_keys query user_id' },
    { parameter: 'POST /public_keys body user_id', base: { title: 'probe', generate_keypair: true, generate_algorithm: 'ed25519' } },
    { parameter: 'GET /permissions query user_id' },
    { parameter: 'GET /permissions query group_id' },
    { parameter: 'GET /permissions query filter.user_id' },
    { parameter: 'GET /permissions query filter.group_id' },
    { parameter: 'GET /permissions query partner_id' },
    { parameter: 'GET /permissions query filter.partner_id' },
    { parameter: 'GET /permissions/explain query user_id', base: { path: 'id-probe' } },
    { parameter: 'POST /permissions body user_id', base: grant },
    { parameter: 'POST /permissions body group_id', base: grant },
    { parameter: 'POST /permissions body partner_id', base: grant },
    // Only the one site's id (1) names anything: any other is refused before the database.
    { parameter: 'POST /permissions body site_id', base: grant, maxRefusedAs: 'bad-request/request-params-invalid' },
    { parameter: 'POST /permissions body group_ids', list: true, base: grant, maxRefusedAs: 'bad-request/request-params-invalid' },
    { parameter: 'POST /permissions body workspace_id', base: { ...grant, user_id: ids.user } },
    { parameter: 'GET /users query ids', list: true },
    { parameter: 'GET /users query filter.workspace_id' },
    { parameter: 'POST /users body workspace_id', base: { username: 'id-probe' } },
    { parameter: 'POST /users body group_ids', list: true, base: { username: 'id-probe' } },
    ...['PUT', 'PATCH'].map((method) => ({ parameter: `${method} /users/{id} body group_ids`, list: true as const })),
    { parameter: 'GET /users query filter.partner_id' },
    { parameter: 'POST /users body partner_id', base: { username: 'id-probe' } },
    ...['PUT', 'PATCH'].map((method) => ({ parameter: `${method} /users/{id} body partner_id` })),
    { parameter: 'GET /partners query filter.workspace_id' },
    ...['workspace_id', 'responsible_user_id', 'responsible_group_id'].flatMap((name) => [
      { parameter: `POST /partners body ${name}`, base: { name: 'id-probe', root_folder: 'id-probe' } },
      ...['PUT', 'PATCH'].map((method) => ({ parameter: `${method} /partners/{id} body ${name}` })),
    ]),
    ...['GET', 'PUT', 'PATCH', 'DELETE'].map((method) => ({ parameter: `${method} /automations/{id} path id` })),
    { parameter: 'POST /automations/{id}/manual_run path id' },
    { parameter: 'GET /automations query filter.workspace_id' },
    { parameter: 'POST /automations body workspace_id', base: { automation: 'copy_file' } },
    ...['user_ids', 'group_ids'].map((name) => ({ parameter: `POST /automations body ${name}`, list: true as const, base: { automation: 'copy_file' } })),
    ...['PUT', 'PATCH'].flatMap((method) => [
      { parameter: `${method} /automations/{id} body workspace_id` },
      ...['user_ids', 'group_ids'].map((name) => ({ parameter: `${method} /automations/{id} body ${name}`, list: true as const })),
    ]),
    { parameter: 'GET /automation_runs query automation_id' },
    ...['workspace_id', 'automation_id'].map((name) => ({ parameter: `GET /automation_runs query filter.${name}`, base: { automation_id: MAX_ID } })),
    { parameter: 'GET /automation_runs/{id} path id' },
    { parameter: 'GET /automation_runs/{id}/status_messages path id' },
    ...['GET', 'PUT', 'PATCH', 'DELETE'].map((method) => ({ parameter: `${method} /bundles/{id} path id` })),
    { parameter: 'POST /bundles/{id}/share path id' },
    ...['GET', 'DELETE'].map((method) => ({ parameter: `${method} /trash/{id} path id` })),
    { parameter: 'POST /trash/{id}/restore path id' },
    { parameter: 'POST /file_versions/{id}/restore path id' },
    { parameter: 'GET /bundles query user_id' },
    { parameter: 'GET /bundles query filter.user_id' },
    { parameter: 'POST /bundles body user_id', base: { paths: ['id-probe'] } },
    ...['PUT', 'PATCH'].map((method) => ({ parameter: `${method} /bundles/{id} body user_id` })),
    { parameter: 'GET /bundle_recipients query bundle_id' },
    { parameter: 'GET /bundle_recipients query user_id', base: { bundle_id: MAX_ID } },
    { parameter: 'POST /bundle_recipients body bundle_id', base: { recipient: 'probe@example.com' } },
    { parameter: 'POST /bundle_recipients body user_id', base: { bundle_id: MAX_ID, recipient: 'probe@example.com' } },
    ...['bundle_id', 'user_id'].map((name) => ({ parameter: `GET /bundle_registrations query ${name}` })),
    ...['bundle_id', 'bundle_registration_id'].map((name) => ({ parameter: `GET /bundle_downloads query ${name}` })),
    ...['bundle_id', 'bundle_registration_id', 'user_id', 'filter.bundle_id', 'filter.bundle_registration_id'].map((name) => ({ parameter: `GET /bundle_actions query ${name}` })),
    { parameter: 'GET /groups query ids', list: true },
    { parameter: 'GET /groups query filter.workspace_id' },
    { parameter: 'POST /groups body workspace_id', base: { name: 'id-probe' } },
    { parameter: 'POST /groups body user_ids', list: true, base: { name: 'id-probe' } },
    { parameter: 'POST /groups body admin_ids', list: true, base: { name: 'id-probe' } },
    ...['PUT', 'PATCH'].flatMap((method) => ['user_ids', 'admin_ids'].map((name) => ({ parameter: `${method} /groups/{id} body ${name}`, list: true as const }))),
    { parameter: 'GET /group_users query group_id' },
    { parameter: 'GET /group_users query user_id' },
    { parameter: 'POST /group_users body group_id', base: { user_id: ids.user } },
    { parameter: 'POST /group_users body user_id', base: { group_id: ids.group } },
    ...['/history', '/history/login', '/history/users/{user_id}', '/history/folders', '/history/folders/{path}', '/history/files', '/history/files/{path}']
      .map((path) => ({ parameter: `GET ${path} query filter.user_id` })),
    // An export is made for its caller: any other user id is refused, whatever its form.
    { parameter: 'POST /history_exports body user_id', maxRefusedAs: 'bad-request/request-params-invalid' },
    { parameter: 'POST /history_exports body query_user_id', text: true },
    { parameter: 'GET /history_export_results query history_export_id' },
    { parameter: 'GET /history_export_results query user_id', base: { history_export_id: MAX_ID } },
    ...['GET', 'PUT', 'PATCH', 'DELETE'].map((method) => ({ parameter: `${method} /sso_providers/{id} path id` })),
    { parameter: 'POST /sso_providers body workspace_id', base: { label: 'id-probe', issuer_url: 'https://id-probe.example', client_id: 'x' } },
    ...['PUT', 'PATCH'].map((method) => ({ parameter: `${method} /sso_providers/{id} body workspace_id` })),
    ...['GET', 'POST'].map((method) => ({ parameter: `${method} /sso_providers/{id}/links path id`, ...(method === 'POST' ? { base: { user_id: ids.user, subject: 'id-probe' } } : {}) })),
    { parameter: 'POST /sso_providers/{id}/links body user_id', base: { subject: 'id-probe' } },
    { parameter: 'DELETE /sso_providers/{id}/links/{link_id} path id' },
    { parameter: 'DELETE /sso_providers/{id}/links/{link_id} path link_id' },
    { parameter: 'GET /sso_strategies/{id} path id' },
    { parameter: 'POST /sso_strategies/{id}/sync path id' },
    { parameter: 'POST /sso_reauthentications body sso_provider_id' },
    { parameter: 'POST /users body sso_strategy_id', base: { username: 'id-probe', authentication_method: 'sso' } },
    ...['PUT', 'PATCH'].map((method) => ({ parameter: `${method} /users/{id} body sso_strategy_id`, base: { authentication_method: 'sso' } })),
  ];
}

/** Parameters named like ids that hold no record's id: a WebAuthn credential's id is base64url text. */
const NOT_RECORD_IDS = new Set(['POST /2fa/passkeys body response.id', 'POST /sessions body webauthn.id']);

/** Every parameter of the OpenAPI document that carries an id, by its name. */
function idParameters(document: { paths: Record<string, Record<string, any>>; components: { parameters: Record<string, any>; schemas: Record<string, any> } }): string[] {
  // A partial session's id is a secret token, as a session id is, not a record's number; `client_id`
  // is an OpenID Connect client's identifier at its provider: text, no record of Atrium's.
  const isId = (name: string) => (name === 'id' || name === 'ids' || /_ids?$/.test(name)) && name !== 'partial_session_id' && name !== 'client_id';
  const found: string[] = [];
  const walk = (operation: string, where: string, schema: any, prefix: string) => {
    const resolved = schema?.$ref === undefined ? schema : document.components.schemas[String(schema.$ref).split('/').pop() as string];
    for (const [name, property] of Object.entries<any>(resolved?.properties ?? {})) {
      if (isId(name) && !NOT_RECORD_IDS.has(`${operation} ${where} ${prefix}${name}`)) found.push(`${operation} ${where} ${prefix}${name}`);
      walk(operation, where, property, `${prefix}${name}.`);
    }
  };
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries<any>(operations)) {
      const operation = `${method.toUpperCase()} ${path.slice(API.length)}`;
      for (const reference of op.parameters ?? []) {
        const parameter = reference.$ref === undefined ? reference : document.components.parameters[String(reference.$ref).split('/').pop() as string];
        if (parameter.in === 'header') continue;
        if (isId(parameter.name)) found.push(`${operation} ${parameter.in} ${parameter.name}`);
        walk(operation, parameter.in, parameter.schema, `${parameter.name}.`);
      }
      walk(operation, 'body', op.requestBody?.content?.['application/json']?.schema, '');
    }
  }
  return found;
}

describe.each(testDatabaseTargets())('ids in requests [$name]', (target) => {
  let t: TestApp;
  let scim: ScimClient;
  let ids: { user: number; group: number };
  beforeAll(async () => {
    t = await startTestApp(target);
    scim = new ScimClient(t.baseUrl, BOOTSTRAP_KEY);
    ids = { user: (await createUser(t.database.db)).id, group: await createGroup(t.database.db) };
  });
  afterAll(() => t.close());

  const counts = async () => Promise.all(['users', 'groups', 'group_users', 'api_keys', 'public_keys', 'permissions', 'workspaces', 'history_exports'].map(async (table) => {
    const row = await t.database.db.selectFrom(table as 'users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return `${table}=${Number(row.n)}`;
  }));

  /** The request a row makes with `value` in its place; the path's other parameters are real. */
  function restCall(row: RestRow, value: unknown): Promise<ApiResponse> {
    const [method, path, where, name] = row.parameter.split(' ') as [string, string, string, string];
    const filled = path.replace(/\{(\w+)\}/g, (_, param: string) => (where === 'path' && param === name ? String(value) : param === 'path' ? 'id-probe' : String(param === 'id' && path.startsWith('/groups') ? ids.group : ids.user)));
    if (where === 'query') {
      const query = new URLSearchParams(Object.entries(row.base ?? {}).map(([k, v]): [string, string] => [k, String(v)]));
      query.set(name.replace(/\.(\w+)/g, '[$1]'), String(value));
      return t.api.call(method, `${filled}?${query.toString()}`, { key: BOOTSTRAP_KEY });
    }
    if (where === 'body') return t.api.call(method, filled, { key: BOOTSTRAP_KEY, body: { ...row.base, [name]: value } });
    return t.api.call(method, filled, { key: BOOTSTRAP_KEY, ...(method === 'GET' ? {} : { body: {} }) });
  }

  /** The forms a value is sent in: as itself, and for lists as a one-element array and in the SDK's comma string. */
  const forms = (row: RestRow, value: Sent): unknown[] => {
    const [, , where] = row.parameter.split(' ');
    if (row.list && where === 'body') return [[value], String(value)];
    return [row.text ? String(value) : value];
  };

  it('the table names every id parameter of the OpenAPI document', async () => {
    const document = (await t.api.get(`${API}/openapi.json`)).body;
    const listed = restRows({ user: 1, group: 1 }).map((row) => row.parameter);
    expect([...listed].sort()).toEqual([...new Set(idParameters(document))].sort());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('refuses an id beyond the bound or not a whole number in every REST parameter, changing nothing', async () => {
    const before = await counts();
    const answers: string[] = [];
    for (const row of restRows(ids)) {
      for (const value of NOT_IDS) {
        for (const form of forms(row, value)) {
          const response = await restCall(row, form);
          answers.push(`${row.parameter} = ${JSON.stringify(form)}: ${response.status} ${response.body?.type}`);
        }
      }
    }
    const wrong = answers.filter((answer) => !answer.endsWith(': 400 bad-request/request-params-invalid'));
    expect(wrong).toEqual([]);
    expect(answers.length).toBeGreaterThan(300);
    expect(await counts()).toEqual(before);
  });

  it('takes the largest id there can be to the database, which finds nothing, in every REST parameter', async () => {
    const wrong: string[] = [];
    for (const row of restRows(ids)) {
      for (const form of forms(row, MAX_ID)) {
        const response = await restCall(row, form);
        const refusedForForm = response.status === 400 && response.body?.type === 'bad-request/request-params-invalid' && row.maxRefusedAs === undefined;
        if (response.status >= 500 || refusedForForm) wrong.push(`${row.parameter} = ${JSON.stringify(form)}: ${response.status} ${response.text.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers the Workspace header the same way: its own error type for anything that is not an id', async () => {
    for (const value of [...NOT_IDS, MAX_ID]) {
      const response = await t.api.get('/users', { key: BOOTSTRAP_KEY, workspace: String(value) });
      expect({ value, status: response.status, type: response.body?.type }).toEqual({ value, status: 400, type: 'bad-request/invalid-workspace-id-header' });
    }
  });

  it('refuses a cursor edited to carry an id beyond the bound', async () => {
    for (const listing of ['users', 'groups', 'workspaces', 'api_keys', 'public_keys', 'permissions', 'group_users']) {
      for (const after of [2_147_483_648, 9_007_199_254_740_991]) {
        const cursor = Buffer.from(JSON.stringify([listing, after])).toString('base64url');
        const response = await t.api.get(`/${listing}?cursor=${cursor}`, { key: BOOTSTRAP_KEY });
        expect({ listing, after, status: response.status, type: response.body?.type }).toEqual({ listing, after, status: 400, type: 'bad-request/invalid-cursor' });
      }
    }
  });

  describe('SCIM', () => {
    const resources = ['Users', 'Groups'] as const;
    const bodyOf = (resource: (typeof resources)[number]) => (resource === 'Users' ? { schemas: [USER_SCHEMA], userName: 'id-probe' } : { displayName: 'id-probe' });

    it('answers a resource id that is no id 404, as an unknown id, for every method', async () => {
      for (const resource of resources) {
        for (const value of [...NOT_IDS, MAX_ID]) {
          const path = `/${resource}/${encodeURIComponent(String(value))}`;
          expectScimError(await scim.get(path), 404);
          expectScimError(await scim.put(path, bodyOf(resource)), 404);
          expectScimError(await scim.patch(path, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'externalId', value: 'x' }] }), 404);
          expectScimError(await scim.delete(path), 404);
        }
      }
    });

    it('refuses a member, an admin or a Workspace that is no id with 400 invalidValue, changing nothing', async () => {
      const before = await counts();
      const group = await scim.get(`/Groups/${ids.group}`);
      expect(group.status).toBe(200);
      const extension = 'urn:ietf:params:scim:schemas:extension:atrium:2.0:Group';
      for (const value of NOT_IDS) {
        const member = [{ value: String(value) }];
        const attempts: [string, ApiResponse][] = [
          ['POST /Users workspace_id', await scim.post('/Users', { ...bodyOf('Users'), [ATRIUM_USER]: { workspace_id: value } })],
          ['POST /Groups members', await scim.post('/Groups', { displayName: 'id-probe', members: member })],
          ['POST /Groups admins', await scim.post('/Groups', { displayName: 'id-probe', [extension]: { admins: member } })],
          ['POST /Groups workspace_id', await scim.post('/Groups', { displayName: 'id-probe', [extension]: { workspace_id: value } })],
          ['PUT /Groups members', await scim.put(`/Groups/${ids.group}`, { displayName: group.body.displayName, members: member })],
          ['PATCH /Groups add members', await scim.patch(`/Groups/${ids.group}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: member }] })],
        ];
        for (const [what, response] of attempts) {
          expect({ what, value, status: response.status, scimType: response.body?.scimType }).toEqual({ what, value, status: 400, scimType: 'invalidValue' });
        }
      }
      expect(await counts()).toEqual(before);
    });
  });
});
