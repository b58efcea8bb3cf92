import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createSession, unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import {
  buildSite, home, markerOf, PASSWORD, requestBuilders, type ConfinedCaller, type OperationRequest, type RequestBuilder, type Site,
} from './confined-operation-requests.js';

/**
 * Contract 4.3 as a table over every operation of the OpenAPI document: a confined credential acts
 * only inside its home Workspace, also when the request selects no Workspace (none of these
 * requests does). For each operation one valid request, and for each kind of confined credential
 * what it must answer: site-level actions `site-admin-required` even to a Site Administrator's
 * key, administration `api-key-is-files-only` to a `files_only` key, administration inside the
 * home to its administrators, and what a plain user gets. The table's keys must equal the
 * document's operations, so a new route cannot be left out.
 *
 * Every answer that succeeds is read too: none may name anything of a Workspace the caller does
 * not work in (confined-operation-requests.ts marks each Workspace's things by name).
 */

const KIND_NAMES = ['adminKeyInN', 'siteWideKeyInN', 'filesOnlyKey', 'workspaceAdminKey', 'memberSession'] as const;
type KindName = (typeof KIND_NAMES)[number];

/** Each kind of confined credential, made fresh for every request, so that a request that revokes or ends its own credential disturbs no other. */
const KINDS: Record<KindName, { label: string; make(site: Site): Promise<ConfinedCaller> }> = {
  adminKeyInN: {
    label: 'a Site Administrator\'s full key made in N',
    make: async (site) => ({ as: { key: await createApiKey(db(site), { userId: site.siteAdmin.id, workspaceId: site.n }) }, home: site.n, userId: site.siteAdmin.id }),
  },
  siteWideKeyInN: {
    label: 'a site-wide key made in N',
    make: async (site) => ({ as: { key: await createApiKey(db(site), { userId: null, workspaceId: site.n }) }, home: site.n, userId: null }),
  },
  filesOnlyKey: {
    label: 'a files_only key of a Site Administrator made in Workspace 0',
    make: async (site) => ({
      as: { key: await createApiKey(db(site), { userId: site.siteAdmin.id, workspaceId: 0, permissionSet: 'files_only' }) },
      home: 0,
      userId: site.siteAdmin.id,
    }),
  },
  workspaceAdminKey: {
    label: 'a full key of a Workspace Administrator of N',
    make: async (site) => ({ as: { key: await createApiKey(db(site), { userId: site.workspaceAdmin.id, workspaceId: site.n }) }, home: site.n, userId: site.workspaceAdmin.id }),
  },
  memberSession: {
    label: 'a session of a plain user of N',
    make: async (site) => ({
      // Sessions confirm their password for keys and deletions (contract 3.3); the header is read only where asked for.
      as: { session: await createSession(db(site), site.member.id, site.t.clock.now()), headers: { 'X-Service-Reauthentication': `password:${PASSWORD}` } },
      home: site.n,
      userId: site.member.id,
    }),
  },
};

function db(site: Site) {
  return site.t.database.db;
}

/** What a kind must answer: a status, the error's `type`, and for a success what its body must show. */
interface Answer {
  status: number;
  type?: string;
  check?: (body: any, caller: ConfinedCaller) => void;
}
type Expectations = Record<KindName, Answer>;

const ok = (status: number, check?: Answer['check']): Answer => ({ status, ...(check === undefined ? {} : { check }) });
/** An error answer; its status is its type's family's (contract 1.4). */
function refused(type: string): Answer {
  const family = type.split('/')[0] as string;
  const status = { 'bad-request': 400, 'not-authenticated': 401, 'not-authorized': 403, 'not-found': 404, 'processing-failure': 422 }[family];
  if (status === undefined) throw new Error(`no status for ${type}`);
  return { status, type };
}
const FORBIDDEN = {
  siteAdminRequired: refused('not-authorized/site-admin-required'),
  filesOnly: refused('not-authorized/api-key-is-files-only'),
  administratorRequired: refused('not-authorized/site-admin-or-workspace-admin-permission-required'),
  folderAdminRequired: refused('not-authorized/folder-admin-permission-required'),
  insufficientForParams: refused('not-authorized/insufficient-permission-for-params'),
};
const NOT_FOUND = {
  user: refused('not-found/user-not-found'),
  group: refused('not-found/group-not-found'),
  membership: refused('not-found/group-user-not-found'),
  apiKey: refused('not-found/api-key-not-found'),
  file: refused('not-found/file-not-found'),
  /** The plain type, for what has none of its own (an SSH key, a History export). */
  other: refused('not-found'),
};
/** The root folder, which no file operation creates, deletes or replaces. */
const ROOT_UNCHANGEABLE = refused('bad-request/invalid-path');

/** The same answer for every kind. */
function everyone(answer: Answer): Expectations {
  return { adminKeyInN: answer, siteWideKeyInN: answer, filesOnlyKey: answer, workspaceAdminKey: answer, memberSession: answer };
}

/** Site settings and Workspaces themselves: beyond every confined credential. */
const SITE_LEVEL: Expectations = { ...everyone(FORBIDDEN.siteAdminRequired), filesOnlyKey: FORBIDDEN.filesOnly };

/** Administration inside the home: its administrators may, a `files_only` key never, the plain user as given. */
function administration(success: Answer, member: Answer): Expectations {
  return { adminKeyInN: success, siteWideKeyInN: success, workspaceAdminKey: success, memberSession: member, filesOnlyKey: FORBIDDEN.filesOnly };
}

/** The caller's own second factors: a session's, refused to every key (a `files_only` one by the credential gate first). */
function ownSecondFactors(member: Answer): Expectations {
  const keyRefused = refused('not-authorized/reauthentication-needed-action');
  return { adminKeyInN: keyRefused, siteWideKeyInN: keyRefused, workspaceAdminKey: keyRefused, memberSession: member, filesOnlyKey: FORBIDDEN.filesOnly };
}

/** A list whose every row has `field` equal to what `expected` says for the caller. */
function rowsWith(field: string, expected: (caller: ConfinedCaller) => unknown): Answer['check'] {
  return (body, caller) => {
    expect(Array.isArray(body), JSON.stringify(body)).toBe(true);
    for (const row of body) expect(row[field], JSON.stringify(row)).toBe(expected(caller));
  };
}
/** A preferences answer: no Workspace chosen yet, or the caller's home. */
const ownChoice: Answer['check'] = (body, caller) => expect([null, caller.home]).toContain(body.last_workspace_id);
const homeChosen: Answer['check'] = (body, caller) => expect(body.last_workspace_id).toBe(caller.home);
const inHome = (field: string) => rowsWith(field, (caller) => caller.home);
const ownRows = (field: string) => rowsWith(field, (caller) => caller.userId);

/** A list in the home Workspace: as `inHome`, and the plain user's own rows only. */
function homeList(homeField: string, ownField: string): Expectations {
  return administration(ok(200, inHome(homeField)), ok(200, (body, caller) => {
    inHome(homeField)?.(body, caller);
    ownRows(ownField)?.(body, caller);
  }));
}

/** A session's own second factors: every key refused, a files_only one as for all administration. */
function passkeys(member: Answer): Expectations {
  return { ...everyone(refused('not-authorized/reauthentication-needed-action')), filesOnlyKey: FORBIDDEN.filesOnly, memberSession: member };
}

const FILE_ACTION = (status: number) => everyone(ok(status));

/** Rows of who reaches a path: users of the home, or the caller itself, whatever Workspace its user is of. */
const homeUsersAndSelf: Answer['check'] = (body, caller) => {
  expect(Array.isArray(body), JSON.stringify(body)).toBe(true);
  for (const row of body) if (row.user_id !== caller.userId) expect(row.workspace_id, JSON.stringify(row)).toBe(caller.home);
};

/** The effective-access export: the same rule row by row (user_id and workspace_id are its second and fourth columns; no path here holds a comma). */
const csvRowsInHome: Answer['check'] = (body, caller) => {
  const rows = String(body).trim().split('\r\n').slice(1);
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    const [, userId, , workspaceId] = row.split(',');
    if (userId !== String(caller.userId)) expect(workspaceId, row).toBe(String(caller.home));
  }
};

/** The table: every operation of the OpenAPI document, keyed as `METHOD /path-template` below the API root. */
const TABLE: Record<string, Expectations> = {
  // Public: no credential decides anything.
  'POST /sessions': everyone(ok(201)),
  'DELETE /sessions': everyone(ok(200)),
  // A challenge's partial session, or nothing: no credential is read.
  'POST /sessions/passkey_options': everyone(refused('bad-request/request-params-required')),
  // A user's own second factors: its session only, never a key (access/second-factor-authority.ts).
  'GET /2fa': ownSecondFactors(ok(200)),
  'POST /2fa/totp': ownSecondFactors(ok(201)),
  // The rows before and after work on the member's enrolment begun above: a wrong code, then the enrolment called off.
  'POST /2fa/totp/confirm': ownSecondFactors(refused('not-authenticated/one-time-password-incorrect')),
  'DELETE /2fa/totp': ownSecondFactors(ok(204)),
  'POST /2fa/recovery_codes': ownSecondFactors(refused('processing-failure/model-save-error')),

  // Passkeys: a user's own, managed signed in with a session; no API key manages any (docs/authentication.md#passkeys).
  'POST /2fa/passkeys/options': passkeys(ok(200)),
  'POST /2fa/passkeys': passkeys(ok(201)),
  'GET /2fa/passkeys': passkeys(ok(200)),
  'PATCH /2fa/passkeys/{id}': passkeys(ok(200)),
  'DELETE /2fa/passkeys/{id}': passkeys(ok(204)),

  'GET /api_keys': homeList('workspace_id', 'user_id'),
  'POST /api_keys': administration(ok(201, (body, caller) => expect(body.workspace_id).toBe(caller.home)), NOT_FOUND.user),
  'GET /api_keys/{id}': administration(ok(200), NOT_FOUND.apiKey),
  'PUT /api_keys/{id}': administration(ok(200), NOT_FOUND.apiKey),
  'PATCH /api_keys/{id}': administration(ok(200), NOT_FOUND.apiKey),
  'DELETE /api_keys/{id}': administration(ok(204), NOT_FOUND.apiKey),
  // The calling key itself: a session has none; a files_only key may see and revoke itself (docs/decisions.md).
  'GET /api_key': { ...everyone(ok(200)), memberSession: NOT_FOUND.apiKey },
  'PUT /api_key': administration(ok(200), NOT_FOUND.apiKey),
  'PATCH /api_key': administration(ok(200), NOT_FOUND.apiKey),
  'DELETE /api_key': { ...everyone(ok(204)), memberSession: NOT_FOUND.apiKey },

  'GET /public_keys': administration(ok(200), ok(200, ownRows('user_id'))),
  'POST /public_keys': administration(ok(201), NOT_FOUND.user),
  'GET /public_keys/{id}': administration(ok(200), NOT_FOUND.other),
  'PUT /public_keys/{id}': administration(ok(200), NOT_FOUND.other),
  'PATCH /public_keys/{id}': administration(ok(200), NOT_FOUND.other),
  'DELETE /public_keys/{id}': administration(ok(204), NOT_FOUND.other),

  // The site's settings are the whole site's, not N's: refused to read too (docs/authentication.md).
  'GET /site': SITE_LEVEL,
  'PUT /site': SITE_LEVEL,
  'PATCH /site': SITE_LEVEL,
  'GET /site/policies': administration(ok(200), ok(200)),
  'GET /site/usage': SITE_LEVEL,
  // One's own preferences: a site-wide key has no user, so none; the Workspace chosen is the home (the only one a confined credential may work in).
  'GET /user_preferences': { ...administration(ok(200, ownChoice), ok(200, ownChoice)), siteWideKeyInN: NOT_FOUND.other },
  'PUT /user_preferences': { ...administration(ok(200, homeChosen), ok(200, homeChosen)), siteWideKeyInN: NOT_FOUND.other },
  'PATCH /user_preferences': { ...administration(ok(200, homeChosen), ok(200, homeChosen)), siteWideKeyInN: NOT_FOUND.other },
  // What a tool needs to connect: the same facts for everyone, a files_only key included.
  'GET /connection_details': everyone(ok(200, (body) => expect(body.webdav_url).toMatch(/\/dav\/$/))),

  // Listing and showing Workspaces serve file work (a files_only key may); each sees its home only.
  'GET /workspaces': everyone(ok(200, rowsWith('id', (caller) => caller.home))),
  'POST /workspaces': SITE_LEVEL,
  'GET /workspaces/{id}': everyone(ok(200)),
  'PUT /workspaces/{id}': SITE_LEVEL,
  'PATCH /workspaces/{id}': SITE_LEVEL,
  'DELETE /workspaces/{id}': SITE_LEVEL,

  'GET /permissions': homeList('workspace_id', 'user_id'),
  'POST /permissions': administration(ok(201, (body, caller) => expect(body.workspace_id).toBe(caller.home)), FORBIDDEN.folderAdminRequired),
  'GET /permissions/explain': administration(ok(200), NOT_FOUND.user),
  'DELETE /permissions/{id}': administration(ok(204), refused('not-found/permission-not-found')),
  // Who reaches a path: as N's Workspace Administrator sees it, N's users and the caller itself (docs/permissions.md); a plain user at most itself.
  'GET /permissions/reach': administration(ok(200, homeUsersAndSelf), ok(200, ownRows('user_id'))),
  'GET /permissions/reach/export': administration(ok(200, csvRowsInHome), FORBIDDEN.administratorRequired),

  'GET /users': administration(ok(200, inHome('workspace_id')), ok(200, rowsWith('id', (caller) => caller.userId))),
  'POST /users': administration(ok(201, (body, caller) => expect(body.workspace_id).toBe(caller.home)), FORBIDDEN.administratorRequired),
  'GET /users/{id}': administration(ok(200), NOT_FOUND.user),
  'PUT /users/{id}': administration(ok(200), NOT_FOUND.user),
  'PATCH /users/{id}': administration(ok(200), NOT_FOUND.user),
  'DELETE /users/{id}': administration(ok(204), NOT_FOUND.user),
  'POST /users/{id}/2fa/reset': administration(ok(204), NOT_FOUND.user),
  'POST /users/{id}/unlock': administration(ok(204), NOT_FOUND.user),
  'POST /users/{id}/resend_welcome_email': administration(refused('processing-failure/mail-server-not-configured'), NOT_FOUND.user),

  // A plain user sees no Partner (Partner users will see their own).
  'GET /automations': administration(ok(200, inHome('workspace_id')), ok(200, (body) => expect(body).toEqual([]))),
  'POST /automations': administration(ok(201, (body, caller) => expect(body.workspace_id).toBe(caller.home)), FORBIDDEN.administratorRequired),
  'GET /automations/{id}': administration(ok(200), NOT_FOUND.other),
  'PUT /automations/{id}': administration(ok(200), NOT_FOUND.other),
  'PATCH /automations/{id}': administration(ok(200), NOT_FOUND.other),
  'DELETE /automations/{id}': administration(ok(204), NOT_FOUND.other),
  'POST /automations/{id}/manual_run': administration(ok(204), NOT_FOUND.other),
  'GET /automation_runs': administration(ok(200, inHome('workspace_id')), NOT_FOUND.other),
  'GET /automation_runs/{id}': administration(ok(200), NOT_FOUND.other),
  'GET /automation_runs/{id}/status_messages': administration(ok(200), NOT_FOUND.other),
  // Share links: the plain user holds full on Shared but not Share, and sees only its own links (none).
  'GET /bundles': homeList('workspace_id', 'user_id'),
  'POST /bundles': administration(ok(201, (body, caller) => expect(body.workspace_id).toBe(caller.home)), refused('not-authorized/bundle-permission-required')),
  'GET /bundles/{id}': administration(ok(200), NOT_FOUND.other),
  'PUT /bundles/{id}': administration(ok(200), NOT_FOUND.other),
  'PATCH /bundles/{id}': administration(ok(200), NOT_FOUND.other),
  'DELETE /bundles/{id}': administration(ok(204), NOT_FOUND.other),
  'POST /bundles/{id}/share': administration(ok(204), NOT_FOUND.other),
  'GET /bundle_recipients': administration(ok(200, inHome('workspace_id')), NOT_FOUND.other),
  'POST /bundle_recipients': administration(ok(201, (body, caller) => expect(body.workspace_id).toBe(caller.home)), NOT_FOUND.other),
  'GET /bundle_registrations': administration(ok(200, inHome('workspace_id')), ok(200, (body) => expect(body).toEqual([]))),
  'GET /bundle_downloads': administration(ok(200, inHome('workspace_id')), ok(200, (body) => expect(body).toEqual([]))),
  'GET /bundle_actions': administration(ok(200, inHome('workspace_id')), ok(200, (body) => expect(body).toEqual([]))),
  // A share link's public API reads no credential: the one sent with a request changes nothing.
  // Sign-in providers are the site's: beyond every confined credential.
  'GET /sso_providers': SITE_LEVEL,
  'POST /sso_providers': SITE_LEVEL,
  'GET /sso_providers/{id}': SITE_LEVEL,
  'PUT /sso_providers/{id}': SITE_LEVEL,
  'PATCH /sso_providers/{id}': SITE_LEVEL,
  'DELETE /sso_providers/{id}': SITE_LEVEL,
  'GET /sso_providers/{id}/links': SITE_LEVEL,
  'POST /sso_providers/{id}/links': SITE_LEVEL,
  'DELETE /sso_providers/{id}/links/{link_id}': SITE_LEVEL,
  'GET /sso_strategies': SITE_LEVEL,
  'GET /sso_strategies/{id}': SITE_LEVEL,
  'POST /sso_strategies/{id}/sync': SITE_LEVEL,
  // Only a console session of a user linked at the provider is confirmed there: none of these is.
  'POST /sso_reauthentications': { ...everyone(refused('processing-failure/model-save-error')), filesOnlyKey: FORBIDDEN.filesOnly },
  // The console's sign-in page and its redirects read no credential; the provider cannot be reached, so both send the browser back to sign in.
  'GET /api/public/sso/providers': everyone(ok(200)),
  'GET /api/public/sso/providers/{provider}/sign_in': everyone(ok(303)),
  'GET /api/public/sso/callback': everyone(ok(303)),
  'GET /api/public/bundles/{code}': everyone(ok(200)),
  'POST /api/public/bundles/{code}/visits': everyone(ok(201)),
  'GET /api/public/bundles/{code}/entries': everyone(ok(200)),
  'GET /api/public/bundles/{code}/files/{path}': everyone(ok(200)),
  'GET /api/public/bundles/{code}/zip': everyone(ok(200)),
  'PUT /api/public/bundles/{code}/files/{path}': everyone(ok(201)),
  'DELETE /api/public/bundles/{code}/files/{path}': everyone(ok(204)),
  'GET /partners': administration(ok(200, inHome('workspace_id')), ok(200, (body) => expect(body).toEqual([]))),
  'POST /partners': administration(ok(201, (body, caller) => expect(body.workspace_id).toBe(caller.home)), FORBIDDEN.administratorRequired),
  'GET /partners/{id}': administration(ok(200), NOT_FOUND.other),
  'PUT /partners/{id}': administration(ok(200), NOT_FOUND.other),
  'PATCH /partners/{id}': administration(ok(200), NOT_FOUND.other),
  'DELETE /partners/{id}': administration(ok(204), NOT_FOUND.other),

  'GET /groups': administration(ok(200, inHome('workspace_id')), ok(200, inHome('workspace_id'))),
  'POST /groups': administration(ok(201, (body, caller) => expect(body.workspace_id).toBe(caller.home)), FORBIDDEN.administratorRequired),
  'GET /groups/{id}': administration(ok(200), NOT_FOUND.group),
  'PUT /groups/{id}': administration(ok(200), NOT_FOUND.group),
  'PATCH /groups/{id}': administration(ok(200), NOT_FOUND.group),
  'DELETE /groups/{id}': administration(ok(204), NOT_FOUND.group),

  // Filtering by a group the plain user may not see finds nothing, as any filter on what is out of sight.
  'GET /group_users': administration(ok(200, (body) => expect(body.length).toBeGreaterThan(0)), ok(200, (body) => expect(body).toEqual([]))),
  'POST /group_users': administration(ok(201), NOT_FOUND.group),
  'PUT /group_users/{id}': administration(ok(200), NOT_FOUND.membership),
  'PATCH /group_users/{id}': administration(ok(200), NOT_FOUND.membership),
  'DELETE /group_users/{id}': administration(ok(204), NOT_FOUND.membership),

  // File operations, in the caller's home: every kind may (the plain user has `full` on Shared).
  // The bare forms name the root, which no one creates, deletes or replaces.
  'GET /folders': everyone(ok(200, (body) => expect(body.map((entry: { path: string }) => entry.path)).not.toContain('_'))),
  'POST /folders': everyone(ROOT_UNCHANGEABLE),
  'GET /folders/{path}': FILE_ACTION(200),
  'POST /folders/{path}': FILE_ACTION(201),
  'GET /files': everyone(refused('bad-request/cannot-download-directory')),
  'DELETE /files': everyone(ROOT_UNCHANGEABLE),
  'POST /files': everyone(ROOT_UNCHANGEABLE),
  'PUT /files': everyone(ROOT_UNCHANGEABLE),
  'PATCH /files': everyone(ROOT_UNCHANGEABLE),
  'GET /files/{path}': FILE_ACTION(200),
  'DELETE /files/{path}': FILE_ACTION(204),
  'POST /files/{path}': FILE_ACTION(200),
  'PUT /files/{path}': FILE_ACTION(201),
  'PATCH /files/{path}': FILE_ACTION(200),
  // Locks (docs/files.md): the bare forms name no path to lock; the root's locks and those below it
  // never include what the credential cannot name (the reserved folder `_` for a key confined to 0).
  'GET /locks': everyone(ok(200, (body) => expect(body.filter((lock: { path: string }) => lock.path.startsWith('_'))).toEqual([]))),
  'POST /locks': everyone(refused('bad-request/request-params-required')),
  'DELETE /locks': everyone(refused('bad-request/request-params-required')),
  'GET /locks/{path}': FILE_ACTION(200),
  'POST /locks/{path}': FILE_ACTION(201),
  'DELETE /locks/{path}': FILE_ACTION(204),
  // The trash and versions (docs/files.md#trash-and-versions), of files under Shared: never another Workspace's.
  'GET /trash': everyone(ok(200, (body) => expect(body.filter((entry: { path: string }) => entry.path.startsWith('_'))).toEqual([]))),
  'GET /trash/{id}': FILE_ACTION(200),
  'POST /trash/{id}/restore': FILE_ACTION(200),
  'DELETE /trash/{id}': FILE_ACTION(204),
  'GET /file_versions': FILE_ACTION(200),
  'POST /file_versions/{id}/restore': FILE_ACTION(200),
  'GET /file_actions/metadata': FILE_ACTION(200),
  'GET /file_actions/metadata/{path}': FILE_ACTION(200),
  'POST /file_actions/move/{path}': FILE_ACTION(201),
  'POST /file_actions/copy/{path}': FILE_ACTION(201),
  'POST /file_actions/begin_upload/{path}': FILE_ACTION(200),
  'POST /file_actions/zip': FILE_ACTION(200),
  // Signed links carry their own authority; the credential sent with them changes nothing.
  'GET /downloads/{token}': FILE_ACTION(200),
  'PUT /uploads/{token}': FILE_ACTION(200),
  // A webhook URL's secret is its credential: the one sent with it changes nothing.
  'GET /automations/webhook/{webhookId}/{secret}': everyone(ok(200)),
  'POST /automations/webhook/{webhookId}/{secret}': everyone(ok(200)),

  'GET /history': administration(ok(200), ok(200)),
  'GET /history/login': administration(ok(200), ok(200)),
  'GET /history/users/{user_id}': administration(ok(200), NOT_FOUND.user),
  'GET /history/folders': administration(ok(200), ok(200)),
  'GET /history/folders/{path}': administration(ok(200), ok(200)),
  'GET /history/files': administration(ok(200), ok(200)),
  'GET /history/files/{path}': administration(ok(200), ok(200)),
  'POST /history_exports': administration(ok(201), ok(201)),
  'GET /history_exports/{id}': administration(ok(200), ok(200)),
  'GET /history_export_results': administration(ok(200), ok(200)),
  'GET /history_exports/{id}/results.csv': administration(ok(200), ok(200)),
  'GET /history_exports/{id}/results.jsonl': administration(ok(200), ok(200)),
};

/**
 * The cross-Workspace forms of operations above, which the table's requests (all inside the home)
 * do not try: each names something of Workspace 0, or asks for site-level authority.
 */
const VARIANTS: Record<string, { request: RequestBuilder; expected: Expectations }> = {
  'POST /permissions naming a Workspace 0 user': {
    request: async (site) => ({ method: 'POST', path: '/permissions', body: { path: 'Shared', user_id: site.outsider.id, permission: 'readonly' } }),
    expected: { ...SITE_LEVEL, workspaceAdminKey: NOT_FOUND.user, memberSession: FORBIDDEN.folderAdminRequired },
  },
  'POST /group_users adding a Workspace 0 user': {
    request: async (site, caller) => ({ method: 'POST', path: '/group_users', body: { group_id: await home(site, caller).group(), user_id: site.outsider.id } }),
    expected: { ...SITE_LEVEL, workspaceAdminKey: NOT_FOUND.user, memberSession: NOT_FOUND.group },
  },
  'POST /users with site_admin': {
    request: async () => ({ method: 'POST', path: '/users', body: { username: unique('made'), site_admin: true } }),
    expected: { ...SITE_LEVEL, workspaceAdminKey: FORBIDDEN.insufficientForParams, memberSession: FORBIDDEN.administratorRequired },
  },
  'POST /api_keys for a site-wide key (user_id null)': {
    request: async () => ({ method: 'POST', path: '/api_keys', body: { name: 'site-wide', user_id: null } }),
    expected: SITE_LEVEL,
  },
  'POST /api_keys for a Workspace 0 user': {
    request: async (site) => ({ method: 'POST', path: '/api_keys', body: { name: 'outsider key', user_id: site.outsider.id } }),
    expected: { ...SITE_LEVEL, workspaceAdminKey: NOT_FOUND.user, memberSession: NOT_FOUND.user },
  },
  'POST /public_keys for a Workspace 0 user': {
    request: async (site) => ({ method: 'POST', path: '/public_keys', body: { title: 'outsider ssh', user_id: site.outsider.id, generate_keypair: true, generate_algorithm: 'ed25519' } }),
    expected: { ...SITE_LEVEL, workspaceAdminKey: NOT_FOUND.user, memberSession: NOT_FOUND.user },
  },
  'PATCH /users/{id} making a user of N Site Administrator': {
    request: async (site, caller) => ({ method: 'PATCH', path: `/users/${(await home(site, caller).user()).id}`, body: { site_admin: true } }),
    expected: { ...SITE_LEVEL, workspaceAdminKey: FORBIDDEN.insufficientForParams, memberSession: NOT_FOUND.user },
  },
  'GET /history_exports/{id}/results.jsonl of an export the same user made in Workspace 0': {
    request: async (site) => {
      const unconfined = await createApiKey(db(site), { userId: site.siteAdmin.id, workspaceId: 0 });
      const made = await site.t.api.post('/history_exports', {}, { key: unconfined });
      return { method: 'GET', path: `/history_exports/${made.body.id}/results.jsonl` };
    },
    expected: { ...everyone(NOT_FOUND.other), filesOnlyKey: FORBIDDEN.filesOnly },
  },
  // A credential confined to Workspace 0 cannot reach into a Custom Workspace by its qualified
  // path; in N the same text names a folder `_` inside N, which does not exist.
  'GET /files/{path} of a file in N by its qualified path': {
    request: async (site) => ({ method: 'GET', path: `/files/${encodeURIComponent(site.qualifiedFileInN)}` }),
    expected: everyone(NOT_FOUND.file),
  },
  'PUT /files/{path} into N by its qualified path': {
    request: async (site) => ({ method: 'PUT', path: `/files/${encodeURIComponent(`_/Workspaces/${site.n}/Shared/${unique('put')}.txt`)}?mkdir_parents=false`, rawBody: 'file words' }),
    expected: { ...everyone(refused('processing-failure/destination-parent-does-not-exist')), filesOnlyKey: NOT_FOUND.file, memberSession: NOT_FOUND.file },
  },
  // The reserved folder `_` holds nothing but the Custom Workspaces: outside Workspace 0 for a credential confined there.
  'GET /folders/{path} of the folder holding the Custom Workspace roots': {
    request: async () => ({ method: 'GET', path: '/folders/_/Workspaces' }),
    expected: everyone(NOT_FOUND.file),
  },
  'POST /file_actions/copy/{path} of the reserved folder into the home': {
    request: async (site, caller) => ({ method: 'POST', path: '/file_actions/copy/_', body: { destination: home(site, caller).freePath() } }),
    expected: everyone(NOT_FOUND.file),
  },
  'GET /users/{id} of a Workspace 0 user': {
    request: async (site) => ({ method: 'GET', path: `/users/${site.outsider.id}` }),
    expected: { ...everyone(NOT_FOUND.user), filesOnlyKey: FORBIDDEN.filesOnly },
  },
  'GET /permissions listing a Workspace 0 user\'s grants': {
    request: async (site) => ({ method: 'GET', path: `/permissions?user_id=${site.outsider.id}` }),
    expected: { ...everyone(NOT_FOUND.user), filesOnlyKey: FORBIDDEN.filesOnly },
  },
  'GET /permissions/explain for a Workspace 0 user': {
    request: async (site) => ({ method: 'GET', path: `/permissions/explain?path=Shared&user_id=${site.outsider.id}` }),
    expected: { ...everyone(NOT_FOUND.user), filesOnlyKey: FORBIDDEN.filesOnly },
  },
  'GET /history/users/{user_id} of a Workspace 0 user': {
    request: async (site) => ({ method: 'GET', path: `/history/users/${site.outsider.id}` }),
    expected: { ...everyone(NOT_FOUND.user), filesOnlyKey: FORBIDDEN.filesOnly },
  },
  'GET /public_keys of a Workspace 0 user': {
    request: async (site) => ({ method: 'GET', path: `/public_keys?user_id=${site.outsider.id}` }),
    expected: { ...everyone(NOT_FOUND.user), filesOnlyKey: FORBIDDEN.filesOnly },
  },
  'GET /api_keys of a Workspace 0 user': {
    request: async (site) => ({ method: 'GET', path: `/api_keys?user_id=${site.outsider.id}` }),
    expected: { ...everyone(NOT_FOUND.user), filesOnlyKey: FORBIDDEN.filesOnly },
  },
  'GET /workspaces/{id} of N': {
    request: async (site) => ({ method: 'GET', path: `/workspaces/${site.n}` }),
    expected: { ...everyone(ok(200)), filesOnlyKey: refused('not-found/workspace-not-found') },
  },
};

describe.each(testDatabaseTargets())('every operation, called by each kind of confined credential [$name]', (target) => {
  let t: TestApp;
  let site: Site;
  let before: { settings: unknown; workspaces: unknown };
  const siteState = async () => ({
    settings: (await t.api.get('/site', { key: BOOTSTRAP_KEY })).body,
    workspaces: (await t.api.get('/workspaces', { key: BOOTSTRAP_KEY })).body,
  });
  beforeAll(async () => {
    t = await startTestApp(target);
    site = await buildSite(t);
    before = await siteState();
  });
  afterAll(() => t?.close());

  /** What went otherwise than expected for each kind (empty when everything did as the contract says). */
  async function mismatches(build: RequestBuilder, expected: Expectations): Promise<string[]> {
    const found: string[] = [];
    for (const kind of KIND_NAMES) {
      const caller = await KINDS[kind].make(site);
      const request = await build(site, caller);
      const response = await send(request, caller);
      const want = expected[kind];
      const got = { status: response.status, type: response.status >= 400 ? response.body?.type : undefined };
      const what = `${kind} (${KINDS[kind].label}): ${request.method} ${request.path}`;
      if (got.status !== want.status || got.type !== want.type) {
        found.push(`${what}: expected ${want.status} ${want.type ?? ''}, got ${got.status} ${got.type ?? ''} ${response.text.slice(0, 200)}`);
        continue;
      }
      if (got.status >= 300) continue;
      const leaked = foreignMarkers(caller).filter((marker) => response.text.includes(marker));
      if (leaked.length > 0) found.push(`${what}: the answer names things of another Workspace (${leaked.join(', ')}): ${response.text.slice(0, 300)}`);
      try {
        want.check?.(response.body ?? response.text, caller);
      } catch (error) {
        found.push(`${what}: ${(error as Error).message.slice(0, 300)}`);
      }
    }
    return found;
  }

  function send(request: OperationRequest, caller: ConfinedCaller) {
    const bytes = request.rawBody === undefined ? {} : { rawBody: request.rawBody, headers: { ...caller.as.headers, 'content-type': 'application/octet-stream' } };
    return t.api.call(request.method, request.path, { ...caller.as, ...(request.body === undefined ? {} : { body: request.body }), ...bytes, ...(request.redirect === undefined ? {} : { redirect: request.redirect }) });
  }

  /** The markers of the Workspaces a caller does not work in. */
  function foreignMarkers(caller: ConfinedCaller): string[] {
    return caller.home === 0 ? [markerOf('wsN'), markerOf('wsM')] : [markerOf('ws0'), markerOf('wsM')];
  }

  it('has a row for every operation of the OpenAPI document, and for nothing else', async () => {
    const document = (await t.api.get('/openapi')).body;
    const operations: string[] = [];
    for (const [path, item] of Object.entries<Record<string, unknown>>(document.paths)) {
      for (const method of Object.keys(item).filter((key) => HTTP_METHODS.includes(key))) operations.push(`${method.toUpperCase()} ${path.replace(/^\/api\/rest\/v1/, '')}`);
    }
    expect(operations.length).toBeGreaterThan(0);
    expect(Object.keys(TABLE).sort()).toEqual([...operations].sort());
    expect(Object.keys(requestBuilders).sort()).toEqual([...operations].sort());
  });

  it.each(Object.keys(TABLE))('%s', async (operation) => {
    expect(await mismatches(requestBuilders[operation] as RequestBuilder, TABLE[operation] as Expectations)).toEqual([]);
  });

  it.each(Object.keys(VARIANTS))('%s', async (variant) => {
    const { request, expected } = VARIANTS[variant]!;
    expect(await mismatches(request, expected)).toEqual([]);
  });

  // Runs after the rows: no refused site-level request changed anything.
  it('left the site settings and the Workspaces as they were', async () => {
    expect(await siteState()).toEqual(before);
  });
});

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
