import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createApiKey, createGroup, createUser, unique } from '../support/factories.js';
import { buildSite, type SiteFixture } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const require = createRequire(import.meta.url);
const Files = require('files.com/lib/Files.js');
const { LogLevel } = require('files.com/lib/Logger.js');
const SdkPermission = require('files.com/lib/models/Permission.js').default;

/**
 * Partner grants through the REST API (docs/partners.md): a grant to a Partner is held by its users
 * and nobody else, lies inside the Partner's root at a level a Partner may hold, is created by
 * those who manage the Partner, is listed, explained and reached with the Partner named, bounds
 * where the root may move, and goes, recorded, with the Partner.
 */
describe.each(testDatabaseTargets())('Partner grants [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  beforeAll(async () => {
    // The Files brand too, for the npm SDK's headers.
    t = await startTestApp(target, { brands: ['Service', 'Files'] });
    s = await buildSite(t);
  });
  afterAll(() => t.close());

  const newPartner = async (root = unique('Partners/Acme')) => {
    const made = await t.api.post('/partners', { name: unique('Acme'), root_folder: root }, { key: s.admin1.key });
    expect(made.status).toBe(201);
    return made.body as { id: number; name: string; root_folder: string };
  };
  const grant = (body: Record<string, unknown>, key = s.admin1.key) => t.api.post('/permissions', body, { key });
  const partnerUser = async (partnerId: number) => {
    const made = await t.api.post('/users', { username: unique('pu'), partner_id: partnerId }, { key: s.admin1.key });
    expect(made.status).toBe(201);
    return made.body as { id: number; username: string };
  };
  const records = (action: string) => t.database.db.selectFrom('history').selectAll().where('action', '=', action).orderBy('id').execute();

  it('grants a Partner a folder inside its root: 201 with partner_id and partner_name, stored, recorded', async () => {
    const partner = await newPartner();
    const response = await grant({ path: `${partner.root_folder}/Inbox`, partner_id: partner.id, permission: 'full' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number), path: `${partner.root_folder}/Inbox`, user_id: null, username: null, group_id: null, group_name: null,
      group_ids: [], group_names: [], partner_id: partner.id, partner_name: partner.name, permission: 'full', recursive: true,
      workspace_id: s.ws1, replaced_permission_ids: [],
    });
    const row = await t.database.db.selectFrom('permissions').selectAll().where('id', '=', response.body.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ partner_id: partner.id, user_id: null, group_id: null, permission: 'full' });
    const record = (await records('permission_create')).at(-1);
    expect(JSON.parse(record?.targets ?? '{}')).toMatchObject({ id: response.body.id, partner_id: partner.id, partner_name: partner.name });
    expect(record?.display).toContain(`Partner ${partner.name}`);
  });

  it('takes the root itself and each level a Partner may hold; refuses admin, bundle and history naming permission', async () => {
    const partner = await newPartner();
    for (const level of ['full', 'readonly', 'writeonly', 'list']) {
      const response = await grant({ path: `${partner.root_folder}/${level}`, partner_id: partner.id, permission: level });
      expect(response.status, level).toBe(201);
    }
    expect((await grant({ path: partner.root_folder, partner_id: partner.id, permission: 'readonly' })).status).toBe(201);
    for (const level of ['admin', 'bundle', 'history']) {
      const response = await grant({ path: partner.root_folder, partner_id: partner.id, permission: level });
      expect(response.status, level).toBe(422);
      expect(response.body.type).toBe('processing-failure/model-save-error');
      expect(response.body.model_errors.permission, level).toBeDefined();
    }
  });

  it('refuses a path outside the root, naming path; the same spelling in another case is inside', async () => {
    const partner = await newPartner();
    const parent = partner.root_folder.split('/').slice(0, -1).join('/');
    for (const path of [parent, `${partner.root_folder}x`, 'Elsewhere', '']) {
      const response = await grant({ path, partner_id: partner.id, permission: 'readonly' });
      expect(response.status, path).toBe(422);
      expect(response.body.model_errors.path, path).toBeDefined();
    }
    expect((await grant({ path: `${partner.root_folder.toUpperCase()}/Sub`, partner_id: partner.id, permission: 'readonly' })).status).toBe(201);
  });

  it('is named only by those who manage the Partner: others are answered as for a Partner that does not exist', async () => {
    const partner = await newPartner();
    // A Folder Admin of the root folder may grant there, but may not name a Partner it cannot see.
    const folderAdmin = await createUser(t.database.db, { workspaceId: s.ws1 });
    const folderAdminKey = await createApiKey(t.database.db, { userId: folderAdmin.id, workspaceId: s.ws1 });
    expect((await grant({ path: partner.root_folder, user_id: folderAdmin.id, permission: 'admin' })).status).toBe(201);
    const byFolderAdmin = await grant({ path: `${partner.root_folder}/In`, partner_id: partner.id, permission: 'readonly' }, folderAdminKey);
    expect(byFolderAdmin.status).toBe(404);
    expect(byFolderAdmin.body.type).toBe('not-found');
    // Another Workspace's administrator: not found either, and nothing is stored.
    const byOther = await t.api.post('/permissions', { path: 'Anything', partner_id: partner.id, permission: 'readonly' }, { key: s.delegate.key, workspace: s.ws2 });
    expect(byOther.status).toBe(404);
    expect(await t.database.db.selectFrom('permissions').select('id').where('partner_id', '=', partner.id).execute()).toEqual([]);
    // A Site Administrator may, in context 0 with the qualified path.
    const bySite = await t.api.post('/permissions', { path: `_/Workspaces/${s.ws1}/${partner.root_folder}`, partner_id: partner.id, permission: 'list' }, { key: BOOTSTRAP_KEY });
    expect(bySite.status).toBe(201);
    // One grantee only: partner_id with a user is refused.
    const both = await grant({ path: partner.root_folder, partner_id: partner.id, user_id: folderAdmin.id, permission: 'list' });
    expect(both.status).toBe(400);
    expect(both.body.type).toBe('bad-request/request-params-invalid');
  });

  it('gives the Partner\'s users its grants and nothing else: explain and reach name the Partner', async () => {
    const partner = await newPartner();
    const user = await partnerUser(partner.id);
    const other = await newPartner();
    const outsider = await partnerUser(other.id);
    const made = await grant({ path: `${partner.root_folder}/Docs`, partner_id: partner.id, permission: 'readonly' });
    // A group grant on the same folder: a Partner user is in no group, and would not hold it anyway.
    const group = await createGroup(t.database.db, { workspaceId: s.ws1 });
    await addMember(t.database.db, group, s.member1.user.id);
    await grant({ path: `${partner.root_folder}/Docs`, group_id: group, permission: 'full' });

    const explained = await t.api.get(`/permissions/explain?path=${encodeURIComponent(`${partner.root_folder}/Docs/a.pdf`)}&user_id=${user.id}`, { key: s.admin1.key });
    expect(explained.status).toBe(200);
    expect(explained.body.capabilities).toEqual(['list', 'read']);
    expect(explained.body.reasons).toContainEqual(expect.objectContaining({
      source: 'grant', permission_id: made.body.id, via: 'partner', partner_id: partner.id, partner_name: partner.name,
    }));
    const ofOutsider = await t.api.get(`/permissions/explain?path=${encodeURIComponent(`${partner.root_folder}/Docs/a.pdf`)}&user_id=${outsider.id}`, { key: s.admin1.key });
    expect(ofOutsider.body.capabilities).toEqual([]);
    const misses = ofOutsider.body.near_misses as { id: number; reasons: { code: string; partner_id: number | null }[] }[];
    expect(misses.find((miss) => miss.id === made.body.id)?.reasons).toEqual([expect.objectContaining({ code: 'other_partner', partner_id: partner.id })]);
    expect(misses.flatMap((miss) => miss.reasons.map((reason) => reason.code))).toContain('partner_user');
    // A member of the group does not hold the Partner's grant.
    const ofMember = await t.api.get(`/permissions/explain?path=${encodeURIComponent(`${partner.root_folder}/Docs/a.pdf`)}&user_id=${s.member1.user.id}`, { key: s.admin1.key });
    expect(ofMember.body.capabilities).toEqual(['list', 'read', 'write', 'delete']);

    const reach = await t.api.get(`/permissions/reach?path=${encodeURIComponent(`${partner.root_folder}/Docs`)}&type=directory`, { key: s.admin1.key });
    expect(reach.status).toBe(200);
    const rows = reach.body as { user_id: number; capabilities: string[]; because: { applies: string; partner_id: number | null; partner_name: string | null }[] }[];
    const row = rows.find((entry) => entry.user_id === user.id);
    expect(row?.capabilities).toEqual(['list', 'read']);
    expect(row?.because).toContainEqual(expect.objectContaining({ applies: 'partner', partner_id: partner.id, partner_name: partner.name }));
    expect(rows.some((entry) => entry.user_id === outsider.id)).toBe(false);
  });

  it('lists by filter[partner_id] and partner_id, sorts by partner_id, and refuses a Partner the caller cannot see', async () => {
    const partner = await newPartner();
    const a = await grant({ path: `${partner.root_folder}/A`, partner_id: partner.id, permission: 'list' });
    const b = await grant({ path: `${partner.root_folder}/B`, partner_id: partner.id, permission: 'readonly' });
    for (const query of [`filter[partner_id]=${partner.id}`, `partner_id=${partner.id}`]) {
      const listed = await t.api.get(`/permissions?${query}`, { key: s.admin1.key });
      expect(listed.status, query).toBe(200);
      expect((listed.body as { id: number }[]).map((row) => row.id)).toEqual([a.body.id, b.body.id]);
    }
    const sorted = await t.api.get('/permissions?sort_by[partner_id]=desc&per_page=1000', { key: s.admin1.key });
    expect(sorted.status).toBe(200);
    const partnerIds = (sorted.body as { partner_id: number | null }[]).map((row) => row.partner_id ?? -1);
    expect(partnerIds).toEqual([...partnerIds].sort((x, y) => y - x));
    const hidden = await t.api.get(`/permissions?filter[partner_id]=${partner.id}`, { key: s.member1.key });
    expect(hidden.status).toBe(404);
  });

  it('lets the root folder move only where it still holds the Partner\'s grants', async () => {
    const base = unique('Partners/Move');
    const partner = await newPartner(`${base}/Root`);
    await grant({ path: `${partner.root_folder}/In`, partner_id: partner.id, permission: 'full' });
    const narrower = await t.api.patch(`/partners/${partner.id}`, { root_folder: `${partner.root_folder}/Other` }, { key: s.admin1.key });
    expect(narrower.status).toBe(422);
    expect(narrower.body.model_errors.root_folder[0]).toContain(`${partner.root_folder}/In`);
    const beside = await t.api.patch(`/partners/${partner.id}`, { root_folder: `${base}/Elsewhere` }, { key: s.admin1.key });
    expect(beside.status).toBe(422);
    expect((await t.api.get(`/partners/${partner.id}`, { key: s.admin1.key })).body.root_folder).toBe(partner.root_folder);
    const wider = await t.api.patch(`/partners/${partner.id}`, { root_folder: base }, { key: s.admin1.key });
    expect(wider.status).toBe(200);
    expect(wider.body.root_folder).toBe(base);
  });

  it('replaces a Partner\'s own narrower grants, and never another grantee\'s', async () => {
    const partner = await newPartner();
    const narrow = await grant({ path: `${partner.root_folder}/Sub`, partner_id: partner.id, permission: 'readonly' });
    const userGrant = await grant({ path: `${partner.root_folder}/Sub`, user_id: s.member1.user.id, permission: 'readonly' });
    const wide = await grant({ path: partner.root_folder, partner_id: partner.id, permission: 'full' });
    expect(wide.body.replaced_permission_ids).toEqual([narrow.body.id]);
    expect(await t.database.db.selectFrom('permissions').select('id').where('id', '=', userGrant.body.id).executeTakeFirst()).toBeDefined();
  });

  it('deletes the Partner\'s grants with it, each recorded; the files stay', async () => {
    const partner = await newPartner();
    const made = await grant({ path: `${partner.root_folder}/Out`, partner_id: partner.id, permission: 'writeonly' });
    const before = (await records('permission_destroy')).length;
    const deleted = await t.api.delete(`/partners/${partner.id}`, { key: s.admin1.key });
    expect(deleted.status).toBe(204);
    expect(await t.database.db.selectFrom('permissions').select('id').where('id', '=', made.body.id).executeTakeFirst()).toBeUndefined();
    const destroyed = (await records('permission_destroy')).slice(before);
    expect(destroyed.map((row) => JSON.parse(row.targets ?? '{}').id)).toEqual([made.body.id]);
    expect(JSON.parse(destroyed[0]?.targets ?? '{}')).toMatchObject({ partner_id: partner.id, partner_name: partner.name });
    const root = await t.database.db.selectFrom('entries').select('type').where('path_key', '=', `_/workspaces/${s.ws1}/${partner.root_folder}`.toLowerCase()).executeTakeFirst();
    expect(root?.type).toBe('directory');
  });

  it('works through the npm SDK, which knows no partner_id: it is sent, stored, loaded and listed as it is', async () => {
    const partner = await newPartner();
    Files.setBaseUrl(t.baseUrl);
    Files.setApiKey(s.admin1.key);
    Files.setLogLevel(LogLevel.NONE);
    const created = await SdkPermission.create({ path: `${partner.root_folder}/Sdk`, partner_id: partner.id, permission: 'readonly' });
    expect(created.attributes).toMatchObject({ partner_id: partner.id, partner_name: partner.name, user_id: null, group_id: null, permission: 'readonly' });
    const listed = await SdkPermission.list({ filter: { partner_id: partner.id } });
    expect(listed.map((permission: { attributes: { id: number } }) => permission.attributes.id)).toEqual([created.attributes.id]);
    await listed[0].delete();
    expect(await t.database.db.selectFrom('permissions').select('id').where('id', '=', created.attributes.id).executeTakeFirst()).toBeUndefined();
  });

  it('lets a Folder Admin of the folder delete a Partner grant there, which it cannot create', async () => {
    const partner = await newPartner();
    const folderAdmin = await createUser(t.database.db, { workspaceId: s.ws1 });
    const folderAdminKey = await createApiKey(t.database.db, { userId: folderAdmin.id, workspaceId: s.ws1 });
    await grant({ path: partner.root_folder, user_id: folderAdmin.id, permission: 'admin' });
    const made = await grant({ path: `${partner.root_folder}/In`, partner_id: partner.id, permission: 'full' });
    const listed = await t.api.get(`/permissions?path=${encodeURIComponent(`${partner.root_folder}/In`)}`, { key: folderAdminKey });
    expect((listed.body as { id: number }[]).map((row) => row.id)).toContain(made.body.id);
    expect((await t.api.delete(`/permissions/${made.body.id}`, { key: folderAdminKey })).status).toBe(204);
  });

  it('confines a Partner user of Workspace 0 to Workspace 0, as a Custom Workspace user is to its own', async () => {
    const made = await t.api.post('/partners', { name: unique('Home'), root_folder: unique('Partners/Home') }, { key: BOOTSTRAP_KEY });
    expect(made.status).toBe(201);
    const partner = made.body as { id: number; root_folder: string };
    const user = await t.api.post('/users', { username: unique('pu'), partner_id: partner.id }, { key: BOOTSTRAP_KEY });
    const key = await createApiKey(t.database.db, { userId: user.body.id, workspaceId: 0 });
    await t.api.post('/permissions', { path: partner.root_folder, partner_id: partner.id, permission: 'full' }, { key: BOOTSTRAP_KEY });
    const other = await t.api.get('/folders', { key, workspace: s.ws1 });
    expect(other.status).toBe(400);
    expect(other.body.type).toBe('bad-request/invalid-workspace-id-header');
    expect((await t.api.get('/folders', { key, workspace: 0 })).status).toBe(200);
  });

  it("shows a Partner user its Partner's grants as its own, their paths relative to its root, and reads its paths there", async () => {
    const partner = await newPartner();
    const user = await partnerUser(partner.id);
    const key = await createApiKey(t.database.db, { userId: user.id, workspaceId: s.ws1 });
    const made = await grant({ path: `${partner.root_folder}/Docs`, partner_id: partner.id, permission: 'readonly' });
    await grant({ path: 'Elsewhere', user_id: s.member1.user.id, permission: 'full' });
    const listed = await t.api.get('/permissions', { key });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expect.objectContaining({ id: made.body.id, path: 'Docs', partner_id: partner.id, partner_name: partner.name })]);
    const byPath = await t.api.get('/permissions?filter[path]=Docs', { key });
    expect((byPath.body as { id: number }[]).map((row) => row.id)).toEqual([made.body.id]);
    const explained = await t.api.get('/permissions/explain?path=Docs/a.pdf', { key });
    expect(explained.status).toBe(200);
    expect(explained.body).toMatchObject({ path: 'Docs/a.pdf', capabilities: ['list', 'read'] });
    expect(explained.body.reasons).toContainEqual(expect.objectContaining({ path: 'Docs', via: 'partner', partner_id: partner.id }));
  });
});
