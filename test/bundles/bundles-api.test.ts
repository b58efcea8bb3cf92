import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findBundleByCode, insertBundleAction, insertBundleDownload, insertBundleRegistration } from '../../src/bundles/index.js';
import type { HistoryRow } from '../../src/repositories/history.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createApiKey, createUser, unique } from '../support/factories.js';
import { fieldsNotOffered } from '../support/sdk-fields-doc.js';
import { buildSite, type SiteFixture } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The Bundle's fields as the Files.com SDKs document them (`docs/models/Bundle.md` of the npm SDK,
 * and the newer `internal_name`, `workspace_id`, `deleted`, `deleted_at`, `require_logout`,
 * `send_one_time_password_to_recipient_at_registration`, `requested_upload_slots`,
 * `bypasses_site_expiration_rules`, `group_id`). Each is returned, or listed as not offered under
 * `### Bundle` in docs/sdk-fields.md.
 */
const SDK_BUNDLE_FIELDS = [
  'id', 'code', 'url', 'description', 'internal_name', 'note', 'expires_at', 'start_access_on_date', 'max_uses', 'password_protected', 'permissions',
  'preview_only', 'require_registration', 'require_share_recipient', 'require_logout', 'send_one_time_password_to_recipient_at_registration', 'skip_name',
  'skip_email', 'skip_company', 'clickwrap_id', 'clickwrap_body', 'form_field_set_id', 'form_field_set', 'path_template', 'path_template_time_zone',
  'dont_separate_submissions_by_folder', 'dont_allow_folders_in_uploads', 'send_email_receipt_to_uploader', 'inbox_id', 'has_inbox', 'requested_upload_slots',
  'snapshot_id', 'watermark_attachment', 'watermark_value', 'bypasses_site_expiration_rules', 'user_id', 'username', 'group_id', 'created_at', 'deleted',
  'deleted_at', 'workspace_id', 'color_left', 'color_link', 'color_text', 'color_top', 'color_top_text', 'paths', 'bundlepaths',
];

const require = createRequire(import.meta.url);
const Files = require('files.com/lib/Files.js');
const { LogLevel } = require('files.com/lib/Logger.js');
const SdkBundle = require('files.com/lib/models/Bundle.js').default;
const SdkBundleRecipient = require('files.com/lib/models/BundleRecipient.js').default;
const SdkBundleRegistration = require('files.com/lib/models/BundleRegistration.js').default;
const SdkBundleDownload = require('files.com/lib/models/BundleDownload.js').default;
const SdkBundleAction = require('files.com/lib/models/BundleAction.js').default;

interface Member {
  user: { id: number; username: string };
  key: string;
}

/** /bundles and the records around them, through the REST API: every endpoint, every refusal, History, and the npm SDK. */
describe.each(testDatabaseTargets())('share links [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  /** A plain user of Workspace 1: Share on `Shared`, write on `Shared/Drop` too, full (no Share) on `Full`. */
  let sharer: Member;
  /** Another plain user of Workspace 1, with Share on `Shared` too. */
  let neighbour: Member;

  beforeAll(async () => {
    // The Files brand too, for the npm SDK's headers.
    t = await startTestApp(target, { brands: ['Service', 'Files'] });
    s = await buildSite(t);
    sharer = s.member1;
    const neighbourUser = await createUser(t.database.db, { workspaceId: s.ws1, username: unique('neighbour') });
    neighbour = { user: neighbourUser, key: await createApiKey(t.database.db, { userId: neighbourUser.id, workspaceId: s.ws1 }) };
    const admin = { key: s.admin1.key };
    for (const folder of ['Shared/Drop', 'Full', 'Secret']) expect((await t.api.post(`/folders/${folder}`, { mkdir_parents: true }, admin)).status).toBe(201);
    await putFile('Shared/report.txt');
    for (const [path, user, permission] of [
      ['Shared', sharer, 'bundle'], ['Shared/Drop', sharer, 'writeonly'], ['Full', sharer, 'full'], ['Shared', neighbour, 'bundle'],
    ] as const) expect((await t.api.post('/permissions', { path, user_id: user.user.id, permission }, admin)).status).toBe(201);
  });
  afterAll(() => t.close());
  // Site settings are the whole site's: each test that changes them puts them back.
  afterEach(async () => {
    await t.api.patch('/site', {
      sharing_enabled: true, bundle_expiration: null, bundle_password_required: false, bundle_require_registration: false, allow_bundle_names: false,
      revoke_bundle_access_on_disable_or_delete: true,
    }, { key: BOOTSTRAP_KEY });
  });

  async function putFile(path: string, key = s.admin1.key): Promise<void> {
    const response = await t.api.call('PUT', `/files/${encodeURIComponent(path)}`, { key, rawBody: 'shared words', headers: { 'content-type': 'application/octet-stream' } });
    expect(response.status).toBe(201);
  }
  const records = (action: string) => t.database.db.selectFrom('history').selectAll().where('action', '=', action).orderBy('id').execute();
  const targetsOf = (row: HistoryRow | undefined) => JSON.parse(row?.targets ?? 'null') as Record<string, unknown>;
  const create = (body: Record<string, unknown>, key = sharer.key) => t.api.post('/bundles', body, { key });
  const site = (settings: Record<string, unknown>) => t.api.patch('/site', settings, { key: BOOTSTRAP_KEY });

  it('creates a link of what its creator may share, every field returned, the password kept only as a hash, recorded', async () => {
    const password = 'correct horse link staple';
    const response = await create({
      paths: ['Shared/report.txt', '/Shared/Drop/'], password, description: 'For the auditors', internal_name: unique('Audit'), note: 'ask Ann first',
      expires_at: '2099-01-02T03:04:05Z', start_access_on_date: '2030-01-01T00:00:00Z', max_uses: 3, permissions: 'read', require_registration: true,
      skip_company: true, path_template: '{{name}}_{{ip}}', path_template_time_zone: 'Eastern Time (US & Canada)',
    });
    expect(response.status).toBe(201);
    const body = response.body;
    expect(body).toEqual({
      id: expect.any(Number), code: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), url: `${t.baseUrl}/f/${body.code}`, description: 'For the auditors',
      internal_name: expect.stringContaining('Audit'), note: 'ask Ann first', expires_at: '2099-01-02T03:04:05Z', start_access_on_date: '2030-01-01T00:00:00Z',
      max_uses: 3, password_protected: true, permissions: 'read', preview_only: false, require_registration: true, require_share_recipient: false,
      skip_name: false, skip_email: false, skip_company: true, path_template: '{{name}}_{{ip}}', path_template_time_zone: 'Eastern Time (US & Canada)',
      dont_separate_submissions_by_folder: false, dont_allow_folders_in_uploads: false, user_id: sharer.user.id, username: sharer.user.username,
      workspace_id: s.ws1, created_at: expect.any(String), deleted: false, deleted_at: null,
      paths: ['Shared/report.txt', 'Shared/Drop'], bundlepaths: [{ path: 'Shared/report.txt', recursive: false }, { path: 'Shared/Drop', recursive: true }],
    });
    expect(JSON.stringify(body)).not.toContain(password);
    const row = await t.database.db.selectFrom('bundles').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(row)).not.toContain(password);
    const paths = await t.database.db.selectFrom('bundle_paths').select(['path', 'recursive']).where('bundle_id', '=', body.id).orderBy('id').execute();
    expect(paths.map((p) => [p.path, Boolean(p.recursive)])).toEqual([[`_/Workspaces/${s.ws1}/Shared/report.txt`, false], [`_/Workspaces/${s.ws1}/Shared/Drop`, true]]);
    const recorded = (await records('bundle_create')).at(-1);
    expect(recorded).toMatchObject({ workspace_id: s.ws1, user_id: sharer.user.id, display: `Created share link ${body.internal_name}` });
    expect(targetsOf(recorded)).toMatchObject({ id: body.id, code: body.code, password_protected: true, paths: [`_/Workspaces/${s.ws1}/Shared/report.txt`, `_/Workspaces/${s.ws1}/Shared/Drop`] });
    expect(JSON.stringify(await records('bundle_create'))).not.toContain(password);
    expect((await t.api.get(`/bundles/${body.id}`, { key: sharer.key })).body).toEqual(body);
  });

  it('returns every field the SDK documents, or lists it as not offered', async () => {
    const body = (await create({ paths: ['Shared'] })).body as Record<string, unknown>;
    const notOffered = fieldsNotOffered('Bundle');
    const missing = SDK_BUNDLE_FIELDS.filter((field) => !(field in body) && !notOffered.has(field));
    expect(missing).toEqual([]);
    expect([...notOffered].filter((field) => field in body)).toEqual([]);
    expect(body).toMatchObject({ password_protected: false, permissions: 'read', require_registration: false, expires_at: null, description: null });
  });

  it('refuses what its creator may not share: a missing or hidden path, no Share, an upload link without write', async () => {
    const before = (await records('bundle_create')).length;
    const cases: [Record<string, unknown>, number, string][] = [
      [{ paths: ['Shared/nothing-here.txt'] }, 404, 'not-found/bundle-path-not-found'],
      // Hidden from the sharer: answered as missing.
      [{ paths: ['Secret'] }, 404, 'not-found/bundle-path-not-found'],
      [{ paths: ['Full'] }, 403, 'not-authorized/bundle-permission-required'],
      [{ paths: ['Full'], permissions: 'write' }, 403, 'not-authorized/bundle-permission-required'],
      [{ paths: ['Shared'], permissions: 'write' }, 403, 'not-authorized/write-and-bundle-permission-required'],
      [{ paths: ['Shared'], permissions: 'read_write' }, 403, 'not-authorized/write-and-bundle-permission-required'],
      [{ paths: ['Shared/Drop', 'Shared'], permissions: 'full' }, 403, 'not-authorized/write-and-bundle-permission-required'],
      [{ paths: ['Shared/report.txt', 'Full'] }, 403, 'not-authorized/bundle-permission-required'],
    ];
    for (const [body, status, type] of cases) {
      const response = await create(body);
      expect({ body, status: response.status, type: response.body.type }).toEqual({ body, status, type });
    }
    // With Share and write on it, the drop folder takes an upload link.
    for (const permissions of ['write', 'read_write', 'full']) {
      expect((await create({ paths: ['Shared/Drop'], permissions })).body).toMatchObject({ permissions, paths: ['Shared/Drop'] });
    }
    expect((await create({ paths: ['Shared'], permissions: 'preview_only' })).body).toMatchObject({ permissions: 'preview_only', preview_only: true });
    expect((await records('bundle_create')).length).toBe(before + 4);
    // An administrator of the Workspace shares anything in it.
    expect((await create({ paths: ['Secret', 'Full'], permissions: 'full' }, s.admin1.key)).status).toBe(201);
  });

  it('refuses what is missing or malformed, naming the parameter', async () => {
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{}, 400, 'bad-request/request-params-required', 'paths'],
      [{ paths: [] }, 400, 'bad-request/request-params-required', 'paths'],
      [{ paths: ['Shared'], permissions: 'none' }, 422, 'processing-failure/model-save-error', 'permissions'],
      [{ paths: ['Shared'], permissions: 'everything' }, 400, 'bad-request/request-params-invalid', 'permissions'],
      [{ paths: ['Shared'], expires_at: 'tomorrow' }, 400, 'bad-request/request-params-invalid', 'expires_at'],
      [{ paths: ['Shared'], start_access_on_date: '2030-02-30T00:00:00Z' }, 400, 'bad-request/request-params-invalid', 'start_access_on_date'],
      [{ paths: ['Shared'], expires_at: '2030-01-01T00:00:00Z', start_access_on_date: '2031-01-01T00:00:00Z' }, 422, 'processing-failure/model-save-error', 'start_access_on_date'],
      [{ paths: ['Shared'], max_uses: 0 }, 400, 'bad-request/request-params-invalid', 'max_uses'],
      [{ paths: ['Shared'], path_template_time_zone: 'Mars/Olympus_Mons' }, 400, 'bad-request/request-params-invalid', 'path_template_time_zone'],
      [{ paths: ['Shared'], require_share_recipient: true }, 422, 'processing-failure/model-save-error', 'require_share_recipient'],
      [{ paths: ['Shared'], clickwrap_id: 1 }, 400, 'bad-request/request-params-invalid', 'clickwrap_id'],
      [{ paths: ['Shared/../Secret'] }, 400, 'bad-request/invalid-path', 'paths'],
      [{ paths: [''] }, 400, 'bad-request/request-params-invalid', 'paths'],
      [{ paths: ['Shared'], user_id: s.member2.user.id }, 403, 'not-authorized/insufficient-permission-for-params', 'user_id'],
    ];
    for (const [body, status, type, field] of cases) {
      const response = await create(body);
      expect({ body, status: response.status, type: response.body.type, named: JSON.stringify(response.body).includes(field) }).toEqual({ body, status, type, named: true });
    }
    // A site-wide key has no user: it names the one the link belongs to.
    const bySiteKey = await t.api.post('/bundles', { paths: ['Shared'] }, { key: BOOTSTRAP_KEY, workspace: s.ws1 });
    expect([bySiteKey.status, bySiteKey.body.type]).toEqual([400, 'bad-request/request-params-required']);
    const forSharer = await t.api.post('/bundles', { paths: ['Shared'], user_id: sharer.user.id }, { key: BOOTSTRAP_KEY, workspace: s.ws1 });
    expect(forSharer.body).toMatchObject({ user_id: sharer.user.id, workspace_id: s.ws1 });
    // What the named user may not share, the administrator cannot share for it.
    const refused = await t.api.post('/bundles', { paths: ['Secret'], user_id: sharer.user.id }, { key: s.admin1.key });
    expect([refused.status, refused.body.type]).toEqual([404, 'not-found/bundle-path-not-found']);
  });

  it('lets the creator and the Workspace\'s administrators see, change and delete a link; to anyone else it does not exist', async () => {
    const own = (await create({ paths: ['Shared'], internal_name: unique('mine') })).body;
    const neighbours = (await create({ paths: ['Shared'] }, neighbour.key)).body;
    for (const [id, key] of [[own.id, neighbour.key], [own.id, s.member2.key], [own.id, s.delegate.key], [neighbours.id, sharer.key]] as const) {
      for (const response of [
        await t.api.get(`/bundles/${id}`, { key }),
        await t.api.patch(`/bundles/${id}`, { note: 'x' }, { key }),
        await t.api.delete(`/bundles/${id}`, { key }),
        await t.api.post(`/bundles/${id}/share`, { to: ['a@example.com'] }, { key }),
        await t.api.get(`/bundle_recipients?bundle_id=${id}`, { key }),
        await t.api.get(`/bundle_registrations?bundle_id=${id}`, { key }),
        await t.api.get(`/bundle_actions?bundle_id=${id}`, { key }),
        await t.api.get(`/bundle_downloads?bundle_id=${id}`, { key }),
      ]) expect([response.status, response.body.type, response.body.error]).toEqual([404, 'not-found', 'Bundle not found.']);
    }
    const ids = (response: { body: { id: number }[] }) => response.body.map((b) => b.id);
    const bySharer = await t.api.get('/bundles?per_page=1000', { key: sharer.key });
    expect(ids(bySharer)).toContain(own.id);
    expect(ids(bySharer)).not.toContain(neighbours.id);
    expect(bySharer.body.every((b: { user_id: number }) => b.user_id === sharer.user.id)).toBe(true);
    const byAdmin = await t.api.get('/bundles?per_page=1000', { key: s.admin1.key });
    expect(ids(byAdmin)).toEqual(expect.arrayContaining([own.id, neighbours.id]));
    // A listing leaves the paths out, as Files.com's does.
    expect(byAdmin.body.every((b: Record<string, unknown>) => !('paths' in b) && !('bundlepaths' in b))).toBe(true);
    expect((await t.api.get('/bundles', { key: s.delegate.key, workspace: s.ws2 })).body.map((b: { workspace_id: number }) => b.workspace_id).every((w: number) => w === s.ws2)).toBe(true);
    // The Workspace's administrator changes and deletes the sharer's link.
    expect((await t.api.patch(`/bundles/${own.id}`, { note: 'seen by the admin' }, { key: s.admin1.key })).body.note).toBe('seen by the admin');
    expect((await t.api.delete(`/bundles/${own.id}`, { key: s.admin1.key })).status).toBe(204);
    expect((await t.api.get(`/bundles/${own.id}`, { key: sharer.key })).status).toBe(404);
    expect(targetsOf((await records('bundle_destroy')).at(-1))).toMatchObject({ id: own.id, code: own.code });
    expect((await t.api.delete(`/bundles/${neighbours.id}`, { key: neighbour.key })).status).toBe(204);
  });

  it('changes what is sent, checks new paths and permissions again, records the change; what is sent back unchanged changes nothing', async () => {
    const made = (await create({ paths: ['Shared/report.txt'], description: 'first', password: 'first password here' })).body;
    const changed = await t.api.patch(`/bundles/${made.id}`, { description: 'second', paths: ['Shared/Drop'], permissions: 'write', max_uses: null }, { key: sharer.key });
    expect(changed.body).toMatchObject({ description: 'second', paths: ['Shared/Drop'], permissions: 'write', password_protected: true, code: made.code });
    const recorded = (await records('bundle_update')).at(-1);
    expect(targetsOf(recorded)).toMatchObject({
      id: made.id, changed: ['description', 'permissions', 'paths'],
      before: { description: 'first', permissions: 'read', paths: [`_/Workspaces/${s.ws1}/Shared/report.txt`] },
      after: { description: 'second', permissions: 'write', paths: [`_/Workspaces/${s.ws1}/Shared/Drop`] },
    });
    // Taking uploads into a folder without write, or a path without Share, is refused; nothing changes.
    for (const [body, type] of [
      [{ paths: ['Shared'] }, 'not-authorized/write-and-bundle-permission-required'],
      [{ paths: ['Full'], permissions: 'read' }, 'not-authorized/bundle-permission-required'],
      [{ paths: ['Shared/gone'] }, 'not-found/bundle-path-not-found'],
    ] as const) expect((await t.api.patch(`/bundles/${made.id}`, body, { key: sharer.key })).body.type).toBe(type);
    expect((await t.api.get(`/bundles/${made.id}`, { key: sharer.key })).body.paths).toEqual(['Shared/Drop']);
    // A new password replaces the old as a hash, recorded as the word; an empty one removes it.
    const hashBefore = (await t.database.db.selectFrom('bundles').select('password_hash').where('id', '=', made.id).executeTakeFirstOrThrow()).password_hash;
    await t.api.patch(`/bundles/${made.id}`, { password: 'second password here' }, { key: sharer.key });
    const hashAfter = (await t.database.db.selectFrom('bundles').select('password_hash').where('id', '=', made.id).executeTakeFirstOrThrow()).password_hash;
    expect(hashAfter).not.toBe(hashBefore);
    expect(targetsOf((await records('bundle_update')).at(-1))).toMatchObject({ changed: ['password'] });
    expect(JSON.stringify(await records('bundle_update'))).not.toContain('second password here');
    expect((await t.api.patch(`/bundles/${made.id}`, { password: '' }, { key: sharer.key })).body.password_protected).toBe(false);
    // The SDK's save() sends every field back: nothing changes, nothing is recorded.
    const shown = (await t.api.get(`/bundles/${made.id}`, { key: sharer.key })).body;
    const count = (await records('bundle_update')).length;
    const same = await t.api.put(`/bundles/${made.id}`, shown, { key: sharer.key });
    expect([same.status, same.body]).toEqual([200, shown]);
    expect((await records('bundle_update')).length).toBe(count);
  });

  it('makes codes of 128 random bits; a chosen code only where the site allows it, and each code once, whatever its case', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 5; i += 1) codes.add((await create({ paths: ['Shared'] })).body.code);
    expect(codes.size).toBe(5);
    const chosen = unique('Quarterly').replace(/[^A-Za-z0-9_-]/g, '');
    const refused = await create({ paths: ['Shared'], code: chosen });
    expect([refused.status, refused.body.type]).toEqual([403, 'not-authorized/insufficient-permission-for-params']);
    await site({ allow_bundle_names: true });
    const named = await create({ paths: ['Shared'], code: chosen });
    expect(named.body).toMatchObject({ code: chosen, url: `${t.baseUrl}/f/${chosen}` });
    for (const taken of [chosen, chosen.toLowerCase(), chosen.toUpperCase()]) {
      const again = await create({ paths: ['Shared'], code: taken }, neighbour.key);
      expect([again.status, again.body.type, Object.keys(again.body.model_errors)]).toEqual([422, 'processing-failure/model-save-error', ['code']]);
    }
    for (const bad of ['abc', 'has space', 'slash/es', 'x'.repeat(101)]) {
      const response = await create({ paths: ['Shared'], code: bad });
      expect([response.status, response.body.type]).toEqual([422, 'processing-failure/invalid-bundle-code']);
    }
    // Renamed where allowed; sent back unchanged once names are no longer allowed, it is kept.
    const renamed = await t.api.patch(`/bundles/${named.body.id}`, { code: `${chosen}-2` }, { key: sharer.key });
    expect(renamed.body.code).toBe(`${chosen}-2`);
    await site({ allow_bundle_names: false });
    expect((await t.api.patch(`/bundles/${named.body.id}`, { code: `${chosen}-2`, note: 'kept' }, { key: sharer.key })).body).toMatchObject({ code: `${chosen}-2`, note: 'kept' });
    expect((await t.api.patch(`/bundles/${named.body.id}`, { code: `${chosen}-3` }, { key: sharer.key })).status).toBe(403);
  });

  it('follows the site settings: sharing off, an expiry by default and at most, a password and registration required', async () => {
    await site({ sharing_enabled: false });
    const off = await create({ paths: ['Shared'] });
    expect([off.status, off.body.type, off.body.error]).toEqual([403, 'not-authorized/not-allowed-to-create-bundle', expect.stringContaining('sharing_enabled')]);
    await site({ sharing_enabled: true, bundle_expiration: 7, bundle_password_required: true, bundle_require_registration: true });
    const noPassword = await create({ paths: ['Shared'] });
    expect([noPassword.status, Object.keys(noPassword.body.model_errors)]).toEqual([422, ['password']]);
    const made = await create({ paths: ['Shared'], password: 'a required password' });
    expect(made.body).toMatchObject({ expires_at: new Date(t.clock.now() + 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'), require_registration: true, password_protected: true });
    for (const [body, field] of [
      [{ expires_at: new Date(t.clock.now() + 8 * 86_400_000).toISOString() }, 'expires_at'],
      [{ expires_at: null }, 'expires_at'],
      [{ require_registration: false }, 'require_registration'],
      [{ password: '' }, 'password'],
    ] as const) {
      const refused = await t.api.patch(`/bundles/${made.body.id}`, body, { key: sharer.key });
      expect([refused.status, refused.body.type, Object.keys(refused.body.model_errors)]).toEqual([422, 'processing-failure/model-save-error', [field]]);
    }
    expect((await create({ paths: ['Shared'], password: 'p', expires_at: new Date(t.clock.now() + 86_400_000).toISOString() })).status).toBe(201);
    const settings = (await t.api.get('/site', { key: BOOTSTRAP_KEY })).body;
    expect(settings).toMatchObject({ sharing_enabled: true, bundle_expiration: 7, bundle_password_required: true, bundle_require_registration: true, allow_bundle_names: false, revoke_bundle_access_on_disable_or_delete: true });
    expect((await site({ bundle_expiration: 0 })).status).toBe(400);
  });

  it('lists with cursors, sorted by expires_at, filtered as the SDK asks, refusing other fields by name', async () => {
    const made = [];
    for (const expires of ['2031-01-01T00:00:00Z', null, '2030-01-01T00:00:00Z']) made.push((await create({ paths: ['Shared'], expires_at: expires }, neighbour.key)).body);
    const ids = made.map((b) => b.id as number);
    const list = (query: string) => t.api.get(`/bundles?${query}`, { key: neighbour.key });
    const ours = (response: { body: { id: number }[] }) => response.body.map((b) => b.id).filter((id) => ids.includes(id));
    expect(ours(await list('sort_by[expires_at]=asc&per_page=1000'))).toEqual([ids[2], ids[0], ids[1]]);
    const first = await list('sort_by[expires_at]=desc&per_page=2');
    expect(first.body.map((b: { id: number }) => b.id)).toEqual([ids[1], ids[0]]);
    const cursor = first.headers.get('x-files-cursor');
    expect(cursor).toBeTruthy();
    const second = await list(`sort_by[expires_at]=desc&per_page=2&cursor=${encodeURIComponent(cursor as string)}`);
    expect(second.body[0].id).toBe(ids[2]);
    expect(ours(await list(`filter[code]=${made[0].code}`))).toEqual([ids[0]]);
    expect(ours(await list(`filter_prefix[code]=${encodeURIComponent(made[2].code.slice(0, 10))}`))).toEqual([ids[2]]);
    expect(ours(await list('filter[expires_at]=2030-01-01T00:00:00Z'))).toEqual([ids[2]]);
    expect(ours(await list('filter_gt[expires_at]=2030-06-01T00:00:00Z'))).toEqual([ids[0]]);
    expect(ours(await list('filter_lteq[expires_at]=2031-01-01T00:00:00Z'))).toEqual([ids[0], ids[2]]);
    expect(ours(await list('filter_gteq[created_at]=2000-01-01T00:00:00Z'))).toEqual(ids);
    expect((await list('filter_lt[created_at]=2000-01-01T00:00:00Z')).body).toEqual([]);
    expect(ours(await list(`filter[user_id]=${neighbour.user.id}&user_id=0`))).toEqual(ids);
    expect((await list(`filter[user_id]=${sharer.user.id}`)).body).toEqual([]);
    // An administrator lists one creator's links.
    expect((await t.api.get(`/bundles?user_id=${neighbour.user.id}&per_page=1000`, { key: s.admin1.key })).body.every((b: { user_id: number }) => b.user_id === neighbour.user.id)).toBe(true);
    for (const [query, type] of [
      ['sort_by[code]=asc', 'bad-request/invalid-sort-field'], ['filter[group_id]=1', 'bad-request/invalid-filter-field'],
      ['filter_prefix[description]=x', 'bad-request/invalid-filter-field'], ['filter_gt[max_uses]=1', 'bad-request/invalid-filter-field'],
    ] as const) expect((await list(query)).body.type).toBe(type);
  });

  it('records the people a link is shared with, once each, with no mail sent, and lists them', async () => {
    const made = (await create({ paths: ['Shared'], internal_name: unique('Shared with') })).body;
    const shared = await t.api.post(`/bundles/${made.id}/share`, {
      to: ['ann@example.com', 'ANN@example.com'], recipients: [{ name: 'Bob', company: 'Acme', recipient: 'bob@example.com' }], note: 'the files',
    }, { key: sharer.key });
    expect([shared.status, shared.text]).toEqual([204, '']);
    const listed = await t.api.get(`/bundle_recipients?bundle_id=${made.id}`, { key: sharer.key });
    expect(listed.body).toEqual([
      { id: expect.any(Number), bundle_id: made.id, recipient: 'ann@example.com', name: null, company: null, note: 'the files', sent_at: null, created_at: expect.any(String), workspace_id: s.ws1 },
      { id: expect.any(Number), bundle_id: made.id, recipient: 'bob@example.com', name: 'Bob', company: 'Acme', note: 'the files', sent_at: null, created_at: expect.any(String), workspace_id: s.ws1 },
    ]);
    expect(targetsOf((await records('bundle_share')).at(-1))).toMatchObject({ id: made.id, recipients: [{ recipient: 'ann@example.com' }, { recipient: 'bob@example.com', name: 'Bob', company: 'Acme' }] });
    // Sharing again with the same people records nothing more.
    const count = (await records('bundle_share')).length;
    expect((await t.api.post(`/bundles/${made.id}/share`, { to: ['Bob@Example.com'] }, { key: sharer.key })).status).toBe(204);
    expect((await records('bundle_share')).length).toBe(count);
    const one = await t.api.post('/bundle_recipients', { bundle_id: made.id, recipient: 'cy@example.com', name: 'Cy', share_after_create: true }, { key: s.admin1.key });
    expect([one.status, one.body]).toEqual([201, expect.objectContaining({ recipient: 'cy@example.com', name: 'Cy', sent_at: null, bundle_id: made.id })]);
    const twice = await t.api.post('/bundle_recipients', { bundle_id: made.id, recipient: 'CY@example.com' }, { key: sharer.key });
    expect([twice.status, twice.body.type]).toEqual([422, 'processing-failure/recipient-already-shared']);
    for (const [body, type] of [
      [{}, 'bad-request/request-params-required'], [{ to: ['not an address'] }, 'bad-request/request-params-invalid'],
      [{ recipients: [{ name: 'no address' }] }, 'bad-request/request-params-required'],
    ] as const) expect((await t.api.post(`/bundles/${made.id}/share`, body, { key: sharer.key })).body.type).toBe(type);
    const paged = await t.api.get(`/bundle_recipients?bundle_id=${made.id}&per_page=2`, { key: sharer.key });
    const cursor = paged.headers.get('x-files-cursor') as string;
    expect((await t.api.get(`/bundle_recipients?bundle_id=${made.id}&per_page=2&cursor=${encodeURIComponent(cursor)}`, { key: sharer.key })).body.map((r: { recipient: string }) => r.recipient)).toEqual(['cy@example.com']);
    expect((await t.api.get(`/bundle_recipients?bundle_id=${made.id}&filter[has_registrations]=true`, { key: sharer.key })).body).toEqual([]);
    expect((await t.api.get('/bundle_recipients', { key: sharer.key })).body.type).toBe('bad-request/request-params-required');
    await site({ sharing_enabled: false });
    expect((await t.api.post(`/bundles/${made.id}/share`, { to: ['dee@example.com'] }, { key: sharer.key })).body.type).toBe('not-authorized/not-allowed-to-create-bundle');
  });

  it('lists what visitors did (written by the public page) to the link\'s creator and administrators', async () => {
    const made = (await create({ paths: ['Shared'], permissions: 'read' })).body;
    const other = (await create({ paths: ['Shared'] }, neighbour.key)).body;
    const db = t.database.db;
    await t.api.post(`/bundles/${made.id}/share`, { to: ['eve@example.com'] }, { key: sharer.key });
    const recipient = (await db.selectFrom('bundle_recipients').select('id').where('bundle_id', '=', made.id).executeTakeFirstOrThrow()).id;
    const now = t.clock.now();
    const registration = await insertBundleRegistration(db, {
      bundleId: made.id, workspaceId: s.ws1, bundleRecipientId: recipient, code: unique('reg'), name: 'Eve', email: 'eve@example.com', company: 'Evil', ip: '192.0.2.1', now,
    });
    await insertBundleRegistration(db, { bundleId: other.id, workspaceId: s.ws1, bundleRecipientId: null, code: unique('reg'), name: 'Mal', email: null, company: null, ip: null, now });
    await insertBundleAction(db, { bundleId: made.id, workspaceId: s.ws1, bundleRegistrationId: registration.id, action: 'read', path: `_/Workspaces/${s.ws1}/Shared/report.txt`, now });
    await insertBundleDownload(db, { bundleId: made.id, workspaceId: s.ws1, bundleRegistrationId: registration.id, downloadMethod: 'file', path: `_/Workspaces/${s.ws1}/Shared/report.txt`, now });
    await insertBundleDownload(db, { bundleId: made.id, workspaceId: s.ws1, bundleRegistrationId: null, downloadMethod: 'full_zip', path: null, now });

    const registrationBody = {
      id: registration.id, code: registration.code, name: 'Eve', company: 'Evil', email: 'eve@example.com', ip: '192.0.2.1', inbox_code: null, clickwrap_body: null,
      form_field_set_id: null, form_field_data: null, bundle_code: made.code, bundle_id: made.id, bundle_recipient_id: recipient, workspace_id: s.ws1, created_at: expect.any(String),
    };
    expect((await t.api.get(`/bundle_registrations?bundle_id=${made.id}`, { key: sharer.key })).body).toEqual([registrationBody]);
    // Without a link named: those of every link the caller sees.
    const bySharer = (await t.api.get('/bundle_registrations?per_page=1000', { key: sharer.key })).body as { bundle_id: number }[];
    expect(bySharer.map((r) => r.bundle_id)).toContain(made.id);
    expect(bySharer.map((r) => r.bundle_id)).not.toContain(other.id);
    expect((await t.api.get('/bundle_registrations?per_page=1000', { key: s.admin1.key })).body.map((r: { bundle_id: number }) => r.bundle_id)).toEqual(expect.arrayContaining([made.id, other.id]));
    expect((await t.api.get(`/bundle_registrations?user_id=${neighbour.user.id}`, { key: sharer.key })).body).toEqual([]);
    expect((await t.api.get(`/bundle_recipients?bundle_id=${made.id}&filter[has_registrations]=true`, { key: sharer.key })).body.map((r: { id: number }) => r.id)).toEqual([recipient]);

    expect((await t.api.get(`/bundle_actions?bundle_id=${made.id}`, { key: sharer.key })).body).toEqual([{
      id: expect.any(Number), bundle_id: made.id, action: 'read', bundle_registration: registrationBody, bundle_registration_id: registration.id,
      bundle_registration_name: 'Eve', bundle_registration_email: 'eve@example.com', bundle_registration_ip: '192.0.2.1', path: 'Shared/report.txt', source: null,
      destination: null, form_field_set_id: null, form_field_data: null, workspace_id: s.ws1, created_at: expect.any(String),
    }]);
    const downloads = await t.api.get(`/bundle_downloads?bundle_id=${made.id}`, { key: s.admin1.key });
    expect(downloads.body.map((d: { download_method: string; path: string | null }) => [d.download_method, d.path])).toEqual([['file', 'Shared/report.txt'], ['full_zip', null]]);
    expect((await t.api.get(`/bundle_downloads?bundle_id=${made.id}&bundle_registration_id=${registration.id}`, { key: sharer.key })).body).toHaveLength(1);
    expect((await t.api.get(`/bundle_downloads?bundle_id=${made.id}&filter_lt[created_at]=2000-01-01T00:00:00Z`, { key: sharer.key })).body).toEqual([]);
    expect((await t.api.get(`/bundle_actions?filter[bundle_id]=${made.id}&filter[bundle_registration_id]=${registration.id}`, { key: sharer.key })).body).toHaveLength(1);
    expect((await t.api.get('/bundle_actions?sort_by[created_at]=asc', { key: sharer.key })).body.type).toBe('bad-request/invalid-sort-field');
    // Deleting the link takes its record with it.
    await t.api.delete(`/bundles/${made.id}`, { key: sharer.key });
    expect(await db.selectFrom('bundle_downloads').select('id').where('bundle_id', '=', made.id).execute()).toEqual([]);
  });

  it('ends a deleted creator\'s links, kept for the administrators; a disabled creator\'s while the site revokes them', async () => {
    const creator = await createUser(t.database.db, { workspaceId: s.ws1, username: unique('leaver') });
    await t.api.post('/permissions', { path: 'Shared', user_id: creator.id, permission: 'bundle' }, { key: s.admin1.key });
    const key = await createApiKey(t.database.db, { userId: creator.id, workspaceId: s.ws1 });
    const made = (await create({ paths: ['Shared'], start_access_on_date: null }, key)).body;
    const now = t.clock.now();
    expect((await findBundleByCode(t.database.db, made.code, now))?.closed).toBeNull();
    expect(await findBundleByCode(t.database.db, made.code.toUpperCase() === made.code ? made.code.toLowerCase() : made.code.toUpperCase(), now)).toBeUndefined();
    expect((await t.api.patch(`/users/${creator.id}`, { disabled: true }, { key: s.admin1.key })).status).toBe(200);
    expect((await findBundleByCode(t.database.db, made.code, now))?.closed).toBe('creator_disabled');
    await site({ revoke_bundle_access_on_disable_or_delete: false });
    expect((await findBundleByCode(t.database.db, made.code, now))?.closed).toBeNull();
    expect((await t.api.delete(`/users/${creator.id}`, { key: s.admin1.key })).status).toBe(204);
    expect((await findBundleByCode(t.database.db, made.code, now))?.closed).toBe('creator_deleted');
    const kept = await t.api.get(`/bundles/${made.id}`, { key: s.admin1.key });
    expect(kept.body).toMatchObject({ id: made.id, user_id: null, username: null });
    // Handed to another user, who may share its paths, it works again.
    const handed = await t.api.patch(`/bundles/${made.id}`, { user_id: sharer.user.id }, { key: s.admin1.key });
    expect(handed.body).toMatchObject({ user_id: sharer.user.id });
    expect((await findBundleByCode(t.database.db, made.code, now))?.closed).toBeNull();
    // Expired and not yet started links are closed too.
    await t.api.patch(`/bundles/${made.id}`, { expires_at: new Date(now - 1000).toISOString() }, { key: s.admin1.key });
    expect((await findBundleByCode(t.database.db, made.code, now))?.closed).toBe('expired');
  });

  it('keeps a Workspace that holds links from being deleted', async () => {
    const workspace = (await t.api.post('/workspaces', { name: unique('ws') }, { key: BOOTSTRAP_KEY })).body;
    const user = await createUser(t.database.db, { workspaceId: workspace.id, workspaceAdmin: true });
    await t.api.post('/folders/x', {}, { key: BOOTSTRAP_KEY, workspace: workspace.id });
    const made = (await t.api.post('/bundles', { paths: ['x'], user_id: user.id }, { key: BOOTSTRAP_KEY, workspace: workspace.id })).body;
    const refused = await t.api.delete(`/workspaces/${workspace.id}`, { key: BOOTSTRAP_KEY });
    expect([refused.status, refused.body.error]).toEqual([422, expect.stringContaining('1 bundles')]);
    expect((await t.api.delete(`/bundles/${made.id}`, { key: BOOTSTRAP_KEY, workspace: workspace.id })).status).toBe(204);
  });

  it('works with the npm SDK unchanged: create, list, find, update, share, recipients, records, delete', async () => {
    Files.setBaseUrl(t.baseUrl);
    Files.setApiKey(sharer.key);
    Files.setLogLevel(LogLevel.NONE);
    const made = await SdkBundle.create({ paths: ['Shared/report.txt'], description: 'by the SDK', password: 'sdk link password', expires_at: '2099-01-01T00:00:00Z' });
    expect(made.attributes).toMatchObject({ description: 'by the SDK', password_protected: true, paths: ['Shared/report.txt'], user_id: sharer.user.id });
    const listed = await SdkBundle.list({ per_page: 100 });
    expect(listed.map((b: { attributes: { id: number } }) => b.attributes.id)).toContain(made.attributes.id);
    const found = await SdkBundle.find(made.attributes.id);
    expect(found.attributes.code).toBe(made.attributes.code);
    const updated = await found.update({ note: 'changed by the SDK' });
    expect(updated.attributes.note).toBe('changed by the SDK');
    found.attributes.description = 'saved by the SDK';
    await found.save();
    expect((await t.api.get(`/bundles/${made.attributes.id}`, { key: sharer.key })).body.description).toBe('saved by the SDK');
    await found.share({ to: ['sdk@example.com'], note: 'from the SDK' });
    await SdkBundleRecipient.create({ bundle_id: made.attributes.id, recipient: 'sdk2@example.com', name: 'Second' });
    const recipients = await SdkBundleRecipient.list({ bundle_id: made.attributes.id });
    expect(recipients.map((r: { attributes: { recipient: string } }) => r.attributes.recipient)).toEqual(['sdk@example.com', 'sdk2@example.com']);
    expect(await SdkBundleRegistration.list({ bundle_id: made.attributes.id })).toEqual([]);
    expect(await SdkBundleDownload.list({ bundle_id: made.attributes.id })).toEqual([]);
    expect(await SdkBundleAction.list({ bundle_id: made.attributes.id })).toEqual([]);
    await found.delete();
    expect((await t.api.get(`/bundles/${made.attributes.id}`, { key: sharer.key })).status).toBe(404);
  });
});
