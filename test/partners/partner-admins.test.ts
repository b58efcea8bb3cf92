import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryRow } from '../../src/repositories/history.js';
import { testDatabaseTargets } from '../support/databases.js';
import { unique } from '../support/factories.js';
import { buildSite, type SiteFixture } from '../support/site-fixture.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const PARTNER_ADMIN_REFUSAL = 'not-authorized/site-admin-or-workspace-admin-or-partner-admin-permission-required';
const PASSWORD = 'a long enough password 7';

interface Flags {
  allow_user_creation?: boolean;
  allow_credential_changes?: boolean;
}

/** Partner Admins through the REST API: each flag with and without, every refusal, what History records. */
describe.each(testDatabaseTargets())('Partner Admins [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  beforeAll(async () => {
    t = await startTestApp(target);
    s = await buildSite(t);
  });
  afterAll(() => t.close());

  const records = (action: string) => t.database.db.selectFrom('history').selectAll().where('action', '=', action).orderBy('id').execute();
  const targetsOf = (row: HistoryRow | undefined) => JSON.parse(row?.targets ?? 'null') as Record<string, unknown>;
  const ids = (body: { id: number }[]) => body.map((row) => row.id);

  /** A Partner of ws1 with these flags: a Partner Admin with its own key, a second Partner Admin and two plain users. */
  async function partnerWith(flags: Flags) {
    const admin = s.admin1.key;
    const partner = (await t.api.post('/partners', { name: unique('P'), root_folder: unique('p'), notes: 'private', ...flags }, { key: admin })).body;
    const user = async (fields: Record<string, unknown> = {}) =>
      (await t.api.post('/users', { username: unique('pu'), partner_id: partner.id, password: PASSWORD, ...fields }, { key: admin })).body as { id: number; username: string };
    const partnerAdmin = await user({ partner_admin: true });
    const key = (await t.api.post('/api_keys', { name: 'pa', user_id: partnerAdmin.id }, { key: admin })).body.key as string;
    return { partner, partnerAdmin, key, otherAdmin: await user({ partner_admin: true }), plain: await user(), plain2: await user() };
  }

  const setFlags = (partnerId: number, flags: Flags) => t.api.patch(`/partners/${partnerId}`, flags, { key: s.admin1.key });

  it('with no flag is an ordinary Partner user: sees itself and its Partner (without notes), manages nobody', async () => {
    const p = await partnerWith({});
    const listed = await t.api.get('/users', { key: p.key });
    expect([listed.status, ids(listed.body)]).toEqual([200, [p.partnerAdmin.id]]);
    expect((await t.api.get(`/users/${p.plain.id}`, { key: p.key })).body.type).toBe('not-found/user-not-found');
    const partners = await t.api.get('/partners', { key: p.key });
    expect(partners.body).toHaveLength(1);
    expect(partners.body[0]).toMatchObject({ id: p.partner.id, user_ids: [p.partnerAdmin.id], partner_admin_ids: [p.partnerAdmin.id] });
    expect(partners.body[0]).not.toHaveProperty('notes');
    const created = await t.api.post('/users', { username: unique('x') }, { key: p.key });
    expect([created.status, created.body.type]).toEqual([403, PARTNER_ADMIN_REFUSAL]);
    expect(created.body.error).toContain('allow_user_creation');
    for (const response of [
      await t.api.delete(`/users/${p.plain.id}`, { key: p.key }),
      await t.api.patch(`/users/${p.plain.id}`, { password: 'another long password 8' }, { key: p.key }),
      await t.api.post('/api_keys', { name: 'k', user_id: p.plain.id }, { key: p.key }),
      await t.api.post('/public_keys', { title: 'k', user_id: p.plain.id, generate_keypair: true }, { key: p.key }),
    ]) {
      expect([response.status, response.body.type]).toEqual([404, 'not-found/user-not-found']);
    }
  });

  it('a plain Partner user sees its own Partner and itself, no other Partner, and is refused as before', async () => {
    const p = await partnerWith({ allow_user_creation: true, allow_credential_changes: true });
    const other = await partnerWith({});
    const key = (await t.api.post('/api_keys', { name: 'k', user_id: p.plain.id }, { key: s.admin1.key })).body.key as string;
    expect(ids((await t.api.get('/partners', { key })).body)).toEqual([p.partner.id]);
    expect((await t.api.get(`/partners/${p.partner.id}`, { key })).body).toMatchObject({ id: p.partner.id, user_ids: [p.plain.id], partner_admin_ids: [] });
    expect((await t.api.get(`/partners/${other.partner.id}`, { key })).status).toBe(404);
    expect(ids((await t.api.get('/users', { key })).body)).toEqual([p.plain.id]);
    const created = await t.api.post('/users', { username: unique('x') }, { key });
    expect([created.status, created.body.type]).toEqual([403, 'not-authorized/site-admin-or-workspace-admin-permission-required']);
    // A member of the Workspace who is no Partner user sees no Partner at all.
    expect((await t.api.get('/partners', { key: s.member1.key })).body).toEqual([]);
  });

  it('with allow_user_creation creates users of its own Partner only, with identity fields and a password, recorded', async () => {
    const p = await partnerWith({ allow_user_creation: true });
    const other = await partnerWith({ allow_user_creation: true });
    // It sees its Partner's users, Partner Admins included, and nobody else.
    const listed = await t.api.get('/users', { key: p.key });
    expect(ids(listed.body).sort()).toEqual([p.partnerAdmin.id, p.otherAdmin.id, p.plain.id, p.plain2.id].sort());
    expect(ids((await t.api.get(`/users?filter[partner_id]=${p.partner.id}`, { key: p.key })).body)).toHaveLength(4);
    expect((await t.api.get(`/users?filter[partner_id]=${other.partner.id}`, { key: p.key })).body).toEqual([]);
    expect((await t.api.get(`/users/${other.plain.id}`, { key: p.key })).status).toBe(404);
    expect((await t.api.get(`/partners/${p.partner.id}`, { key: p.key })).body.user_ids).toHaveLength(4);

    const username = unique('made');
    const made = await t.api.post('/users', {
      username, password: PASSWORD, name: 'Made Here', email: 'made@example.com', company: 'Acme', time_zone: 'UTC', require_password_change: true,
    }, { key: p.key });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      username, partner_id: p.partner.id, partner_admin: false, workspace_id: s.ws1, site_admin: false, workspace_admin: false, group_ids: '', company: 'Acme',
      require_password_change: true,
    });
    const recorded = (await records('user_create')).at(-1);
    expect(recorded).toMatchObject({ user_id: p.partnerAdmin.id, workspace_id: s.ws1 });
    expect(targetsOf(recorded)).toMatchObject({ id: made.body.id, partner_id: p.partner.id, partner_admin: false });
    // Naming its own Partner is the same.
    expect((await t.api.post('/users', { username: unique('made'), partner_id: p.partner.id }, { key: p.key })).status).toBe(201);
    const elsewhere = await t.api.post('/users', { username: unique('made'), partner_id: other.partner.id }, { key: p.key });
    expect([elsewhere.status, elsewhere.body.error]).toEqual([404, 'Partner not found.']);
    const otherWorkspace = await t.api.post('/users', { username: unique('made'), workspace_id: s.ws2 }, { key: p.key });
    expect([otherWorkspace.status, Object.keys(otherWorkspace.body.model_errors ?? {})]).toEqual([422, ['workspace_id']]);

    const refused: [Record<string, unknown>, string][] = [
      [{ site_admin: true }, 'site_admin'], [{ workspace_admin: true }, 'workspace_admin'], [{ partner_admin: true }, 'partner_admin'],
      [{ group_ids: String(s.delegatesGroup) }, 'group_ids'], [{ allowed_ips: '10.0.0.1' }, 'allowed_ips'], [{ notes: 'n' }, 'notes'],
      [{ user_root: 'x' }, 'user_root'], [{ authenticate_until: '2099-01-01T00:00:00Z' }, 'authenticate_until'], [{ ssl_required: 'always_require' }, 'ssl_required'],
      // Its users' sign-in is not its to hand to a provider (access/authentication-authority.ts); refused before the provider is looked up.
      [{ authentication_method: 'sso', sso_strategy_id: 1 }, 'authentication_method'],
    ];
    for (const [fields, named] of refused) {
      const response = await t.api.post('/users', { username: unique('no'), ...fields }, { key: p.key });
      expect({ fields, status: response.status, type: response.body.type, named: String(response.body.error).includes(named) })
        .toEqual({ fields, status: 403, type: 'not-authorized/insufficient-permission-for-params', named: true });
    }
    // Values that change nothing are taken, as SDKs send them.
    expect((await t.api.post('/users', { username: unique('made'), site_admin: false, partner_admin: false, allowed_ips: '' }, { key: p.key })).status).toBe(201);
  });

  it('with allow_user_creation deletes its Partner\'s users who are not Partner Admins, recorded, and nobody else', async () => {
    const p = await partnerWith({ allow_user_creation: true });
    const other = await partnerWith({ allow_user_creation: true });
    expect((await t.api.delete(`/users/${p.plain.id}`, { key: p.key })).status).toBe(204);
    expect((await t.api.get(`/users/${p.plain.id}`, { key: s.admin1.key })).status).toBe(404);
    const destroyed = (await records('user_destroy')).at(-1);
    expect([destroyed?.user_id, targetsOf(destroyed).id, targetsOf(destroyed).partner_id]).toEqual([p.partnerAdmin.id, p.plain.id, p.partner.id]);
    const colleague = await t.api.delete(`/users/${p.otherAdmin.id}`, { key: p.key });
    expect([colleague.status, colleague.body.type]).toEqual([403, PARTNER_ADMIN_REFUSAL]);
    const itself = await t.api.delete(`/users/${p.partnerAdmin.id}`, { key: p.key });
    expect([itself.status, itself.body.type]).toEqual([403, PARTNER_ADMIN_REFUSAL]);
    for (const outside of [other.plain.id, s.member1.user.id, s.admin1.user.id]) {
      const response = await t.api.delete(`/users/${outside}`, { key: p.key });
      expect([response.status, response.body.type]).toEqual([404, 'not-found/user-not-found']);
    }
    // Credentials are the other flag's.
    const password = await t.api.patch(`/users/${p.plain2.id}`, { password: 'another long password 8' }, { key: p.key });
    expect([password.status, password.body.type]).toEqual([403, PARTNER_ADMIN_REFUSAL]);
    expect(password.body.error).toContain('allow_credential_changes');
    const key = await t.api.post('/api_keys', { name: 'k', user_id: p.plain2.id }, { key: p.key });
    expect([key.status, key.body.type]).toEqual([403, PARTNER_ADMIN_REFUSAL]);
    const ssh = await t.api.post('/public_keys', { title: 'k', user_id: p.plain2.id, generate_keypair: true }, { key: p.key });
    expect([ssh.status, ssh.body.type]).toEqual([403, PARTNER_ADMIN_REFUSAL]);
  });

  it('with allow_credential_changes resets passwords, API keys and SSH keys of its Partner\'s users, recorded, and nothing else', async () => {
    const p = await partnerWith({ allow_credential_changes: true });
    const other = await partnerWith({ allow_credential_changes: true });
    const newPassword = 'another long password 8';
    const reset = await t.api.patch(`/users/${p.plain.id}`, { password: newPassword, require_password_change: true }, { key: p.key });
    expect([reset.status, reset.body.require_password_change]).toEqual([200, true]);
    const updated = (await records('user_update')).at(-1);
    expect(updated?.user_id).toBe(p.partnerAdmin.id);
    expect(targetsOf(updated)).toMatchObject({ id: p.plain.id, changed: ['require_password_change', 'password'] });
    expect((await t.api.post('/sessions', { username: p.plain.username, password: newPassword })).status).toBe(201);
    // Sent back unchanged, as SDKs save, the other fields are no change.
    expect((await t.api.patch(`/users/${p.plain.id}`, { password: PASSWORD, name: reset.body.name, site_admin: false }, { key: p.key })).status).toBe(200);
    for (const [fields, named] of [[{ name: 'Renamed' }, 'name'], [{ email: 'x@example.com' }, 'email'], [{ disabled: true }, 'disabled'], [{ allowed_ips: '10.0.0.1' }, 'allowed_ips'], [{ partner_admin: true }, 'partner_admin'], [{ sftp_permission: false }, 'sftp_permission']] as const) {
      const response = await t.api.patch(`/users/${p.plain.id}`, fields, { key: p.key });
      expect({ fields, status: response.status, type: response.body.type, named: String(response.body.error).includes(named) })
        .toEqual({ fields, status: 403, type: 'not-authorized/insufficient-permission-for-params', named: true });
    }
    const colleague = await t.api.patch(`/users/${p.otherAdmin.id}`, { password: newPassword }, { key: p.key });
    expect([colleague.status, colleague.body.type]).toEqual([403, PARTNER_ADMIN_REFUSAL]);
    const outside = await t.api.patch(`/users/${other.plain.id}`, { password: newPassword }, { key: p.key });
    expect([outside.status, outside.body.type]).toEqual([404, 'not-found/user-not-found']);

    const made = await t.api.post('/api_keys', { name: 'for-plain', user_id: p.plain.id }, { key: p.key });
    expect([made.status, made.body.user_id]).toEqual([201, p.plain.id]);
    expect((await records('api_key_create')).at(-1)?.user_id).toBe(p.partnerAdmin.id);
    // The key acts as its user, and no more: it sees what the user sees.
    expect(ids((await t.api.get('/users', { key: made.body.key })).body)).toEqual([p.plain.id]);
    expect(ids((await t.api.get(`/api_keys?user_id=${p.plain.id}`, { key: p.key })).body)).toContain(made.body.id);
    expect(ids((await t.api.get('/api_keys', { key: p.key })).body)).toContain(made.body.id);
    expect((await t.api.delete(`/api_keys/${made.body.id}`, { key: p.key })).status).toBe(204);
    expect((await records('api_key_destroy')).at(-1)?.user_id).toBe(p.partnerAdmin.id);
    const ssh = await t.api.post('/public_keys', { title: 'for-plain', user_id: p.plain.id, generate_keypair: true }, { key: p.key });
    expect([ssh.status, ssh.body.user_id]).toEqual([201, p.plain.id]);
    expect((await records('public_key_create')).at(-1)?.user_id).toBe(p.partnerAdmin.id);
    expect(ids((await t.api.get('/public_keys', { key: p.key })).body)).toContain(ssh.body.id);
    expect((await t.api.delete(`/public_keys/${ssh.body.id}`, { key: p.key })).status).toBe(204);
    expect((await records('public_key_destroy')).at(-1)?.user_id).toBe(p.partnerAdmin.id);
    // Another Partner Admin's keys, and anyone's outside the Partner, are not its to make.
    const onColleague = await t.api.post('/api_keys', { name: 'k', user_id: p.otherAdmin.id }, { key: p.key });
    expect([onColleague.status, onColleague.body.type]).toEqual([403, PARTNER_ADMIN_REFUSAL]);
    for (const userId of [other.plain.id, s.member1.user.id]) {
      const response = await t.api.post('/api_keys', { name: 'k', user_id: userId }, { key: p.key });
      expect([response.status, response.body.type]).toEqual([404, 'not-found/user-not-found']);
    }
    // Creating and deleting users is the other flag's.
    const created = await t.api.post('/users', { username: unique('x') }, { key: p.key });
    expect([created.status, created.body.type]).toEqual([403, PARTNER_ADMIN_REFUSAL]);
    const deleted = await t.api.delete(`/users/${p.plain2.id}`, { key: p.key });
    expect([deleted.status, deleted.body.type]).toEqual([403, PARTNER_ADMIN_REFUSAL]);
  });

  it('follows the Partner\'s flags from the next request on', async () => {
    const p = await partnerWith({ allow_user_creation: true });
    expect((await t.api.post('/users', { username: unique('x') }, { key: p.key })).status).toBe(201);
    expect((await setFlags(p.partner.id, { allow_user_creation: false })).status).toBe(200);
    expect((await t.api.post('/users', { username: unique('x') }, { key: p.key })).body.type).toBe(PARTNER_ADMIN_REFUSAL);
    expect(ids((await t.api.get('/users', { key: p.key })).body)).toEqual([p.partnerAdmin.id]);
    // No longer a Partner Admin: an ordinary Partner user.
    expect((await setFlags(p.partner.id, { allow_user_creation: true })).status).toBe(200);
    expect((await t.api.patch(`/users/${p.partnerAdmin.id}`, { partner_admin: false }, { key: s.admin1.key })).status).toBe(200);
    const demoted = await t.api.post('/users', { username: unique('x') }, { key: p.key });
    expect([demoted.status, demoted.body.type]).toEqual([403, 'not-authorized/site-admin-or-workspace-admin-permission-required']);
  });

  it('never grants, makes groups, Workspaces or Partners, changes its Partner, or raises itself', async () => {
    const p = await partnerWith({ allow_user_creation: true, allow_credential_changes: true });
    await t.api.post('/folders/pa-grant', {}, { key: s.admin1.key });
    const grant = await t.api.post('/permissions', { path: 'pa-grant', user_id: p.plain.id, permission: 'full' }, { key: p.key });
    expect(grant.status).toBe(403);
    const attempts = [
      await t.api.post('/groups', { name: unique('g') }, { key: p.key }),
      await t.api.post('/workspaces', { name: unique('w') }, { key: p.key }),
      await t.api.post('/partners', { name: unique('p'), root_folder: 'pp' }, { key: p.key }),
      await t.api.patch(`/partners/${p.partner.id}`, { allow_providing_gpg_keys: true }, { key: p.key }),
      await t.api.delete(`/partners/${p.partner.id}`, { key: p.key }),
    ];
    for (const response of attempts) expect(response.status).toBe(403);
    for (const fields of [{ partner_admin: false }, { workspace_admin: true }, { site_admin: true }, { allowed_ips: '10.0.0.1' }]) {
      const response = await t.api.patch(`/users/${p.partnerAdmin.id}`, fields, { key: p.key });
      // Refused as for anyone (a Partner user holds no administration: 422), never taken.
      expect({ fields, refused: [403, 422].includes(response.status) }).toEqual({ fields, refused: true });
    }
    const stored = await t.database.db.selectFrom('users').select(['partner_admin', 'site_admin', 'workspace_admin']).where('id', '=', p.partnerAdmin.id).executeTakeFirstOrThrow();
    expect([Boolean(stored.partner_admin), Boolean(stored.site_admin), Boolean(stored.workspace_admin)]).toEqual([true, false, false]);
    expect(await t.database.db.selectFrom('permissions').select('id').where('user_id', '=', p.plain.id).execute()).toEqual([]);
  });

  it('opens no door it may not use itself, to a user it creates or one it makes a key for', async () => {
    const p = await partnerWith({ allow_user_creation: true, allow_credential_changes: true });
    // Its own SFTP is closed (by an administrator); the plain user's is open.
    expect((await t.api.patch(`/users/${p.partnerAdmin.id}`, { sftp_permission: false }, { key: s.admin1.key })).status).toBe(200);
    const made = await t.api.post('/users', { username: unique('made') }, { key: p.key });
    expect([made.status, made.body.sftp_permission, made.body.dav_permission]).toEqual([201, false, true]);
    const opening = await t.api.post('/users', { username: unique('made'), sftp_permission: true }, { key: p.key });
    expect([opening.status, opening.body.type]).toEqual([403, 'not-authorized/insufficient-permission-for-params']);
    for (const response of [
      await t.api.post('/api_keys', { name: 'k', user_id: p.plain.id }, { key: p.key }),
      await t.api.patch(`/users/${p.plain.id}`, { password: 'another long password 8' }, { key: p.key }),
    ]) {
      expect([response.status, response.body.type]).toEqual([403, 'not-authorized/insufficient-permission-for-params']);
    }
    // For the user it made, whose SFTP is closed as its own is, it may.
    expect((await t.api.post('/api_keys', { name: 'k', user_id: made.body.id }, { key: p.key })).status).toBe(201);
  });
});
