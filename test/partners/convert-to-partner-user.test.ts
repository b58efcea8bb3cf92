import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryRow } from '../../src/repositories/history.js';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createGroup, createUser, unique } from '../support/factories.js';
import { buildSite, grantOnRoot, type SiteFixture } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/** PATCH /users/<id> with convert_to_partner_user: who may, what stands in the way, what History records. */
describe.each(testDatabaseTargets())('convert_to_partner_user [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  beforeAll(async () => {
    t = await startTestApp(target);
    s = await buildSite(t);
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const lastUpdate = async () => (await db().selectFrom('history').selectAll().where('action', '=', 'user_update').orderBy('id', 'desc').limit(1).execute())[0] as HistoryRow;
  const partnerIn = async (workspace = s.ws1, key = s.admin1.key, flags: Record<string, unknown> = {}) =>
    (await t.api.post('/partners', { name: unique('P'), root_folder: unique('p'), ...flags }, { key, workspace })).body as { id: number };
  const convert = (userId: number, partnerId: number | null, key = s.admin1.key, extra: Record<string, unknown> = {}) =>
    t.api.patch(`/users/${userId}`, { partner_id: partnerId, convert_to_partner_user: true, ...extra }, { key });

  it('makes a user of the Partner\'s Workspace one of its users, recorded as a user_update carrying partner_id', async () => {
    const partner = await partnerIn();
    const user = await createUser(db(), { workspaceId: s.ws1 });
    // A dry run converts nothing.
    const dry = await t.api.patch(`/users/${user.id}?dry_run=true`, { partner_id: partner.id, convert_to_partner_user: true }, { key: s.admin1.key });
    expect(dry.status).toBe(200);
    expect((await db().selectFrom('users').select('partner_id').where('id', '=', user.id).executeTakeFirstOrThrow()).partner_id).toBeNull();
    const response = await convert(user.id, partner.id, s.admin1.key, { partner_admin: true });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: user.id, partner_id: partner.id, partner_admin: true, workspace_id: s.ws1 });
    const recorded = await lastUpdate();
    expect(recorded).toMatchObject({ user_id: s.admin1.user.id, workspace_id: s.ws1 });
    expect(JSON.parse(recorded.targets ?? '{}')).toMatchObject({
      id: user.id, changed: ['partner_id', 'partner_admin'], before: { partner_id: null, partner_admin: false }, after: { partner_id: partner.id, partner_admin: true },
    });
    expect((await t.api.get(`/partners/${partner.id}`, { key: s.admin1.key })).body).toMatchObject({ user_ids: [user.id], partner_admin_ids: [user.id] });
    // Sent again it is no change: no write, no record.
    expect((await convert(user.id, partner.id)).status).toBe(200);
    expect((await lastUpdate()).id).toBe(recorded.id);
    // A Site Administrator converts too, in any context that sees the Partner.
    const other = await createUser(db(), { workspaceId: s.ws1 });
    expect((await convert(other.id, partner.id, BOOTSTRAP_KEY)).body.partner_id).toBe(partner.id);
  });

  it('refuses a user with groups, administrative flags or grants of its own, naming each, and converts nothing', async () => {
    const partner = await partnerIn();
    const user = await createUser(db(), { workspaceId: s.ws1, workspaceAdmin: true });
    const group = await createGroup(db(), { workspaceId: s.ws1 });
    await addMember(db(), group, user.id, true);
    const grant = await grantOnRoot(t, s.ws1, { userId: user.id });
    const refused = await convert(user.id, partner.id);
    expect([refused.status, refused.body.type]).toEqual([422, 'processing-failure/model-save-error']);
    expect(Object.keys(refused.body.model_errors).sort()).toEqual(['group_ids', 'permissions', 'workspace_admin']);
    expect(refused.body.model_errors.group_ids[0]).toContain(String(group));
    expect(refused.body.model_errors.permissions[0]).toContain(String(grant));
    // Each taken away in turn, the rest still stand in the way.
    expect((await t.api.patch(`/users/${user.id}`, { workspace_admin: false }, { key: s.admin1.key })).status).toBe(200);
    expect(Object.keys((await convert(user.id, partner.id)).body.model_errors).sort()).toEqual(['group_ids', 'permissions']);
    expect((await t.api.patch(`/users/${user.id}`, { group_ids: '' }, { key: s.admin1.key })).status).toBe(200);
    expect(Object.keys((await convert(user.id, partner.id)).body.model_errors)).toEqual(['permissions']);
    expect((await t.api.delete(`/permissions/${grant}`, { key: s.admin1.key })).status).toBe(204);
    expect((await convert(user.id, partner.id)).status).toBe(200);
    // A Site Administrator is named too (by a Site Administrator, who sees it).
    const siteAdmin = await createUser(db(), { workspaceId: 0, siteAdmin: true });
    const partner0 = await partnerIn(0, BOOTSTRAP_KEY);
    const bySite = await convert(siteAdmin.id, partner0.id, BOOTSTRAP_KEY);
    expect([bySite.status, Object.keys(bySite.body.model_errors ?? {})]).toEqual([422, ['site_admin']]);
    // Nor can the same request add what a Partner user may not hold.
    const plain = await createUser(db(), { workspaceId: s.ws1 });
    const raising = await convert(plain.id, partner.id, s.admin1.key, { workspace_admin: true });
    expect([raising.status, Object.keys(raising.body.model_errors ?? {})]).toEqual([422, ['workspace_admin']]);
    const stored = await db().selectFrom('users').select('partner_id').where('id', 'in', [siteAdmin.id, plain.id]).execute();
    expect(stored.map((row) => row.partner_id)).toEqual([null, null]);
  });

  it('converts only users of the Partner\'s Workspace and of no other Partner, and only by its administrators', async () => {
    const partner = await partnerIn();
    const otherPartner = await partnerIn();
    const elsewhere = await partnerIn(s.ws2, s.delegate.key);
    const ofWs2 = await createUser(db(), { workspaceId: s.ws2 });
    const wrongWorkspace = await convert(ofWs2.id, partner.id, BOOTSTRAP_KEY);
    expect([wrongWorkspace.status, Object.keys(wrongWorkspace.body.model_errors ?? {})]).toEqual([422, ['workspace_id']]);
    const ofWs0 = await createUser(db(), { workspaceId: 0 });
    expect(Object.keys((await convert(ofWs0.id, partner.id, BOOTSTRAP_KEY)).body.model_errors ?? {})).toEqual(['workspace_id']);
    const member = (await t.api.post('/users', { username: unique('pu'), partner_id: otherPartner.id }, { key: s.admin1.key })).body;
    const taken = await convert(member.id, partner.id);
    expect([taken.status, Object.keys(taken.body.model_errors ?? {})]).toEqual([422, ['partner_id']]);
    // A Partner of another Workspace is not found; partner_id is required.
    const hidden = await convert(s.member1.user.id, elsewhere.id);
    expect([hidden.status, hidden.body.error]).toEqual([404, 'Partner not found.']);
    const missing = await t.api.patch(`/users/${s.member1.user.id}`, { convert_to_partner_user: true }, { key: s.admin1.key });
    expect([missing.status, missing.body.type]).toEqual([400, 'bad-request/request-params-required']);
    // partner_id without the conversion stays refused, as before.
    const bare = await t.api.patch(`/users/${s.member1.user.id}`, { partner_id: partner.id }, { key: s.admin1.key });
    expect([bare.status, Object.keys(bare.body.model_errors ?? {})]).toEqual([422, ['partner_id']]);
    // Not an administrator of the Workspace: a Partner Admin of the Partner, even with every flag, may not convert.
    const flagged = await partnerIn(s.ws1, s.admin1.key, { allow_user_creation: true, allow_credential_changes: true });
    const partnerAdmin = (await t.api.post('/users', { username: unique('pa'), partner_id: flagged.id, partner_admin: true }, { key: s.admin1.key })).body;
    const key = (await t.api.post('/api_keys', { name: 'k', user_id: partnerAdmin.id }, { key: s.admin1.key })).body.key as string;
    const target = await createUser(db(), { workspaceId: s.ws1 });
    const byPartnerAdmin = await t.api.patch(`/users/${target.id}`, { partner_id: flagged.id, convert_to_partner_user: true }, { key });
    expect(byPartnerAdmin.status).toBe(404);
    const self = await t.api.patch(`/users/${s.member1.user.id}`, { partner_id: partner.id, convert_to_partner_user: true }, { key: s.member1.key });
    expect([self.status, self.body.error]).toEqual([404, 'Partner not found.']);
    expect((await db().selectFrom('users').select('partner_id').where('id', '=', s.member1.user.id).executeTakeFirstOrThrow()).partner_id).toBeNull();
  });
});
