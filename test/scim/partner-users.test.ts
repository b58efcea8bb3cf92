import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { unique } from '../support/factories.js';
import { buildSite, type SiteFixture } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { ATRIUM_USER, expectScimError, PATCH_OP, ScimClient, USER_SCHEMA } from './scim-client.js';

/** The Atrium extension's `partner_id`: provisioned by administrators of the Workspace only, fixed afterwards. */
describe.each(testDatabaseTargets())('SCIM Partner users [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  let admin: ScimClient;
  beforeAll(async () => {
    t = await startTestApp(target);
    s = await buildSite(t);
    admin = new ScimClient(t.baseUrl, s.admin1.key);
  });
  afterAll(() => t.close());

  const newUser = (extension: Record<string, unknown> = {}) => ({ schemas: [USER_SCHEMA, ATRIUM_USER], userName: unique('scim'), [ATRIUM_USER]: extension });
  const partnerIn = async (workspace: number, key: string, flags: Record<string, unknown> = {}) =>
    (await t.api.post('/partners', { name: unique('P'), root_folder: unique('p'), ...flags }, { key, workspace })).body as { id: number };

  it('lets an administrator of the Workspace provision a user into one of its Partners, shown and recorded', async () => {
    const partner = await partnerIn(s.ws1, s.admin1.key);
    const created = await admin.post('/Users', newUser({ partner_id: partner.id }));
    expect(created.status).toBe(201);
    expect(created.body[ATRIUM_USER]).toEqual({ workspace_id: s.ws1, partner_id: partner.id });
    expect((await t.api.get(`/users/${created.body.id}`, { key: s.admin1.key })).body).toMatchObject({ partner_id: partner.id, partner_admin: false });
    const recorded = await t.database.db.selectFrom('history').select(['user_id', 'targets']).where('action', '=', 'user_create').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect([recorded.user_id, JSON.parse(recorded.targets ?? '{}').partner_id]).toEqual([s.admin1.user.id, partner.id]);
    // The id as a string of digits, as some providers send every value, is the same.
    expect((await admin.post('/Users', newUser({ partner_id: String(partner.id) }))).body[ATRIUM_USER].partner_id).toBe(partner.id);
    // A user of no Partner shows none.
    expect((await admin.post('/Users', newUser())).body[ATRIUM_USER]).toEqual({ workspace_id: s.ws1 });
    // A Site Administrator provisions into any Workspace's Partner, the user landing in its Workspace.
    const far = await partnerIn(s.ws2, s.delegate.key);
    const bySite = await admin.as(BOOTSTRAP_KEY).post('/Users', newUser({ partner_id: far.id }));
    expect(bySite.body[ATRIUM_USER]).toEqual({ workspace_id: s.ws2, partner_id: far.id });
    // A Partner of another Workspace is one the administrator cannot see; a value that is no id is invalid.
    expectScimError(await admin.post('/Users', newUser({ partner_id: far.id })), 404);
    expectScimError(await admin.post('/Users', newUser({ partner_id: 'acme' })), 400, 'invalidValue');
  });

  it('refuses partner_id from a key that does not administer the Workspace, a Partner Admin\'s included', async () => {
    const partner = await partnerIn(s.ws1, s.admin1.key, { allow_user_creation: true });
    const partnerAdmin = (await t.api.post('/users', { username: unique('pa'), partner_id: partner.id, partner_admin: true }, { key: s.admin1.key })).body;
    const key = (await t.api.post('/api_keys', { name: 'k', user_id: partnerAdmin.id }, { key: s.admin1.key })).body.key as string;
    const byPartnerAdmin = admin.as(key);
    expectScimError(await byPartnerAdmin.post('/Users', newUser({ partner_id: partner.id })), 403);
    // Without naming it, a Partner Admin who may create users provisions them into its own Partner.
    const own = await byPartnerAdmin.post('/Users', newUser());
    expect([own.status, own.body[ATRIUM_USER]]).toEqual([201, { workspace_id: s.ws1, partner_id: partner.id }]);
    expectScimError(await admin.as(s.member1.key).post('/Users', newUser({ partner_id: partner.id })), 403);
    expect(await t.database.db.selectFrom('users').select('id').where('partner_id', '=', partner.id).execute()).toHaveLength(2);
  });

  it('keeps partner_id as it was set: another value is a mutability error, the same one no change', async () => {
    const partner = await partnerIn(s.ws1, s.admin1.key);
    const other = await partnerIn(s.ws1, s.admin1.key);
    const user = (await admin.post('/Users', newUser({ partner_id: partner.id }))).body;
    const replace = (value: unknown) => ({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: `${ATRIUM_USER}:partner_id`, value }] });
    expectScimError(await admin.patch(`/Users/${user.id}`, replace(other.id)), 400, 'mutability');
    expectScimError(await admin.put(`/Users/${user.id}`, { ...user, [ATRIUM_USER]: { workspace_id: s.ws1, partner_id: other.id } }), 400, 'mutability');
    const plain = (await admin.post('/Users', newUser())).body;
    expectScimError(await admin.put(`/Users/${plain.id}`, { ...plain, [ATRIUM_USER]: { workspace_id: s.ws1, partner_id: partner.id } }), 400, 'mutability');
    const same = await admin.put(`/Users/${user.id}`, { ...user, displayName: 'Renamed' });
    expect([same.status, same.body[ATRIUM_USER].partner_id, same.body.displayName]).toEqual([200, partner.id, 'Renamed']);
  });
});
