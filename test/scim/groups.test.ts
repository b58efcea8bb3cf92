import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser, unique } from '../support/factories.js';
import { buildSite, type SiteFixture } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { expectScimError, listedOrder, PATCH_OP, ScimClient } from './scim-client.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ATRIUM_GROUP = 'urn:ietf:params:scim:schemas:extension:atrium:2.0:Group';

describe.each(testDatabaseTargets())('SCIM Groups [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  let scim: ScimClient;
  beforeAll(async () => {
    t = await startTestApp(target);
    s = await buildSite(t);
    scim = new ScimClient(t.baseUrl, BOOTSTRAP_KEY);
  });
  afterAll(() => t.close());

  const user = async (workspaceId: number) => createUser(t.database.db, { workspaceId, username: unique('gm') });
  const memberIds = (body: { members: { value: string }[] }) => body.members.map((m) => m.value).sort();
  const restMembers = async (groupId: string) => {
    const response = await t.api.get(`/groups/${groupId}`, { key: BOOTSTRAP_KEY });
    return (response.body.user_ids === '' ? [] : String(response.body.user_ids).split(',')).sort();
  };

  it('creates a group with members, shows it, and the REST API shows the same group', async () => {
    const [u1, u2] = [await user(s.ws1), await user(s.ws1)];
    const created = await scim.post('/Groups', {
      schemas: [GROUP_SCHEMA], displayName: unique('Engineering'), externalId: 'ext-eng', members: [{ value: String(u1.id) }, { value: String(u2.id) }],
      [ATRIUM_GROUP]: { workspace_id: s.ws1, admins: [{ value: String(u1.id) }] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ schemas: [GROUP_SCHEMA, ATRIUM_GROUP], externalId: 'ext-eng', meta: { resourceType: 'Group' }, [ATRIUM_GROUP]: { workspace_id: s.ws1, admins: [{ value: String(u1.id) }] } });
    expect(memberIds(created.body)).toEqual([String(u1.id), String(u2.id)].sort());
    expect(created.body.members[0]).toMatchObject({ type: 'User', display: expect.any(String) });
    expect((await scim.get(`/Groups/${created.body.id}`)).body).toEqual(created.body);
    expect(await restMembers(created.body.id)).toEqual(memberIds(created.body));
    const rest = await t.api.get(`/groups/${created.body.id}`, { key: BOOTSTRAP_KEY });
    expect(rest.body.admin_ids).toBe(String(u1.id));
  });

  it('moves meta.lastModified of a group and of its member when the membership changes, and not otherwise', async () => {
    const member = await user(s.ws1);
    const created = await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('Timed'), [ATRIUM_GROUP]: { workspace_id: s.ws1 } });
    expect(created.body.meta.lastModified).toBe(created.body.meta.created);
    const before = (await scim.get(`/Users/${member.id}`)).body.meta.lastModified as string;

    t.clock.advanceMinutes(5);
    const added = await scim.patch(`/Groups/${created.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: String(member.id) }] }] });
    expect(added.status).toBe(200);
    const changedAt = new Date(t.clock.now()).toISOString();
    expect(added.body.meta.lastModified).toBe(changedAt);
    expect(added.body.meta.created).toBe(created.body.meta.created);
    expect((await scim.get(`/Groups/${created.body.id}`)).body.meta).toEqual(added.body.meta);
    const memberAfter = (await scim.get(`/Users/${member.id}`)).body.meta.lastModified as string;
    expect(memberAfter).toBe(changedAt);
    expect(memberAfter).not.toBe(before);

    // Reading changes nothing; a rename moves it again.
    t.clock.advanceMinutes(5);
    expect((await scim.get(`/Groups/${created.body.id}`)).body.meta.lastModified).toBe(added.body.meta.lastModified);
    const renamed = await scim.patch(`/Groups/${created.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: unique('Renamed') }] });
    expect(renamed.body.meta.lastModified > added.body.meta.lastModified).toBe(true);
  });

  it('applies a PATCH whole or not at all: one refused member leaves the group as it was', async () => {
    const [stays, joins, outsider] = [await user(s.ws1), await user(s.ws1), await user(s.ws2)];
    const group = (await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('Atomic'), members: [{ value: String(stays.id) }], [ATRIUM_GROUP]: { workspace_id: s.ws1 } })).body;
    const refused = await scim.patch(`/Groups/${group.id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'remove', path: `members[value eq "${stays.id}"]` },
        { op: 'add', path: 'members', value: [{ value: String(joins.id) }] },
        { op: 'add', path: 'members', value: [{ value: String(outsider.id) }] },
      ],
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    const after = (await scim.get(`/Groups/${group.id}`)).body;
    expect(memberIds(after)).toEqual([String(stays.id)]);
    expect(after.meta).toEqual(group.meta);
    expect(await restMembers(group.id)).toEqual([String(stays.id)]);
  });

  it('refuses a second group of the same name in the Workspace with 409 uniqueness', async () => {
    const displayName = unique('Dup');
    expect((await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName, [ATRIUM_GROUP]: { workspace_id: s.ws1 } })).status).toBe(201);
    expectScimError(await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: displayName.toUpperCase(), [ATRIUM_GROUP]: { workspace_id: s.ws1 } }), 409, 'uniqueness');
    expectScimError(await scim.post('/Groups', { schemas: [GROUP_SCHEMA] }), 400, 'invalidValue');
    expectScimError(await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: 'x', members: [{ value: 'abc' }] }), 400, 'invalidValue');
  });

  it('lists with filters on displayName, externalId and members, and leaves members out when asked', async () => {
    const u1 = await user(s.ws1);
    const displayName = unique('Filtered');
    const group = (await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName, externalId: `x-${displayName}`, members: [{ value: String(u1.id) }], [ATRIUM_GROUP]: { workspace_id: s.ws1 } })).body;
    const find = async (filter: string, extra = '') => (await scim.get(`/Groups?filter=${encodeURIComponent(filter)}${extra}`)).body;
    expect((await find(`displayName eq "${displayName.toLowerCase()}"`)).Resources.map((g: { id: string }) => g.id)).toEqual([group.id]);
    expect((await find(`externalId eq "x-${displayName}"`)).Resources.map((g: { id: string }) => g.id)).toEqual([group.id]);
    expect((await find(`id eq "${group.id}" and members[value eq "${u1.id}"]`)).totalResults).toBe(1);
    expect((await find(`id eq "${group.id}" and members[value eq "999999"]`)).totalResults).toBe(0);
    const slim = await find(`displayName eq "${displayName}"`, '&excludedAttributes=members');
    expect(slim.Resources[0].members).toBeUndefined();
    expect(slim.Resources[0].displayName).toBe(displayName);
    expectScimError(await scim.get(`/Groups?filter=${encodeURIComponent('owner eq "x"')}`), 400, 'invalidFilter');
  });

  it('sorts groups by displayName and externalId, in either order', async () => {
    const tag = unique('sorted').toLowerCase();
    const made: Record<string, string> = {};
    for (const [key, name, externalId] of [['b', `${tag} Beta`, 'e1'], ['a', `${tag} alpha`, 'e2'], ['c', `${tag} Gamma`, undefined]] as const) {
      made[key] = (await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: name, ...(externalId === undefined ? {} : { externalId }) })).body.id;
    }
    const expected = { 'sortBy=displayName': 'abc', 'sortBy=displayName&sortOrder=descending': 'cba', 'sortBy=externalId': 'bac', 'sortBy=externalId&sortOrder=descending': 'cab', 'sortBy=id': 'bac' };
    for (const [query, order] of Object.entries(expected)) expect(await listedOrder(scim, 'Groups', `displayName sw "${tag}"`, made, query), query).toBe(order);
    expectScimError(await scim.get('/Groups?sortBy=members'), 400, 'invalidValue');
  });

  it('adds and removes members with PATCH in every form, renames, and replaces with PUT; DELETE removes the group', async () => {
    const [u1, u2, u3] = [await user(s.ws1), await user(s.ws1), await user(s.ws1)];
    const group = (await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('Patched'), [ATRIUM_GROUP]: { workspace_id: s.ws1 } })).body;
    const patch = async (Operations: unknown[]) => {
      const response = await scim.patch(`/Groups/${group.id}`, { schemas: [PATCH_OP], Operations });
      expect(response.status).toBe(200);
      expect(await restMembers(group.id)).toEqual(memberIds(response.body));
      return response.body;
    };
    expect(memberIds(await patch([{ op: 'add', path: 'members', value: [{ value: String(u1.id) }, { value: String(u2.id) }] }]))).toEqual([String(u1.id), String(u2.id)].sort());
    expect(memberIds(await patch([{ op: 'remove', path: `members[value eq "${u1.id}"]` }]))).toEqual([String(u2.id)]);
    expect(memberIds(await patch([{ op: 'add', value: { members: [{ value: String(u3.id) }] } }]))).toEqual([String(u2.id), String(u3.id)].sort());
    expect(memberIds(await patch([{ op: 'remove', path: 'members', value: [{ value: String(u2.id) }] }]))).toEqual([String(u3.id)]);
    expect(memberIds(await patch([{ op: 'replace', path: 'members', value: [{ value: String(u1.id) }] }]))).toEqual([String(u1.id)]);
    expect((await patch([{ op: 'replace', path: 'displayName', value: `${group.displayName}-2` }])).displayName).toBe(`${group.displayName}-2`);
    expect(memberIds(await patch([{ op: 'remove', path: 'members' }]))).toEqual([]);
    const replaced = await scim.put(`/Groups/${group.id}`, { schemas: [GROUP_SCHEMA], displayName: `${group.displayName}-3`, members: [{ value: String(u2.id) }] });
    expect(replaced.status).toBe(200);
    expect(memberIds(replaced.body)).toEqual([String(u2.id)]);
    expectScimError(await scim.put(`/Groups/${group.id}`, { schemas: [GROUP_SCHEMA], displayName: 'x', [ATRIUM_GROUP]: { workspace_id: s.ws2 } }), 400, 'mutability');
    expectScimError(await scim.patch(`/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: '999999' }] }] }), 404);
    expect((await scim.delete(`/Groups/${group.id}`)).status).toBe(204);
    expectScimError(await scim.get(`/Groups/${group.id}`), 404);
    expect((await t.api.get(`/groups/${group.id}`, { key: BOOTSTRAP_KEY })).status).toBe(404);
  });

  it('honours If-Match on groups', async () => {
    const group = (await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: unique('Versioned'), [ATRIUM_GROUP]: { workspace_id: s.ws1 } })).body;
    expect((await scim.get(`/Groups/${group.id}`)).headers.get('etag')).toBe(group.meta.version);
    const body = { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: String(s.member1.user.id) }] }] };
    expect((await scim.patch(`/Groups/${group.id}`, body, { 'if-match': group.meta.version })).status).toBe(200);
    expectScimError(await scim.patch(`/Groups/${group.id}`, body, { 'if-match': group.meta.version }), 412);
  });
});
