import { expect } from 'vitest';
import { hashSecret } from '../../src/identity/index.js';
import type { User } from '../../src/repositories/users.js';
import { addMember, createApiKey, createGroup, createUser, unique } from '../support/factories.js';
import type { CallOptions } from '../support/http-client.js';
import { SoftwareAuthenticator } from '../support/software-authenticator.js';
import { BOOTSTRAP_KEY, type TestApp } from '../support/test-app.js';

/**
 * The requests of the confined-operation table (confined-operations.test.ts): for every operation
 * of the OpenAPI document, one valid request, with valid path parameters, query and body, built
 * over fixtures of its own in the caller's home Workspace, so that the only question left is
 * whether that caller may make it.
 */

export const PASSWORD = 'a long enough password for the table';

/**
 * The site every row works on: Workspace N, home of most confined credentials, and Workspace 0 and
 * another Custom Workspace M beside it. Each of the three holds things whose names start with its
 * marker (`in-ws0-`, `in-wsN-`, `in-wsM-`), so an answer that names anything of a Workspace the
 * caller does not work in is caught by its text alone.
 */
export interface Site {
  t: TestApp;
  n: number;
  m: number;
  /** A Workspace 0 Site Administrator, whose keys are confined by where they were made or by `files_only`. */
  siteAdmin: User;
  /** A user of N with `workspace_admin`. */
  workspaceAdmin: User;
  /** A plain user of N with a password (for its sessions' reauthentication) and `full` on `Shared`. */
  member: User;
  /** A Workspace 0 user with a password: who signs in when the caller's home is Workspace 0. */
  signInUserOf0: User;
  /** A Workspace 0 user, beyond every credential confined to N. */
  outsider: User;
  /** A file in N, by its qualified site path (`_/Workspaces/N/...`). */
  qualifiedFileInN: string;
}

/** Who calls: its credential, and the Workspace it is confined to (where a request selecting none works). */
export interface ConfinedCaller {
  as: CallOptions;
  home: number;
  /** The caller's user, null for a site-wide key. */
  userId: number | null;
}

export interface OperationRequest {
  method: string;
  /** Below the API root (`/users/5`), or a whole API path (`/api/rest/v1/uploads/<token>`). */
  path: string;
  body?: unknown;
  /** Bytes sent as they are (uploads), instead of a JSON body. */
  rawBody?: string;
  /** A browser endpoint that answers with a redirect: answered as it came. */
  redirect?: 'manual';
}

export type RequestBuilder = (site: Site, caller: ConfinedCaller) => Promise<OperationRequest>;

export const markerOf = (workspace: 'ws0' | 'wsN' | 'wsM') => `in-${workspace}-`;

export async function buildSite(t: TestApp): Promise<Site> {
  const db = t.database.db;
  const n = await newWorkspace(t, unique(`${markerOf('wsN')}workspace`));
  const m = await newWorkspace(t, unique(`${markerOf('wsM')}workspace`));
  for (const [workspace, marker] of [[0, markerOf('ws0')], [n, markerOf('wsN')], [m, markerOf('wsM')]] as const) await markedThings(t, workspace, marker);
  const member = await createUser(db, { workspaceId: n, password: PASSWORD });
  await insertGrant(t, n, { path: 'Shared', userId: member.id, permission: 'full' });
  await asSite(t, n, 'POST', '/folders/Shared', {});
  await asSite(t, 0, 'POST', '/folders/Shared', {});
  const qualifiedFileInN = `_/Workspaces/${n}/Shared/${unique('reached-from-0')}.txt`;
  await putFile(t, 0, qualifiedFileInN);
  return {
    t,
    n,
    m,
    siteAdmin: await createUser(db, { siteAdmin: true }),
    workspaceAdmin: await createUser(db, { workspaceId: n, workspaceAdmin: true }),
    member,
    signInUserOf0: await createUser(db, { password: PASSWORD }),
    outsider: await createUser(db),
    qualifiedFileInN,
  };
}

/** A Custom Workspace made through the API, so that its root folder exists as in production. */
async function newWorkspace(t: TestApp, name: string): Promise<number> {
  return (await asSite(t, 0, 'POST', '/workspaces', { name })).id as number;
}

/**
 * Things of one Workspace named with its marker, made through the API where History should record
 * them: a user with a grant, an API key and an SSH key, a group, and a folder with a file.
 */
async function markedThings(t: TestApp, workspace: number, marker: string): Promise<void> {
  const user = await asSite(t, workspace, 'POST', '/users', { username: unique(`${marker}user`) });
  const group = await createGroup(t.database.db, { workspaceId: workspace, name: unique(`${marker}group`) });
  await addMember(t.database.db, group, user.id);
  const folder = unique(`${marker}folder`);
  await putFile(t, workspace, `${folder}/${unique(`${marker}file`)}.txt`);
  await asSite(t, workspace, 'POST', '/permissions', { path: folder, user_id: user.id, permission: 'readonly' });
  await asSite(t, workspace, 'POST', '/api_keys', { name: unique(`${marker}key`), user_id: user.id });
  await asSite(t, workspace, 'POST', '/public_keys', { title: unique(`${marker}ssh`), user_id: user.id, generate_keypair: true, generate_algorithm: 'ed25519' });
  await asSite(t, workspace, 'POST', '/partners', { name: unique(`${marker}partner`), root_folder: unique(`${marker}partner-root`) });
  await asSite(t, workspace, 'POST', '/automations', { name: unique(`${marker}automation`), automation: 'create_folder', destinations: [`${unique(`${marker}made`)}/`] });
}

/** A request by the site-wide bootstrap key in `workspace`, which must succeed; its body. */
async function asSite(t: TestApp, workspace: number, method: string, path: string, body?: unknown): Promise<any> {
  const response = await t.api.call(method, path, { key: BOOTSTRAP_KEY, workspace, ...(body === undefined ? {} : { body }) });
  expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
  return response.body;
}

async function putFile(t: TestApp, workspace: number, path: string): Promise<void> {
  const response = await t.api.call('PUT', `/files/${encodeURIComponent(path)}`, {
    key: BOOTSTRAP_KEY, workspace, rawBody: 'file words', headers: { 'content-type': 'application/octet-stream' },
  });
  expect(response.status, `PUT ${path}: ${response.text}`).toBe(201);
}

async function insertGrant(t: TestApp, workspace: number, grant: { path: string; userId: number; permission: string }): Promise<number> {
  const sitePath = workspace === 0 ? grant.path : `_/Workspaces/${workspace}/${grant.path}`;
  const row = await t.database.db
    .insertInto('permissions')
    .values({
      workspace_id: workspace,
      path: sitePath,
      path_key: sitePath.toLowerCase(),
      user_id: grant.userId,
      group_id: null,
      permission: grant.permission,
      recursive: true,
      created_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Fresh fixtures in the caller's home Workspace, one set per request, so that a row that deletes or
 * renames what it names cannot disturb another. Files lie under `Shared`, where the member has `full`.
 */
class Home {
  constructor(
    private readonly site: Site,
    readonly workspace: number,
  ) {}

  private get db() {
    return this.site.t.database.db;
  }

  user(): Promise<User> {
    return createUser(this.db, { workspaceId: this.workspace });
  }

  group(): Promise<number> {
    return createGroup(this.db, { workspaceId: this.workspace });
  }

  /** A Partner of the home Workspace, with its root folder. */
  async partner(): Promise<number> {
    return (await asSite(this.site.t, this.workspace, 'POST', '/partners', { name: unique('partner'), root_folder: `Shared/${unique('partner-root')}` })).id as number;
  }

  /** An automation of the home Workspace, run by hand once: the automation and its run. */
  async automation(): Promise<{ id: number; runId: number }> {
    const made = await asSite(this.site.t, this.workspace, 'POST', '/automations', { name: unique('automation'), automation: 'create_folder', destinations: [`Shared/${unique('made')}/`] });
    await asSite(this.site.t, this.workspace, 'POST', `/automations/${made.id}/manual_run`);
    const runs = await asSite(this.site.t, this.workspace, 'GET', `/automation_runs?automation_id=${made.id}`);
    return { id: made.id as number, runId: runs[0].id as number };
  }

  /**
   * A share link of `Shared` in the home Workspace, shared with one recipient: made by the site for
   * the home's Workspace Administrator (a Site Administrator in Workspace 0), who may share it.
   */
  async bundle(): Promise<number> {
    const made = await asSite(this.site.t, this.workspace, 'POST', '/bundles', { paths: ['Shared'], user_id: this.bundleOwner().id, internal_name: unique('bundle') });
    await asSite(this.site.t, this.workspace, 'POST', `/bundles/${made.id}/share`, { to: ['someone@example.com'] });
    return made.id as number;
  }

  /** Who may share `Shared` in the home Workspace. */
  bundleOwner(): User {
    return this.workspace === 0 ? this.site.siteAdmin : this.site.workspaceAdmin;
  }

  /** The whole API path of a webhook automation's URL, the automation of the home Workspace. */
  async webhookPath(): Promise<string> {
    const made = await asSite(this.site.t, this.workspace, 'POST', '/automations', { name: unique('webhook'), automation: 'copy_file', trigger: 'webhook', path: 'Shared', destinations: ['Shared/copies/'] });
    return new URL(made.webhook_url as string).pathname;
  }

  async membership(): Promise<{ id: number; groupId: number; userId: number }> {
    const groupId = await this.group();
    const { id: userId } = await this.user();
    await addMember(this.db, groupId, userId);
    const row = await this.db.selectFrom('group_users').select('id').where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirstOrThrow();
    return { id: row.id, groupId, userId };
  }

  async grant(): Promise<number> {
    return insertGrant(this.site.t, this.workspace, { path: `Shared/${unique('granted')}`, userId: (await this.user()).id, permission: 'readonly' });
  }

  /** An API key of a user of the home Workspace, made there. */
  async apiKey(): Promise<number> {
    const secret = await createApiKey(this.db, { userId: (await this.user()).id, workspaceId: this.workspace });
    const row = await this.db.selectFrom('api_keys').select('id').where('lookup', '=', hashSecret(secret).lookup).executeTakeFirstOrThrow();
    return row.id;
  }

  async publicKey(): Promise<number> {
    const body = { title: unique('ssh'), user_id: (await this.user()).id, generate_keypair: true, generate_algorithm: 'ed25519' };
    return (await asSite(this.site.t, this.workspace, 'POST', '/public_keys', body)).id as number;
  }

  /** A new folder under `Shared`, with a file in it; both paths as the home Workspace names them. */
  async file(): Promise<{ folder: string; file: string }> {
    const folder = `Shared/${unique('folder')}`;
    const file = `${folder}/${unique('file')}.txt`;
    await putFile(this.site.t, this.workspace, file);
    return { folder, file };
  }

  /**
   * A share link of a new folder under `Shared` holding one file, made for the home Workspace's
   * Share holder: its code, the folder's name (its path inside the link) and the file's path there.
   */
  async link(permissions = 'full'): Promise<{ code: string; folderName: string; file: string }> {
    const { folder, file } = await this.file();
    const made = await asSite(this.site.t, this.workspace, 'POST', '/bundles', { paths: [folder], permissions, user_id: this.bundleOwner().id });
    const folderName = folder.slice(folder.lastIndexOf('/') + 1);
    return { code: made.code as string, folderName, file: `${folderName}/${file.slice(file.lastIndexOf('/') + 1)}` };
  }

  /** A file under `Shared` with a lock any user of the Workspace may remove, taken with a site-wide key. */
  async lockedFile(): Promise<{ file: string; token: string }> {
    const { file } = await this.file();
    const lock = await asSite(this.site.t, this.workspace, 'POST', `/locks/${encodeURIComponent(file)}`, { allow_access_by_any_user: true });
    return { file, token: lock.token as string };
  }

  /** A file under `Shared` deleted by a site-wide key: its id in the trash (docs/files.md#trash-and-versions). */
  async trashed(): Promise<number> {
    const { file } = await this.file();
    await asSite(this.site.t, this.workspace, 'DELETE', `/files/${encodeURIComponent(file)}`);
    const trash = await asSite(this.site.t, this.workspace, 'GET', `/trash?path=${encodeURIComponent(file)}`);
    return trash[0].id as number;
  }

  /** A file under `Shared` overwritten once by a site-wide key: its path, and its earlier content's version id. */
  async versioned(): Promise<{ file: string; versionId: number }> {
    const { file } = await this.file();
    await putFile(this.site.t, this.workspace, file);
    const versions = await asSite(this.site.t, this.workspace, 'GET', `/file_versions?path=${encodeURIComponent(file)}`);
    return { file, versionId: versions[0].id as number };
  }

  /** A path under `Shared` where nothing stands yet. */
  freePath(): string {
    return `Shared/${unique('new')}`;
  }

  /** The path part of a transfer link handed out for `file` (`/api/rest/v1/downloads/<token>`). */
  async downloadPath(file: string): Promise<string> {
    return pathOf((await asSite(this.site.t, this.workspace, 'GET', `/files/${encodeURIComponent(file)}`)).download_uri as string);
  }

  async uploadPath(): Promise<string> {
    const parts = await asSite(this.site.t, this.workspace, 'POST', `/file_actions/begin_upload/${encodeURIComponent(this.freePath())}`, {});
    return pathOf(parts[0].upload_uri as string);
  }

  /** A user who signs in with PASSWORD: the member in N, another user in Workspace 0. */
  signInUser(): User {
    return this.workspace === 0 ? this.site.signInUserOf0 : this.site.member;
  }
}

function pathOf(url: string): string {
  return new URL(url).pathname;
}

/** Fresh fixtures in the caller's home Workspace. */
export const home = (site: Site, caller: ConfinedCaller) => new Home(site, caller.home);
const enc = encodeURIComponent;

/** A History export the caller made itself (exports are their maker's); a site-wide one when the caller may not make any. */
async function ownHistoryExport(site: Site, caller: ConfinedCaller): Promise<number> {
  const made = await site.t.api.post('/history_exports', {}, caller.as);
  if (made.status === 201) return made.body.id as number;
  return (await asSite(site.t, caller.home, 'POST', '/history_exports', {})).id as number;
}

/** An answer to passkey registration options the caller asked for (refused to a key: then to made-up ones). */
async function passkeyAnswer(site: Site, caller: ConfinedCaller): Promise<unknown> {
  const asked = await site.t.api.post('/2fa/passkeys/options', {}, caller.as);
  const options = asked.status === 200 ? asked.body : { challenge: 'AAAA', rp: { name: 'x' }, user: { id: 'AAAA', name: 'x', displayName: 'x' }, pubKeyCredParams: [] };
  return new SoftwareAuthenticator().register(options, site.t.baseUrl);
}

/** A passkey of the caller's user (of the home's plain user for a site-wide key, which has none). */
async function ownPasskey(site: Site, caller: ConfinedCaller): Promise<number> {
  const row = await site.t.database.db.insertInto('user_passkeys').values({
    user_id: caller.userId ?? site.member.id, name: unique('passkey'), credential_id: unique('credential'), public_key: 'AAAA', created_at: site.t.clock.now(),
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

const get = (path: string): OperationRequest => ({ method: 'GET', path });

/** A sign-in provider of the site (at an issuer nobody reaches), and an account linked at it, made once per site. */
const ssoThings = new WeakMap<Site, Promise<{ provider: number; link: number }>>();
function sso(site: Site): Promise<{ provider: number; link: number }> {
  let made = ssoThings.get(site);
  if (made === undefined) {
    made = (async () => {
      const provider = (await asSite(site.t, 0, 'POST', '/sso_providers', { label: 'IdP', issuer_url: `https://${unique('idp')}.example`, client_id: 'atrium' })).id as number;
      const link = (await asSite(site.t, 0, 'POST', `/sso_providers/${provider}/links`, { user_id: site.outsider.id, subject: unique('sub') })).id as number;
      return { provider, link };
    })();
    ssoThings.set(site, made);
  }
  return made;
}
/** The console's sign-in with a provider (a whole path: it lies beside the REST API). */
const SSO = '/api/public/sso';
/** The public share-link API's root (a whole path: it lies beside the REST API). */
const LINKS = '/api/public/bundles';
/** A path inside a link, each segment encoded as the link page sends it. */
const segments = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** One request per operation, keyed as `METHOD /path-template` below the API root. */
export const requestBuilders: Record<string, RequestBuilder> = {
  'POST /sessions': async (site, caller) => ({ method: 'POST', path: '/sessions', body: { username: home(site, caller).signInUser().username, password: PASSWORD } }),
  'DELETE /sessions': async () => ({ method: 'DELETE', path: '/sessions' }),
  'POST /sessions/passkey_options': async () => ({ method: 'POST', path: '/sessions/passkey_options', body: {} }),
  'GET /2fa': async () => get('/2fa'),
  'POST /2fa/totp': async () => ({ method: 'POST', path: '/2fa/totp', body: {} }),
  'POST /2fa/totp/confirm': async () => ({ method: 'POST', path: '/2fa/totp/confirm', body: { otp: '000000' } }),
  'DELETE /2fa/totp': async () => ({ method: 'DELETE', path: '/2fa/totp' }),
  'POST /2fa/recovery_codes': async () => ({ method: 'POST', path: '/2fa/recovery_codes', body: {} }),

  'POST /2fa/passkeys/options': async () => ({ method: 'POST', path: '/2fa/passkeys/options', body: {} }),
  'POST /2fa/passkeys': async (site, caller) => ({ method: 'POST', path: '/2fa/passkeys', body: { name: unique('passkey'), response: await passkeyAnswer(site, caller) } }),
  'GET /2fa/passkeys': async () => get('/2fa/passkeys'),
  'PATCH /2fa/passkeys/{id}': async (site, caller) => ({ method: 'PATCH', path: `/2fa/passkeys/${await ownPasskey(site, caller)}`, body: { name: unique('renamed') } }),
  'DELETE /2fa/passkeys/{id}': async (site, caller) => ({ method: 'DELETE', path: `/2fa/passkeys/${await ownPasskey(site, caller)}` }),

  'GET /api_keys': async () => get('/api_keys'),
  'POST /api_keys': async (site, caller) => ({ method: 'POST', path: '/api_keys', body: { name: unique('key'), user_id: (await home(site, caller).user()).id } }),
  'GET /api_keys/{id}': async (site, caller) => get(`/api_keys/${await home(site, caller).apiKey()}`),
  'PUT /api_keys/{id}': async (site, caller) => ({ method: 'PUT', path: `/api_keys/${await home(site, caller).apiKey()}`, body: { name: unique('renamed') } }),
  'PATCH /api_keys/{id}': async (site, caller) => ({ method: 'PATCH', path: `/api_keys/${await home(site, caller).apiKey()}`, body: { name: unique('renamed') } }),
  'DELETE /api_keys/{id}': async (site, caller) => ({ method: 'DELETE', path: `/api_keys/${await home(site, caller).apiKey()}` }),
  'GET /api_key': async () => get('/api_key'),
  'PUT /api_key': async () => ({ method: 'PUT', path: '/api_key', body: { name: unique('renamed') } }),
  'PATCH /api_key': async () => ({ method: 'PATCH', path: '/api_key', body: { name: unique('renamed') } }),
  'DELETE /api_key': async () => ({ method: 'DELETE', path: '/api_key' }),

  'GET /public_keys': async () => get('/public_keys'),
  'POST /public_keys': async (site, caller) => ({
    method: 'POST',
    path: '/public_keys',
    body: { title: unique('ssh'), user_id: (await home(site, caller).user()).id, generate_keypair: true, generate_algorithm: 'ed25519' },
  }),
  'GET /public_keys/{id}': async (site, caller) => get(`/public_keys/${await home(site, caller).publicKey()}`),
  'PUT /public_keys/{id}': async (site, caller) => ({ method: 'PUT', path: `/public_keys/${await home(site, caller).publicKey()}`, body: { title: unique('renamed') } }),
  'PATCH /public_keys/{id}': async (site, caller) => ({ method: 'PATCH', path: `/public_keys/${await home(site, caller).publicKey()}`, body: { title: unique('renamed') } }),
  'DELETE /public_keys/{id}': async (site, caller) => ({ method: 'DELETE', path: `/public_keys/${await home(site, caller).publicKey()}` }),

  'GET /site': async () => get('/site'),
  'PUT /site': async () => ({ method: 'PUT', path: '/site', body: { user_lockout_tries: 9 } }),
  'PATCH /site': async () => ({ method: 'PATCH', path: '/site', body: { user_lockout_tries: 9 } }),
  'GET /site/policies': async () => get('/site/policies'),
  'GET /site/usage': async () => get('/site/usage'),
  'GET /user_preferences': async () => get('/user_preferences'),
  'PUT /user_preferences': async (_site, caller) => ({ method: 'PUT', path: '/user_preferences', body: { last_workspace_id: caller.home } }),
  'PATCH /user_preferences': async (_site, caller) => ({ method: 'PATCH', path: '/user_preferences', body: { last_workspace_id: caller.home } }),
  'GET /connection_details': async () => get('/connection_details'),

  'GET /workspaces': async () => get('/workspaces'),
  'POST /workspaces': async () => ({ method: 'POST', path: '/workspaces', body: { name: unique('workspace') } }),
  'GET /workspaces/{id}': async (_site, caller) => get(`/workspaces/${caller.home}`),
  'PUT /workspaces/{id}': async (_site, caller) => ({ method: 'PUT', path: `/workspaces/${caller.home}`, body: { name: unique('renamed') } }),
  'PATCH /workspaces/{id}': async (_site, caller) => ({ method: 'PATCH', path: `/workspaces/${caller.home}`, body: { name: unique('renamed') } }),
  'DELETE /workspaces/{id}': async (_site, caller) => ({ method: 'DELETE', path: `/workspaces/${caller.home}` }),

  'GET /permissions': async () => get('/permissions'),
  'POST /permissions': async (site, caller) => ({
    method: 'POST',
    path: '/permissions',
    body: { path: home(site, caller).freePath(), user_id: (await home(site, caller).user()).id, permission: 'readonly' },
  }),
  'GET /permissions/explain': async (site, caller) => get(`/permissions/explain?path=Shared&user_id=${(await home(site, caller).user()).id}`),
  'DELETE /permissions/{id}': async (site, caller) => ({ method: 'DELETE', path: `/permissions/${await home(site, caller).grant()}` }),
  'GET /permissions/reach': async () => get('/permissions/reach?path=Shared'),
  'GET /permissions/reach/export': async () => get('/permissions/reach/export'),

  'GET /users': async () => get('/users'),
  'POST /users': async () => ({ method: 'POST', path: '/users', body: { username: unique('new-user') } }),
  'GET /users/{id}': async (site, caller) => get(`/users/${(await home(site, caller).user()).id}`),
  'PUT /users/{id}': async (site, caller) => ({ method: 'PUT', path: `/users/${(await home(site, caller).user()).id}`, body: { name: 'Renamed' } }),
  'PATCH /users/{id}': async (site, caller) => ({ method: 'PATCH', path: `/users/${(await home(site, caller).user()).id}`, body: { name: 'Renamed' } }),
  'DELETE /users/{id}': async (site, caller) => ({ method: 'DELETE', path: `/users/${(await home(site, caller).user()).id}` }),
  'POST /users/{id}/2fa/reset': async (site, caller) => ({ method: 'POST', path: `/users/${(await home(site, caller).user()).id}/2fa/reset`, body: {} }),
  'POST /users/{id}/unlock': async (site, caller) => ({ method: 'POST', path: `/users/${(await home(site, caller).user()).id}/unlock`, body: {} }),
  'POST /users/{id}/resend_welcome_email': async (site, caller) => ({ method: 'POST', path: `/users/${(await home(site, caller).user()).id}/resend_welcome_email`, body: {} }),

  'GET /automations': async () => get('/automations'),
  'POST /automations': async () => ({ method: 'POST', path: '/automations', body: { name: unique('new-automation'), automation: 'create_folder', destinations: [`Shared/${unique('made')}/`] } }),
  'GET /automations/{id}': async (site, caller) => get(`/automations/${(await home(site, caller).automation()).id}`),
  'PUT /automations/{id}': async (site, caller) => ({ method: 'PUT', path: `/automations/${(await home(site, caller).automation()).id}`, body: { name: unique('renamed') } }),
  'PATCH /automations/{id}': async (site, caller) => ({ method: 'PATCH', path: `/automations/${(await home(site, caller).automation()).id}`, body: { name: unique('renamed') } }),
  'DELETE /automations/{id}': async (site, caller) => ({ method: 'DELETE', path: `/automations/${(await home(site, caller).automation()).id}` }),
  'POST /automations/{id}/manual_run': async (site, caller) => ({ method: 'POST', path: `/automations/${(await home(site, caller).automation()).id}/manual_run` }),
  'GET /automation_runs': async (site, caller) => get(`/automation_runs?automation_id=${(await home(site, caller).automation()).id}`),
  'GET /automation_runs/{id}': async (site, caller) => get(`/automation_runs/${(await home(site, caller).automation()).runId}`),
  'GET /automation_runs/{id}/status_messages': async (site, caller) => get(`/automation_runs/${(await home(site, caller).automation()).runId}/status_messages`),
  'GET /bundles': async () => get('/bundles'),
  // A caller without a user of its own (a site-wide key) names who the link is for.
  'POST /bundles': async (site, caller) => ({
    method: 'POST', path: '/bundles', body: { paths: ['Shared'], ...(caller.userId === null ? { user_id: home(site, caller).bundleOwner().id } : {}) },
  }),
  'GET /bundles/{id}': async (site, caller) => get(`/bundles/${await home(site, caller).bundle()}`),
  'PUT /bundles/{id}': async (site, caller) => ({ method: 'PUT', path: `/bundles/${await home(site, caller).bundle()}`, body: { note: unique('renamed') } }),
  'PATCH /bundles/{id}': async (site, caller) => ({ method: 'PATCH', path: `/bundles/${await home(site, caller).bundle()}`, body: { note: unique('renamed') } }),
  'DELETE /bundles/{id}': async (site, caller) => ({ method: 'DELETE', path: `/bundles/${await home(site, caller).bundle()}` }),
  'POST /bundles/{id}/share': async (site, caller) => ({ method: 'POST', path: `/bundles/${await home(site, caller).bundle()}/share`, body: { to: ['another@example.com'] } }),
  'GET /bundle_recipients': async (site, caller) => get(`/bundle_recipients?bundle_id=${await home(site, caller).bundle()}`),
  'POST /bundle_recipients': async (site, caller) => ({ method: 'POST', path: '/bundle_recipients', body: { bundle_id: await home(site, caller).bundle(), recipient: 'one@example.com' } }),
  'GET /bundle_registrations': async () => get('/bundle_registrations'),
  // The public API of share links: whatever credential comes with a request, it reads none.
  'GET /sso_providers': async () => get('/sso_providers'),
  'POST /sso_providers': async () => ({ method: 'POST', path: '/sso_providers', body: { label: 'New', issuer_url: `https://${unique('idp')}.example`, client_id: 'x' } }),
  'GET /sso_providers/{id}': async (site) => get(`/sso_providers/${(await sso(site)).provider}`),
  'PUT /sso_providers/{id}': async (site) => ({ method: 'PUT', path: `/sso_providers/${(await sso(site)).provider}`, body: { label: unique('renamed') } }),
  'PATCH /sso_providers/{id}': async (site) => ({ method: 'PATCH', path: `/sso_providers/${(await sso(site)).provider}`, body: { label: unique('renamed') } }),
  'DELETE /sso_providers/{id}': async (site) => ({ method: 'DELETE', path: `/sso_providers/${(await sso(site)).provider}` }),
  'GET /sso_providers/{id}/links': async (site) => get(`/sso_providers/${(await sso(site)).provider}/links`),
  'POST /sso_providers/{id}/links': async (site) => ({ method: 'POST', path: `/sso_providers/${(await sso(site)).provider}/links`, body: { user_id: site.outsider.id, subject: unique('sub') } }),
  'DELETE /sso_providers/{id}/links/{link_id}': async (site) => {
    const { provider, link } = await sso(site);
    return { method: 'DELETE', path: `/sso_providers/${provider}/links/${link}` };
  },
  'GET /sso_strategies': async () => get('/sso_strategies'),
  'GET /sso_strategies/{id}': async (site) => get(`/sso_strategies/${(await sso(site)).provider}`),
  'POST /sso_strategies/{id}/sync': async (site) => ({ method: 'POST', path: `/sso_strategies/${(await sso(site)).provider}/sync`, body: {} }),
  'POST /sso_reauthentications': async (site) => ({ method: 'POST', path: '/sso_reauthentications', body: { sso_provider_id: (await sso(site)).provider } }),
  'GET /api/public/sso/providers': async () => get(`${SSO}/providers`),
  'GET /api/public/sso/providers/{provider}/sign_in': async (site) => ({ ...get(`${SSO}/providers/${(await sso(site)).provider}/sign_in`), redirect: 'manual' }),
  'GET /api/public/sso/callback': async () => ({ ...get(`${SSO}/callback?code=x&state=y`), redirect: 'manual' }),
  'GET /api/public/bundles/{code}': async (site, caller) => get(`${LINKS}/${(await home(site, caller).link()).code}`),
  'POST /api/public/bundles/{code}/visits': async (site, caller) => ({ method: 'POST', path: `${LINKS}/${(await home(site, caller).link()).code}/visits`, body: {} }),
  'GET /api/public/bundles/{code}/entries': async (site, caller) => {
    const link = await home(site, caller).link();
    return get(`${LINKS}/${link.code}/entries?path=${encodeURIComponent(link.folderName)}`);
  },
  'GET /api/public/bundles/{code}/files/{path}': async (site, caller) => {
    const link = await home(site, caller).link();
    return get(`${LINKS}/${link.code}/files/${segments(link.file)}?disposition=attachment`);
  },
  'GET /api/public/bundles/{code}/zip': async (site, caller) => {
    const link = await home(site, caller).link();
    return get(`${LINKS}/${link.code}/zip?path=${encodeURIComponent(link.folderName)}`);
  },
  'PUT /api/public/bundles/{code}/files/{path}': async (site, caller) => {
    const link = await home(site, caller).link();
    return { method: 'PUT', path: `${LINKS}/${link.code}/files/${segments(`${link.folderName}/sent.txt`)}`, rawBody: 'file words' };
  },
  'DELETE /api/public/bundles/{code}/files/{path}': async (site, caller) => {
    const link = await home(site, caller).link();
    return { method: 'DELETE', path: `${LINKS}/${link.code}/files/${segments(link.file)}` };
  },
  'GET /bundle_downloads': async () => get('/bundle_downloads'),
  'GET /bundle_actions': async () => get('/bundle_actions'),
  'GET /partners': async () => get('/partners'),
  'POST /partners': async () => ({ method: 'POST', path: '/partners', body: { name: unique('new-partner'), root_folder: `Shared/${unique('partner-root')}` } }),
  'GET /partners/{id}': async (site, caller) => get(`/partners/${await home(site, caller).partner()}`),
  'PUT /partners/{id}': async (site, caller) => ({ method: 'PUT', path: `/partners/${await home(site, caller).partner()}`, body: { name: unique('renamed') } }),
  'PATCH /partners/{id}': async (site, caller) => ({ method: 'PATCH', path: `/partners/${await home(site, caller).partner()}`, body: { name: unique('renamed') } }),
  'DELETE /partners/{id}': async (site, caller) => ({ method: 'DELETE', path: `/partners/${await home(site, caller).partner()}` }),

  'GET /groups': async () => get('/groups'),
  'POST /groups': async () => ({ method: 'POST', path: '/groups', body: { name: unique('new-group') } }),
  'GET /groups/{id}': async (site, caller) => get(`/groups/${await home(site, caller).group()}`),
  'PUT /groups/{id}': async (site, caller) => ({ method: 'PUT', path: `/groups/${await home(site, caller).group()}`, body: { name: unique('renamed') } }),
  'PATCH /groups/{id}': async (site, caller) => ({ method: 'PATCH', path: `/groups/${await home(site, caller).group()}`, body: { name: unique('renamed') } }),
  'DELETE /groups/{id}': async (site, caller) => ({ method: 'DELETE', path: `/groups/${await home(site, caller).group()}` }),

  'GET /group_users': async (site, caller) => get(`/group_users?group_id=${(await home(site, caller).membership()).groupId}`),
  'POST /group_users': async (site, caller) => {
    const place = home(site, caller);
    return { method: 'POST', path: '/group_users', body: { group_id: await place.group(), user_id: (await place.user()).id } };
  },
  'PUT /group_users/{id}': async (site, caller) => ({ method: 'PUT', path: `/group_users/${(await home(site, caller).membership()).id}`, body: { admin: true } }),
  'PATCH /group_users/{id}': async (site, caller) => ({ method: 'PATCH', path: `/group_users/${(await home(site, caller).membership()).id}`, body: { admin: true } }),
  'DELETE /group_users/{id}': async (site, caller) => ({ method: 'DELETE', path: `/group_users/${(await home(site, caller).membership()).id}` }),

  // The bare forms name the root folder.
  'GET /folders': async () => get('/folders'),
  'POST /folders': async () => ({ method: 'POST', path: '/folders', body: {} }),
  'GET /folders/{path}': async (site, caller) => get(`/folders/${enc((await home(site, caller).file()).folder)}`),
  'POST /folders/{path}': async (site, caller) => ({ method: 'POST', path: `/folders/${enc(home(site, caller).freePath())}`, body: {} }),
  'GET /files': async () => get('/files'),
  'DELETE /files': async () => ({ method: 'DELETE', path: '/files' }),
  'POST /files': async () => ({ method: 'POST', path: '/files', body: { action: 'put' } }),
  'PUT /files': async () => ({ method: 'PUT', path: '/files', rawBody: 'file words' }),
  'PATCH /files': async () => ({ method: 'PATCH', path: '/files', body: { provided_mtime: '2026-01-02T03:04:05Z' } }),
  'GET /files/{path}': async (site, caller) => get(`/files/${enc((await home(site, caller).file()).file)}`),
  'DELETE /files/{path}': async (site, caller) => ({ method: 'DELETE', path: `/files/${enc((await home(site, caller).file()).file)}` }),
  'POST /files/{path}': async (site, caller) => ({ method: 'POST', path: `/files/${enc(`${home(site, caller).freePath()}.txt`)}`, body: { action: 'put' } }),
  'PUT /files/{path}': async (site, caller) => ({ method: 'PUT', path: `/files/${enc(`${home(site, caller).freePath()}.txt`)}`, rawBody: 'file words' }),
  'PATCH /files/{path}': async (site, caller) => ({ method: 'PATCH', path: `/files/${enc((await home(site, caller).file()).file)}`, body: { provided_mtime: '2026-01-02T03:04:05Z' } }),
  'GET /locks': async () => get('/locks?include_children=true'),
  'POST /locks': async () => ({ method: 'POST', path: '/locks', body: {} }),
  'DELETE /locks': async () => ({ method: 'DELETE', path: '/locks' }),
  'GET /locks/{path}': async (site, caller) => get(`/locks/${enc((await home(site, caller).file()).folder)}?include_children=true`),
  'POST /locks/{path}': async (site, caller) => ({ method: 'POST', path: `/locks/${enc((await home(site, caller).file()).file)}`, body: {} }),
  'DELETE /locks/{path}': async (site, caller) => {
    const { file, token } = await home(site, caller).lockedFile();
    return { method: 'DELETE', path: `/locks/${enc(file)}?token=${encodeURIComponent(token)}` };
  },
  'GET /trash': async () => get('/trash'),
  'GET /trash/{id}': async (site, caller) => get(`/trash/${await home(site, caller).trashed()}`),
  'POST /trash/{id}/restore': async (site, caller) => ({ method: 'POST', path: `/trash/${await home(site, caller).trashed()}/restore`, body: {} }),
  'DELETE /trash/{id}': async (site, caller) => ({ method: 'DELETE', path: `/trash/${await home(site, caller).trashed()}` }),
  'GET /file_versions': async (site, caller) => get(`/file_versions?path=${encodeURIComponent((await home(site, caller).versioned()).file)}`),
  'POST /file_versions/{id}/restore': async (site, caller) => ({ method: 'POST', path: `/file_versions/${(await home(site, caller).versioned()).versionId}/restore`, body: {} }),
  'GET /file_actions/metadata': async () => get('/file_actions/metadata'),
  'GET /file_actions/metadata/{path}': async (site, caller) => get(`/file_actions/metadata/${enc((await home(site, caller).file()).file)}`),
  'POST /file_actions/move/{path}': async (site, caller) => {
    const place = home(site, caller);
    return { method: 'POST', path: `/file_actions/move/${enc((await place.file()).file)}`, body: { destination: `${place.freePath()}.txt` } };
  },
  'POST /file_actions/copy/{path}': async (site, caller) => {
    const place = home(site, caller);
    return { method: 'POST', path: `/file_actions/copy/${enc((await place.file()).file)}`, body: { destination: `${place.freePath()}.txt` } };
  },
  'POST /file_actions/begin_upload/{path}': async (site, caller) => ({ method: 'POST', path: `/file_actions/begin_upload/${enc(`${home(site, caller).freePath()}.txt`)}`, body: {} }),
  'POST /file_actions/zip': async (site, caller) => ({ method: 'POST', path: '/file_actions/zip', body: { paths: [(await home(site, caller).file()).file] } }),
  'GET /downloads/{token}': async (site, caller) => {
    const place = home(site, caller);
    return get(await place.downloadPath((await place.file()).file));
  },
  'PUT /uploads/{token}': async (site, caller) => ({ method: 'PUT', path: await home(site, caller).uploadPath(), rawBody: 'part words' }),
  'GET /automations/webhook/{webhookId}/{secret}': async (site, caller) => get(`${await home(site, caller).webhookPath()}?name=x`),
  'POST /automations/webhook/{webhookId}/{secret}': async (site, caller) => ({ method: 'POST', path: await home(site, caller).webhookPath(), body: { name: 'x' } }),

  'GET /history': async () => get('/history'),
  'GET /history/login': async () => get('/history/login'),
  'GET /history/users/{user_id}': async (site, caller) => get(`/history/users/${(await home(site, caller).user()).id}`),
  'GET /history/folders': async () => get('/history/folders'),
  'GET /history/folders/{path}': async (site, caller) => get(`/history/folders/${enc((await home(site, caller).file()).folder)}`),
  'GET /history/files': async () => get('/history/files'),
  'GET /history/files/{path}': async (site, caller) => get(`/history/files/${enc((await home(site, caller).file()).file)}`),
  'POST /history_exports': async () => ({ method: 'POST', path: '/history_exports', body: {} }),
  'GET /history_exports/{id}': async (site, caller) => get(`/history_exports/${await ownHistoryExport(site, caller)}`),
  'GET /history_export_results': async (site, caller) => get(`/history_export_results?history_export_id=${await ownHistoryExport(site, caller)}`),
  'GET /history_exports/{id}/results.csv': async (site, caller) => get(`/history_exports/${await ownHistoryExport(site, caller)}/results.csv`),
  'GET /history_exports/{id}/results.jsonl': async (site, caller) => get(`/history_exports/${await ownHistoryExport(site, caller)}/results.jsonl`),
};
