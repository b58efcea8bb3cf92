import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryRow } from '../../src/repositories/history.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createGroup, createUser, unique } from '../support/factories.js';
import { buildSite, type SiteFixture } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { allPages } from '../support/all-pages.js';
import { fieldsNotOffered } from '../support/sdk-fields-doc.js';

/**
 * The Partner's fields as the Files.com SDKs that know Partners declare them (`docs/models/Partner.md`
 * of files-sdk-javascript, 2026-08; the npm SDK 1.2.314 has no Partner model, so the list is kept
 * here). Each is returned, or listed as not offered under `### Partner` in docs/sdk-fields.md.
 */
const SDK_PARTNER_FIELDS = [
  'id', 'name', 'root_folder', 'workspace_id', 'notes', 'tags', 'allowed_ips', 'allow_bypassing_2fa_policies', 'allow_credential_changes',
  'allow_providing_gpg_keys', 'allow_user_creation', 'cc_emails_to_responsible_party', 'responsible_user_id', 'responsible_group_id',
  'partner_admin_ids', 'user_ids', 'partnership_role', 'ai_assistant_personality_id', 'partner_channel_template_id', 'show_partner_channel_home_page',
];

const require = createRequire(import.meta.url);
const Files = require('files.com/lib/Files.js');
const { LogLevel } = require('files.com/lib/Logger.js');
const SdkUser = require('files.com/lib/models/User.js').default;

/** /partners through the REST API: every endpoint, every refusal, and what History records. */
describe.each(testDatabaseTargets())('partners [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  beforeAll(async () => {
    // The Files brand too, for the npm SDK's headers.
    t = await startTestApp(target, { brands: ['Service', 'Files'] });
    s = await buildSite(t);
  });
  afterAll(() => t.close());

  const records = (action: string) => t.database.db.selectFrom('history').selectAll().where('action', '=', action).orderBy('id').execute();
  const targetsOf = (row: HistoryRow | undefined) => JSON.parse(row?.targets ?? 'null') as Record<string, unknown>;
  const entry = (path: string) => t.database.db.selectFrom('entries').select(['path', 'type']).where('path_key', '=', path.toLowerCase()).executeTakeFirst();
  const create = (body: Record<string, unknown>, key = s.admin1.key) => t.api.post('/partners', body, { key });

  it('creates a Partner in the Workspace of the request, with its root folder, every field returned and recorded', async () => {
    const name = unique('Acme');
    const response = await create({
      name, root_folder: 'Partners/Acme', notes: 'pays late', tags: 'supplier, eu', allowed_ips: '10.0.0.0/8\n192.0.2.7',
      allow_user_creation: true, allow_credential_changes: true, responsible_user_id: s.member1.user.id,
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number), name, root_folder: 'Partners/Acme', workspace_id: s.ws1, notes: 'pays late', tags: 'supplier,eu',
      allowed_ips: '10.0.0.0/8\n192.0.2.7', allow_bypassing_2fa_policies: false, allow_credential_changes: true, allow_providing_gpg_keys: false,
      allow_user_creation: true, cc_emails_to_responsible_party: false, responsible_user_id: s.member1.user.id, responsible_group_id: null,
      partner_admin_ids: [], user_ids: [], partnership_role: null,
    });
    expect(await entry(`_/Workspaces/${s.ws1}/Partners/Acme`)).toEqual({ path: `_/Workspaces/${s.ws1}/Partners/Acme`, type: 'directory' });
    const recorded = (await records('partner_create')).at(-1);
    expect(recorded).toMatchObject({ workspace_id: s.ws1, user_id: s.admin1.user.id, display: `Created Partner ${name}` });
    expect(targetsOf(recorded)).toMatchObject({ id: response.body.id, name, root_folder: 'Partners/Acme', allow_user_creation: true });
    // Notes are for fewer readers than History has.
    expect(recorded?.targets).not.toContain('pays late');
    const folders = (await records('create')).filter((row) => row.path?.startsWith(`_/Workspaces/${s.ws1}/Partners`)).map((row) => row.path);
    expect(folders).toEqual([`_/Workspaces/${s.ws1}/Partners`, `_/Workspaces/${s.ws1}/Partners/Acme`]);
    // An existing folder is taken as it is spelt.
    const again = await create({ name: unique('Beta'), root_folder: 'partners/ACME' });
    expect(again.body.root_folder).toBe('Partners/Acme');
  });

  it('refuses what is missing or malformed, naming the parameter', async () => {
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ root_folder: 'x' }, 400, 'bad-request/request-params-required', 'name'],
      [{ name: unique('p') }, 400, 'bad-request/request-params-required', 'root_folder'],
      [{ name: unique('p'), root_folder: 'a/../b' }, 400, 'bad-request/request-params-invalid', 'root_folder'],
      [{ name: unique('p'), root_folder: '/' }, 422, 'processing-failure/model-save-error', 'root_folder'],
      [{ name: ' ', root_folder: 'x' }, 422, 'processing-failure/model-save-error', 'name'],
      [{ name: unique('p'), root_folder: 'x', tags: 'Not A Tag' }, 422, 'processing-failure/model-save-error', 'tags'],
      [{ name: unique('p'), root_folder: 'x', allowed_ips: 'not-an-address' }, 422, 'processing-failure/model-save-error', 'allowed_ips'],
      [{ name: unique('p'), root_folder: 'x', allow_user_creation: 'often' }, 400, 'bad-request/request-params-invalid', 'allow_user_creation'],
    ];
    for (const [body, status, type, field] of cases) {
      const response = await create(body);
      expect({ body, status: response.status, type: response.body.type, named: JSON.stringify(response.body).includes(field) }).toEqual({ body, status, type, named: true });
    }
    const upload = await t.api.call('PUT', '/files/taken.txt', { key: s.admin1.key, rawBody: 'x', headers: { 'content-type': 'application/octet-stream' } });
    expect(upload.status).toBe(201);
    const onFile = await create({ name: unique('p'), root_folder: 'taken.txt/inside' });
    expect([onFile.status, Object.keys(onFile.body.model_errors ?? {})]).toEqual([422, ['root_folder']]);
    // In Workspace 0 a root inside the reserved folder is not a folder of the Partner's Workspace.
    const reserved = await create({ name: unique('p'), root_folder: `_/Workspaces/${s.ws1}/x` }, BOOTSTRAP_KEY);
    expect([reserved.status, reserved.body.type]).toEqual([400, 'bad-request/request-params-invalid']);
    // Nothing was made by the refusals.
    expect(await entry(`_/Workspaces/${s.ws1}/x`)).toBeUndefined();
  });

  it('keeps names unique within a Workspace without regard to case, and only there', async () => {
    const name = unique('Dup');
    expect((await create({ name, root_folder: 'dup' })).status).toBe(201);
    const dup = await create({ name: name.toUpperCase(), root_folder: 'dup2' });
    expect([dup.status, dup.body.type, dup.body.model_errors]).toEqual([422, 'processing-failure/model-save-error', { name: ['has already been taken'] }]);
    expect((await create({ name, root_folder: 'dup' }, s.delegate.key)).status).toBe(403);
    expect((await t.api.post('/partners', { name, root_folder: 'dup' }, { key: s.delegate.key, workspace: s.ws2 })).status).toBe(201);
  });

  it('lets only administrators of the Workspace manage Partners, and hides them from every other Workspace', async () => {
    const own = (await create({ name: unique('Own'), root_folder: 'own', notes: 'n' })).body;
    const other = (await t.api.post('/partners', { name: unique('Other'), root_folder: 'other' }, { key: s.delegate.key, workspace: s.ws2 })).body;
    expect(other.workspace_id).toBe(s.ws2);

    const byMember = await create({ name: unique('m'), root_folder: 'm' }, s.member1.key);
    expect([byMember.status, byMember.body.type]).toEqual([403, 'not-authorized/site-admin-or-workspace-admin-permission-required']);
    expect((await t.api.get('/partners', { key: s.member1.key })).body).toEqual([]);
    for (const response of [
      await t.api.get(`/partners/${own.id}`, { key: s.member1.key }),
      await t.api.patch(`/partners/${own.id}`, { name: 'x' }, { key: s.member1.key }),
      await t.api.delete(`/partners/${own.id}`, { key: s.member1.key }),
      await t.api.get(`/partners/${other.id}`, { key: s.admin1.key }),
      await t.api.patch(`/partners/${other.id}`, { name: 'x' }, { key: s.admin1.key }),
      await t.api.delete(`/partners/${other.id}`, { key: s.admin1.key }),
      await t.api.get('/partners/999999', { key: s.admin1.key }),
    ]) expect([response.status, response.body.type, response.body.error]).toEqual([404, 'not-found', 'Partner not found.']);

    const listed = (await t.api.get('/partners', { key: s.admin1.key })).body as { id: number; workspace_id: number; notes?: string }[];
    expect(listed.every((p) => p.workspace_id === s.ws1)).toBe(true);
    expect(listed.find((p) => p.id === own.id)?.notes).toBe('n');
    expect(listed.map((p) => p.id)).not.toContain(other.id);
    const mismatch = await create({ name: unique('w'), root_folder: 'w', workspace_id: s.ws2 });
    expect([mismatch.status, mismatch.body.type]).toEqual([403, 'not-authorized/insufficient-permission-for-params']);
    // A Site Administrator names the Workspace with workspace_id from context 0.
    const bySite = await create({ name: unique('Site'), root_folder: 'site-made', workspace_id: s.ws2 }, BOOTSTRAP_KEY);
    expect([bySite.status, bySite.body.workspace_id, bySite.body.root_folder]).toEqual([201, s.ws2, 'site-made']);
    expect(await entry(`_/Workspaces/${s.ws2}/site-made`)).toBeDefined();
  });

  it('lists across Workspaces for a Site Administrator, filtered by workspace_id, sorted and paged', async () => {
    const get = (query: string) => t.api.get(`/partners?${query}`, { key: BOOTSTRAP_KEY });
    const all = (await get('')).body as { id: number; workspace_id: number }[];
    expect(new Set(all.map((p) => p.workspace_id))).toEqual(new Set([s.ws1, s.ws2]));
    expect(all.map((p) => p.id)).toEqual([...all.map((p) => p.id)].sort((a, b) => a - b));
    expect(((await get(`filter[workspace_id]=${s.ws2}`)).body as { workspace_id: number }[]).every((p) => p.workspace_id === s.ws2)).toBe(true);
    const byWorkspace = (await get('sort_by[workspace_id]=desc')).body as { id: number; workspace_id: number }[];
    const expected = [...all].sort((a, b) => b.workspace_id - a.workspace_id || b.id - a.id);
    expect(byWorkspace.map((p) => p.id)).toEqual(expected.map((p) => p.id));
    expect(((await allPages(get, 'sort_by[workspace_id]=desc&per_page=2')) as { id: number }[]).map((p) => p.id)).toEqual(expected.map((p) => p.id));
    expect(((await allPages(get, 'per_page=1')) as { id: number }[]).map((p) => p.id)).toEqual(all.map((p) => p.id));
    expect((await get('sort_by[id]=desc')).body.map((p: { id: number }) => p.id)).toEqual(all.map((p) => p.id).reverse());
    for (const [query, type] of [['sort_by[name]=asc', 'bad-request/invalid-sort-field'], ['filter[name]=x', 'bad-request/invalid-filter-field'], ['filter[workspace_id]=x', 'bad-request/request-params-invalid']]) {
      const refused = await get(query as string);
      expect([query, refused.status, refused.body.type]).toEqual([query, 400, type]);
    }
    // A Workspace Administrator's list is its own Workspace's, whatever it filters by.
    expect((await t.api.get(`/partners?filter[workspace_id]=${s.ws2}`, { key: s.admin1.key })).body).toEqual([]);
  });

  it('changes what is sent, makes a new root folder, refuses a new Workspace, and records the change', async () => {
    const partner = (await create({ name: unique('Change'), root_folder: 'change-a', notes: 'old' })).body;
    const responsibles = await createGroup(t.database.db, { workspaceId: s.ws1 });
    const newName = unique('Changed');
    const response = await t.api.patch(`/partners/${partner.id}`, {
      name: newName, root_folder: 'change-b/inner', allow_providing_gpg_keys: true, tags: 'a-1', notes: 'new', responsible_group_id: responsibles,
    }, { key: s.admin1.key });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: partner.id, name: newName, root_folder: 'change-b/inner', allow_providing_gpg_keys: true, tags: 'a-1', notes: 'new', responsible_group_id: responsibles, workspace_id: s.ws1 });
    expect(await entry(`_/Workspaces/${s.ws1}/change-b/inner`)).toBeDefined();
    expect(await entry(`_/Workspaces/${s.ws1}/change-a`)).toBeDefined();
    const recorded = (await records('partner_update')).at(-1);
    expect(recorded?.workspace_id).toBe(s.ws1);
    expect(targetsOf(recorded)).toEqual({
      id: partner.id, name: newName, changed: ['name', 'root_folder', 'tags', 'allow_providing_gpg_keys', 'responsible_group_id', 'notes'],
      before: { name: partner.name, root_folder: 'change-a', tags: '', allow_providing_gpg_keys: false, responsible_group_id: null },
      after: { name: newName, root_folder: 'change-b/inner', tags: 'a-1', allow_providing_gpg_keys: true, responsible_group_id: responsibles },
    });
    expect(recorded?.targets).not.toContain('new');

    const count = (await records('partner_update')).length;
    const same = await t.api.patch(`/partners/${partner.id}`, { name: newName, root_folder: 'CHANGE-B/inner', workspace_id: s.ws1 }, { key: s.admin1.key });
    expect(same.status).toBe(200);
    expect((await records('partner_update')).length).toBe(count);

    const move = await t.api.patch(`/partners/${partner.id}`, { workspace_id: s.ws2 }, { key: BOOTSTRAP_KEY });
    expect([move.status, move.body.type, Object.keys(move.body.model_errors ?? {})]).toEqual([400, 'bad-request/request-params-invalid', ['workspace_id']]);
    const taken = (await create({ name: unique('Taken'), root_folder: 'taken' })).body.name as string;
    const dup = await t.api.patch(`/partners/${partner.id}`, { name: taken.toLowerCase() }, { key: s.admin1.key });
    expect([dup.status, dup.body.model_errors]).toEqual([422, { name: ['has already been taken'] }]);
    const cleared = await t.api.patch(`/partners/${partner.id}`, { notes: null, tags: null, responsible_group_id: null }, { key: s.admin1.key });
    expect(cleared.body).toMatchObject({ notes: '', tags: '', responsible_group_id: null });
  });

  it('names only a responsible user and group the caller can see, the group of the Partner\'s Workspace', async () => {
    const outsider = await createUser(t.database.db, { workspaceId: s.ws2 });
    const foreignGroup = await createGroup(t.database.db, { workspaceId: s.ws2 });
    const user = await create({ name: unique('r'), root_folder: 'r', responsible_user_id: outsider.id });
    expect([user.status, user.body.type]).toEqual([404, 'not-found/user-not-found']);
    const group = await create({ name: unique('r'), root_folder: 'r', responsible_group_id: foreignGroup }, BOOTSTRAP_KEY);
    expect([group.status, group.body.type]).toEqual([404, 'not-found/group-not-found']);
    expect(await entry(`r`)).toBeUndefined();
  });

  it('deletes a Partner, keeping its root folder and files, and records it', async () => {
    const partner = (await create({ name: unique('Gone'), root_folder: 'gone' })).body;
    const deleted = await t.api.delete(`/partners/${partner.id}`, { key: s.admin1.key });
    expect(deleted.status).toBe(204);
    expect((await t.api.get(`/partners/${partner.id}`, { key: s.admin1.key })).status).toBe(404);
    expect((await t.api.delete(`/partners/${partner.id}`, { key: s.admin1.key })).status).toBe(404);
    expect(await entry(`_/Workspaces/${s.ws1}/gone`)).toBeDefined();
    const recorded = (await records('partner_destroy')).at(-1);
    expect(recorded).toMatchObject({ workspace_id: s.ws1, display: `Deleted Partner ${partner.name}` });
    expect(targetsOf(recorded)).toMatchObject({ id: partner.id, root_folder: 'gone' });
  });

  it('keeps a Workspace that has Partners from being deleted, naming them', async () => {
    const ws = (await t.api.post('/workspaces', { name: unique('with-partner') }, { key: BOOTSTRAP_KEY })).body.id as number;
    const partner = (await create({ name: unique('Stays'), root_folder: 'stays' }, BOOTSTRAP_KEY)).body;
    const fromElsewhere = await t.api.patch(`/partners/${partner.id}`, {}, { key: BOOTSTRAP_KEY, workspace: ws });
    expect(fromElsewhere.status).toBe(404);
    const inWs = (await t.api.post('/partners', { name: unique('InWs'), root_folder: 'r' }, { key: BOOTSTRAP_KEY, workspace: ws })).body;
    expect((await t.api.delete(`/files/r?recursive=true`, { key: BOOTSTRAP_KEY, workspace: ws })).status).toBe(204);
    const refused = await t.api.delete(`/workspaces/${ws}`, { key: BOOTSTRAP_KEY });
    expect([refused.status, refused.body.model_errors]).toEqual([422, { id: ['the Workspace is not empty: 1 partners'] }]);
    expect((await t.api.delete(`/partners/${inWs.id}`, { key: BOOTSTRAP_KEY, workspace: ws })).status).toBe(204);
    expect((await t.api.delete(`/workspaces/${ws}`, { key: BOOTSTRAP_KEY })).status).toBe(204);
  });

  describe('Partner users', () => {
    it('creates a Partner user in its Partner\'s Workspace, shows its Partner, lists it by partner_id and among the Partner\'s users', async () => {
      const partner = (await create({ name: unique('Staffed'), root_folder: 'staffed' })).body;
      const made = await t.api.post('/users', { username: unique('pu'), partner_id: partner.id, partner_admin: true }, { key: s.admin1.key });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ workspace_id: s.ws1, partner_id: partner.id, partner_admin: true, partner_name: partner.name, site_admin: false, workspace_admin: false, group_ids: '' });
      const plain = await t.api.post('/users', { username: unique('pu'), partner_id: partner.id }, { key: s.admin1.key });
      expect(plain.body).toMatchObject({ partner_id: partner.id, partner_admin: false });
      expect((await t.api.get(`/users/${s.member1.user.id}`, { key: s.admin1.key })).body).toMatchObject({ partner_id: null, partner_admin: false, partner_name: null });
      const listed = await t.api.get(`/users?filter[partner_id]=${partner.id}`, { key: s.admin1.key });
      expect(listed.body.map((u: { id: number }) => u.id)).toEqual([made.body.id, plain.body.id]);
      expect((await t.api.get(`/partners/${partner.id}`, { key: s.admin1.key })).body).toMatchObject({ user_ids: [made.body.id, plain.body.id], partner_admin_ids: [made.body.id] });
      // A Site Administrator in context 0 makes one in the Partner's Workspace without naming it.
      const bySite = await t.api.post('/users', { username: unique('pu'), partner_id: partner.id }, { key: BOOTSTRAP_KEY });
      expect([bySite.status, bySite.body.workspace_id]).toEqual([201, s.ws1]);
      expect(targetsOf((await records('user_create')).at(-1))).toMatchObject({ id: bySite.body.id, partner_id: partner.id, partner_admin: false });
      // Sent back unchanged, as SDKs save every attribute, it is no change; partner_admin is an administrator's to change.
      const same = await t.api.patch(`/users/${made.body.id}`, { partner_id: partner.id, partner_admin: true, partner_name: partner.name, name: 'Pat' }, { key: s.admin1.key });
      expect([same.status, same.body.name]).toEqual([200, 'Pat']);
      const demoted = await t.api.patch(`/users/${made.body.id}`, { partner_admin: false }, { key: s.admin1.key });
      expect([demoted.status, demoted.body.partner_admin]).toEqual([200, false]);
    });

    it('lets the npm SDK load and save a Partner user unchanged, its Partner fields sent back as they are', async () => {
      const partner = (await create({ name: unique('Sdk'), root_folder: 'sdk' })).body;
      const made = (await t.api.post('/users', { username: unique('pu'), partner_id: partner.id, partner_admin: true }, { key: s.admin1.key })).body;
      Files.setBaseUrl(t.baseUrl);
      Files.setApiKey(s.admin1.key);
      Files.setLogLevel(LogLevel.NONE);
      const user = await SdkUser.find(made.id);
      expect(user.attributes).toMatchObject({ partner_id: partner.id, partner_admin: true, partner_name: partner.name });
      user.attributes.name = 'Saved by the SDK';
      await user.save();
      expect((await t.api.get(`/users/${made.id}`, { key: s.admin1.key })).body).toMatchObject({
        name: 'Saved by the SDK', partner_id: partner.id, partner_admin: true, partner_name: partner.name, workspace_id: s.ws1, group_ids: '',
      });
    });

    it('keeps a Partner user out of groups, administration and grants of its own, naming what stands in the way', async () => {
      const partner = (await create({ name: unique('Strict'), root_folder: 'strict' })).body;
      const other = (await t.api.post('/partners', { name: unique('Far'), root_folder: 'far' }, { key: s.delegate.key, workspace: s.ws2 })).body;
      const group = await createGroup(t.database.db, { workspaceId: s.ws1 });
      const refusedCreations: [Record<string, unknown>, string, number, string][] = [
        [{ partner_id: partner.id, workspace_admin: true }, 'workspace_admin', 422, 'processing-failure/model-save-error'],
        [{ partner_id: partner.id, group_ids: `${group}` }, 'group_ids', 422, 'processing-failure/model-save-error'],
        [{ partner_admin: true }, 'partner_admin', 422, 'processing-failure/model-save-error'],
        [{ partner_id: other.id }, 'Partner not found', 404, 'not-found'],
        [{ partner_id: partner.id, workspace_id: s.ws2 }, 'workspace_id', 422, 'processing-failure/model-save-error'],
      ];
      for (const [fields, named, status, type] of refusedCreations) {
        const key = fields.workspace_id === undefined ? s.admin1.key : BOOTSTRAP_KEY;
        const response = await t.api.post('/users', { username: unique('x'), ...fields }, { key });
        expect({ fields, status: response.status, type: response.body.type, named: JSON.stringify(response.body).includes(named) }).toEqual({ fields, status, type, named: true });
      }
      const user = (await t.api.post('/users', { username: unique('pu'), partner_id: partner.id }, { key: s.admin1.key })).body;
      const refusedChanges: [Record<string, unknown>, string][] = [
        [{ workspace_admin: true }, 'workspace_admin'], [{ group_ids: `${group}` }, 'group_ids'], [{ partner_id: other.id }, 'partner_id'], [{ partner_id: null }, 'partner_id'],
      ];
      for (const [fields, named] of refusedChanges) {
        const response = await t.api.patch(`/users/${user.id}`, fields, { key: s.admin1.key });
        expect({ fields, status: response.status, errors: Object.keys(response.body.model_errors ?? {}) }).toEqual({ fields, status: 422, errors: [named] });
      }
      const joined = await t.api.post('/group_users', { group_id: group, user_id: user.id }, { key: s.admin1.key });
      expect([joined.status, Object.keys(joined.body.model_errors ?? {})]).toEqual([422, ['user_id']]);
      const inGroup = await t.api.patch(`/groups/${group}`, { user_ids: `${user.id}` }, { key: s.admin1.key });
      expect(inGroup.status).toBe(422);
      await t.api.post('/folders/strict-grant', {}, { key: s.admin1.key });
      const grant = await t.api.post('/permissions', { path: 'strict-grant', user_id: user.id, permission: 'full' }, { key: s.admin1.key });
      expect([grant.status, Object.keys(grant.body.model_errors ?? {})]).toEqual([422, ['user_id']]);
      const notPartner = await t.api.patch(`/users/${s.member1.user.id}`, { partner_admin: true }, { key: s.admin1.key });
      expect([notPartner.status, Object.keys(notPartner.body.model_errors ?? {})]).toEqual([422, ['partner_admin']]);
      const stillPlain = (await t.database.db.selectFrom('users').select(['workspace_admin', 'partner_id']).where('id', '=', user.id).executeTakeFirstOrThrow());
      expect([Boolean(stillPlain.workspace_admin), stillPlain.partner_id]).toEqual([false, partner.id]);
      expect(await t.database.db.selectFrom('group_users').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    });

    it('admits a Partner user only from an address of its Partner\'s list, or of its own', async () => {
      // The test app sees every request from 127.0.0.1.
      const partner = (await create({ name: unique('Fenced'), root_folder: 'fenced', allowed_ips: '10.0.0.0/8' })).body;
      const user = (await t.api.post('/users', { username: unique('pu'), partner_id: partner.id, password: 'a long enough password 4' }, { key: s.admin1.key })).body;
      const key = (await t.api.post('/api_keys', { name: 'k', user_id: user.id }, { key: s.admin1.key })).body.key as string;
      const signIn = () => t.api.post('/sessions', { username: user.username, password: 'a long enough password 4' });
      for (const refused of [await t.api.get('/users', { key }), await signIn()]) {
        expect([refused.status, refused.body.type]).toEqual([403, 'not-authorized/ip-address-not-allowed']);
      }
      // Its own list adds to the Partner's, as every list does.
      expect((await t.api.patch(`/users/${user.id}`, { allowed_ips: '127.0.0.1' }, { key: s.admin1.key })).status).toBe(200);
      expect((await t.api.get('/users', { key })).status).toBe(200);
      expect((await t.api.patch(`/users/${user.id}`, { allowed_ips: '' }, { key: s.admin1.key })).status).toBe(200);
      expect((await t.api.get('/users', { key })).status).toBe(403);
      expect((await t.api.patch(`/partners/${partner.id}`, { allowed_ips: '10.0.0.0/8\n127.0.0.0/8' }, { key: s.admin1.key })).status).toBe(200);
      expect((await signIn()).status).toBe(201);
      // Other users of the Workspace are not bound by the Partner's list.
      expect((await t.api.get('/users', { key: s.member1.key })).status).toBe(200);
    });

    it('deletes a Partner with its users and their keys, recording each, keeping its files', async () => {
      const partner = (await create({ name: unique('Closing'), root_folder: 'closing' })).body;
      const user = (await t.api.post('/users', { username: unique('pu'), partner_id: partner.id, password: 'a long enough password 3' }, { key: s.admin1.key })).body;
      const key = await t.api.post('/api_keys', { name: 'k', user_id: user.id }, { key: s.admin1.key });
      expect(key.status).toBe(201);
      expect((await t.api.get('/users', { key: key.body.key })).status).toBe(200);
      expect((await t.api.delete(`/partners/${partner.id}`, { key: s.admin1.key })).status).toBe(204);
      expect((await t.api.get(`/users/${user.id}`, { key: s.admin1.key })).status).toBe(404);
      expect((await t.api.get('/users', { key: key.body.key })).status).toBe(401);
      expect(await t.database.db.selectFrom('api_keys').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
      const destroyed = (await records('user_destroy')).at(-1);
      expect([destroyed?.workspace_id, targetsOf(destroyed).id]).toEqual([s.ws1, user.id]);
      expect(await entry(`_/Workspaces/${s.ws1}/closing`)).toBeDefined();
    });
  });

  it('returns every Partner field the SDKs declare, or lists it as not offered in docs/sdk-fields.md', async () => {
    const created = (await create({ name: unique('Wire'), root_folder: 'wire' })).body;
    const returned = new Set([
      ...Object.keys(created),
      ...Object.keys((await t.api.get(`/partners/${created.id}`, { key: s.admin1.key })).body),
      ...((await t.api.get('/partners', { key: s.admin1.key })).body as object[]).flatMap((p) => Object.keys(p)),
    ]);
    const listed = fieldsNotOffered('Partner');
    const missing = SDK_PARTNER_FIELDS.filter((field) => !returned.has(field) && !listed.has(field));
    const listedYetReturned = [...listed].filter((field) => returned.has(field));
    const unknown = [...returned].filter((field) => !SDK_PARTNER_FIELDS.includes(field));
    expect({ missing, listedYetReturned, unknown }).toEqual({ missing: [], listedYetReturned: [], unknown: [] });
  });
});
