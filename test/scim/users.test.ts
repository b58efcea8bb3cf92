import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createApiKey, createGroup, createSession, createUser, unique } from '../support/factories.js';
import { buildSite, type SiteFixture } from '../support/site-fixture.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { ATRIUM_USER, expectScimError, listedOrder, PATCH_OP, ScimClient, USER_SCHEMA } from './scim-client.js';

describe.each(testDatabaseTargets())('SCIM Users [$name]', (target) => {
  let t: TestApp;
  let s: SiteFixture;
  let scim: ScimClient;
  beforeAll(async () => {
    t = await startTestApp(target);
    s = await buildSite(t);
    scim = new ScimClient(t.baseUrl, BOOTSTRAP_KEY);
  });
  afterAll(() => t.close());

  const newUser = (userName = unique('scim'), extra: Record<string, unknown> = {}) => ({
    schemas: [USER_SCHEMA], userName, name: { givenName: 'Ada', familyName: 'Lovelace' }, emails: [{ value: `${userName}@example.com`, type: 'work', primary: true }], active: true, ...extra,
  });

  describe('create and read', () => {
    it('creates a user with POST and shows it by id, with meta, ETag and the Atrium extension', async () => {
      const created = await scim.post('/Users', newUser('ada.scim', { [ATRIUM_USER]: { workspace_id: s.ws1 } }));
      expect(created.status).toBe(201);
      expect(created.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      expect(created.body).toMatchObject({
        schemas: [USER_SCHEMA, ATRIUM_USER], userName: 'ada.scim', displayName: 'Ada Lovelace', name: { formatted: 'Ada Lovelace' },
        emails: [{ value: 'ada.scim@example.com', type: 'work', primary: true }], active: true, groups: [], [ATRIUM_USER]: { workspace_id: s.ws1 },
        meta: { resourceType: 'User' },
      });
      expect(created.headers.get('location')).toBe(created.body.meta.location);
      expect(created.body.meta.location).toMatch(new RegExp(`/scim/v2/Users/${created.body.id}$`));
      expect(created.headers.get('etag')).toBe(created.body.meta.version);
      const shown = await scim.get(`/Users/${created.body.id}`);
      expect(shown.status).toBe(200);
      expect(shown.body).toEqual(created.body);
      // The same user through the REST API.
      const rest = await t.api.get(`/users/${created.body.id}`, { key: BOOTSTRAP_KEY });
      expect(rest.body).toMatchObject({ username: 'ada.scim', name: 'Ada Lovelace', email: 'ada.scim@example.com', workspace_id: s.ws1, disabled: false });
    });

    it('accepts application/json bodies as well and answers in application/scim+json', async () => {
      const created = await scim.post('/Users', newUser(), { 'content-type': 'application/json' });
      expect(created.status).toBe(201);
      expect(created.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    });

    it('refuses a user name that differs only in case from an existing one with 409 uniqueness', async () => {
      const name = unique('Case');
      expect((await scim.post('/Users', newUser(name))).status).toBe(201);
      expectScimError(await scim.post('/Users', newUser(name.toUpperCase())), 409, 'uniqueness');
    });

    it('answers bad bodies with SCIM errors, never a 500', async () => {
      expectScimError(await scim.post('/Users', '{not json'), 400, 'invalidSyntax');
      expectScimError(await scim.post('/Users', { schemas: [USER_SCHEMA] }), 400, 'invalidValue');
      expectScimError(await scim.post('/Users', newUser(unique('x'), { active: 'maybe' })), 400, 'invalidValue');
      expectScimError(await scim.post('/Users', newUser('bad/name')), 400, 'invalidValue');
      const plain = await scim.post('/Users', JSON.stringify(newUser()), { 'content-type': 'text/plain' });
      expect(plain.status).toBe(415);
      expect(plain.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
      expectScimError(await scim.post('/Users', '[1, 2]'), 400, 'invalidSyntax');
      const huge = await scim.post('/Users', newUser(unique('big'), { title: 'x'.repeat(2 * 1024 * 1024) }));
      expect(huge.status).toBe(413);
      expect(huge.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
      expectScimError(await scim.get('/Users/abc'), 404);
      expectScimError(await scim.get('/Users/999999'), 404);
    });

    it('creates a disabled user when active is false', async () => {
      const created = await scim.post('/Users', newUser(unique('off'), { active: false }));
      expect(created.body.active).toBe(false);
      expect((await t.api.get(`/users/${created.body.id}`, { key: BOOTSTRAP_KEY })).body.disabled).toBe(true);
    });
  });

  describe('listing', () => {
    it('filters with eq, co, sw, pr, and, or, not and value filters, case-insensitively', async () => {
      const tag = unique('flt').toLowerCase();
      const a = (await scim.post('/Users', newUser(`${tag}-alpha`))).body;
      // Atrium keeps one address per user, shown as the primary work address; b has none.
      const b = (await scim.post('/Users', newUser(`${tag}-beta`, { emails: [] }))).body;
      const ids = async (filter: string) => {
        const response = await scim.get(`/Users?filter=${encodeURIComponent(filter)}`);
        expect(response.status).toBe(200);
        expect(response.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
        return response.body.Resources.map((r: { id: string }) => r.id).sort();
      };
      expect(await ids(`userName eq "${tag.toUpperCase()}-ALPHA"`)).toEqual([a.id]);
      expect(await ids(`userName sw "${tag}"`)).toEqual([a.id, b.id].sort());
      expect(await ids(`userName co "${tag}-b"`)).toEqual([b.id]);
      expect(await ids(`userName sw "${tag}" and emails[type eq "work"]`)).toEqual([a.id]);
      expect(await ids(`userName sw "${tag}" and emails.value ew "@EXAMPLE.com"`)).toEqual([a.id]);
      expect(await ids(`userName sw "${tag}" and not (emails pr)`)).toEqual([b.id]);
      expect(await ids(`userName sw "${tag}" and not (userName ew "alpha")`)).toEqual([b.id]);
      expect(await ids(`userName eq "${tag}-alpha" or userName eq "${tag}-beta"`)).toEqual([a.id, b.id].sort());
      expect(await ids(`userName sw "${tag}" and active eq true and displayName pr`)).toEqual([a.id, b.id].sort());
      expect(await ids(`id eq "${b.id}"`)).toEqual([b.id]);
    });

    it('stores externalId, finds users by it exactly, and keeps it through a PUT that leaves it out', async () => {
      const externalId = `ExT-${unique('id')}`;
      const user = (await scim.post('/Users', newUser(unique('ext'), { externalId }))).body;
      expect(user.externalId).toBe(externalId);
      const found = await scim.get(`/Users?filter=${encodeURIComponent(`externalId eq "${externalId}"`)}`);
      expect(found.body.Resources.map((r: { id: string }) => r.id)).toEqual([user.id]);
      const none = await scim.get(`/Users?filter=${encodeURIComponent('externalId eq "no-such-id"')}`);
      expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });
      const replaced = await scim.put(`/Users/${user.id}`, { schemas: [USER_SCHEMA], userName: user.userName, active: true });
      expect(replaced.body.externalId).toBe(externalId);
      const removed = await scim.patch(`/Users/${user.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: 'externalId' }] });
      expect(removed.body.externalId).toBeUndefined();
    });

    it('reads quoted filter values as JSON strings: an escaped backslash or quote, a \\u escape, and a lone backslash as itself', async () => {
      const tag = unique('esc').toLowerCase();
      const backslashed = (await scim.post('/Users', newUser(`${tag}-a`, { name: { formatted: 'Domain\\Ada' } }))).body;
      const quoted = (await scim.post('/Users', newUser(`${tag}-b`, { name: { formatted: 'Ada "the" Countess' } }))).body;
      const plain = (await scim.post('/Users', newUser(`${tag}-c`, { name: { formatted: 'Ada Plain' } }))).body;
      const ids = async (filter: string) => {
        const response = await scim.get(`/Users?filter=${encodeURIComponent(`userName sw "${tag}" and (${filter})`)}`);
        expect(response.status, `${filter}: ${response.text}`).toBe(200);
        return response.body.Resources.map((r: { id: string }) => r.id);
      };
      // One backslash, escaped: a valid filter, even where no value can hold one (user names cannot).
      const noneByName = await scim.get(`/Users?filter=${encodeURIComponent('userName co "\\\\"')}`);
      expect(noneByName.status).toBe(200);
      expect(noneByName.body.totalResults).toBe(0);
      expect(await ids('displayName co "\\\\"')).toEqual([backslashed.id]);
      expect(await ids('displayName eq "domain\\\\ada"')).toEqual([backslashed.id]);
      expect(await ids('displayName co "\\"the\\""')).toEqual([quoted.id]);
      expect(await ids('displayName ew "\\u0050lain"')).toEqual([plain.id]);
      // A backslash that starts no JSON escape, as some clients send it unescaped, stands for itself.
      expect(await ids('displayName eq "Domain\\Ada"')).toEqual([backslashed.id]);
      expect(await ids('userName eq "\\u0000"')).toEqual([]);
      expectScimError(await scim.get(`/Users?filter=${encodeURIComponent('displayName eq "unterminated\\"')}`), 400, 'invalidFilter');
    });

    it('sorts by sortBy and sortOrder, text without regard to case, missing values last when ascending', async () => {
      const tag = unique('sort').toLowerCase();
      const made: Record<string, string> = {};
      for (const [key, userName, name, externalId] of [['b', `${tag}-B`, 'beta', 'x2'], ['a', `${tag}-a`, 'Alpha', undefined], ['c', `${tag}-c`, 'gamma', 'X1']] as const) {
        made[key] = (await scim.post('/Users', newUser(userName, { name: { formatted: name }, ...(externalId === undefined ? {} : { externalId }) }))).body.id;
      }
      await scim.patch(`/Users/${made.c}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] });
      const expected: [string, string][] = [
        ['sortBy=userName', 'abc'],
        ['sortBy=username&sortOrder=descending', 'cba'],
        ['sortBy=displayName&sortOrder=Descending', 'cba'],
        [`sortBy=${encodeURIComponent('urn:ietf:params:scim:schemas:core:2.0:User:name.formatted')}`, 'abc'],
        // externalId is case-exact ("X1" before "x2"); the user without one comes last, or first when descending.
        ['sortBy=externalId', 'cba'],
        ['sortBy=externalId&sortOrder=descending', 'abc'],
        // false before true; equal values keep the list's order (by id).
        ['sortBy=active', 'cba'],
        ['sortBy=id&sortOrder=descending', 'cab'],
        ['sortBy=meta.created', 'bac'],
        ['sortBy=userName&startIndex=2&count=1', 'b'],
        ['sortOrder=descending', 'bac'],
      ];
      for (const [query, order] of expected) expect(await listedOrder(scim, 'Users', `userName sw "${tag}"`, made, query), query).toBe(order);
      expectScimError(await scim.get('/Users?sortBy=nickName'), 400, 'invalidValue');
      expectScimError(await scim.get('/Users?sortBy=userName&sortOrder=up'), 400, 'invalidValue');
    });

    it('refuses unsupported filters with 400 invalidFilter', async () => {
      expectScimError(await scim.get(`/Users?filter=${encodeURIComponent('userName zz "x"')}`), 400, 'invalidFilter');
      expectScimError(await scim.get(`/Users?filter=${encodeURIComponent('nickName eq "x"')}`), 400, 'invalidFilter');
      expectScimError(await scim.get(`/Users?filter=${encodeURIComponent('userName eq')}`), 400, 'invalidFilter');
    });

    it('pages with startIndex and count', async () => {
      const tag = unique('page').toLowerCase();
      for (let i = 0; i < 5; i += 1) await scim.post('/Users', newUser(`${tag}-${i}`));
      const filter = encodeURIComponent(`userName sw "${tag}"`);
      const first = await scim.get(`/Users?filter=${filter}&startIndex=1&count=2`);
      expect(first.body).toMatchObject({ totalResults: 5, startIndex: 1, itemsPerPage: 2 });
      const third = await scim.get(`/Users?filter=${filter}&startIndex=5&count=2`);
      expect(third.body.Resources.map((r: { userName: string }) => r.userName)).toEqual([`${tag}-4`]);
      const none = await scim.get(`/Users?filter=${filter}&count=0`);
      expect(none.body).toMatchObject({ totalResults: 5, itemsPerPage: 0, Resources: [] });
      expectScimError(await scim.get('/Users?count=many'), 400, 'invalidValue');
    });

    it('returns only the attributes asked for, or all but the excluded ones', async () => {
      const user = (await scim.post('/Users', newUser())).body;
      const some = await scim.get(`/Users/${user.id}?attributes=userName,name.givenName,emails.value`);
      expect(some.body).toEqual({ schemas: user.schemas, id: user.id, userName: user.userName, name: { givenName: 'Ada' }, emails: [{ value: user.emails[0].value }] });
      const without = await scim.get(`/Users?filter=${encodeURIComponent(`id eq "${user.id}"`)}&excludedAttributes=groups,meta,emails.type`);
      const shown = without.body.Resources[0];
      expect(shown.groups).toBeUndefined();
      expect(shown.meta).toBeUndefined();
      expect(shown.emails).toEqual([{ value: user.emails[0].value, primary: true }]);
      expect(shown.userName).toBe(user.userName);
    });
  });

  describe('replace, patch and delete', () => {
    it('replaces a user with PUT', async () => {
      const user = (await scim.post('/Users', newUser())).body;
      const replaced = await scim.put(`/Users/${user.id}`, { schemas: [USER_SCHEMA], userName: `${user.userName}-renamed`, displayName: 'Grace Hopper', active: false });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({ userName: `${user.userName}-renamed`, displayName: 'Grace Hopper', active: false });
      expect(replaced.body.emails).toBeUndefined();
      expect((await t.api.get(`/users/${user.id}`, { key: BOOTSTRAP_KEY })).body).toMatchObject({ email: '', disabled: true, name: 'Grace Hopper' });
    });

    it('patches with add, replace and remove, with and without a path, and value filters', async () => {
      const user = (await scim.post('/Users', newUser())).body;
      const patch = (Operations: unknown[]) => scim.patch(`/Users/${user.id}`, { schemas: [PATCH_OP], Operations });
      expect((await patch([{ op: 'replace', path: 'displayName', value: 'Renamed' }])).body.displayName).toBe('Renamed');
      expect((await patch([{ op: 'replace', path: 'emails[type eq "work"].value', value: 'new@example.com' }])).body.emails[0].value).toBe('new@example.com');
      expect((await patch([{ op: 'remove', path: 'emails[type eq "work"]' }])).body.emails).toBeUndefined();
      expect((await patch([{ op: 'add', path: 'emails', value: [{ value: 'added@example.com', type: 'work', primary: true }] }])).body.emails[0].value).toBe('added@example.com');
      expect((await patch([{ op: 'add', value: { 'name.formatted': 'Whole Name' } }])).body.displayName).toBe('Whole Name');
      expect((await patch([{ op: 'replace', value: { active: false } }])).body.active).toBe(false);
      expect((await t.api.get(`/users/${user.id}`, { key: BOOTSTRAP_KEY })).body).toMatchObject({ name: 'Whole Name', email: 'added@example.com', disabled: true });
    });

    it('refuses PATCH operations it cannot apply with the matching scimType', async () => {
      const user = (await scim.post('/Users', newUser())).body;
      const patch = (Operations: unknown) => scim.patch(`/Users/${user.id}`, { schemas: [PATCH_OP], Operations });
      expectScimError(await patch([{ op: 'move', path: 'displayName', value: 'x' }]), 400, 'invalidSyntax');
      expectScimError(await patch('nope'), 400, 'invalidSyntax');
      expectScimError(await patch([{ op: 'replace', path: 'emails[type eq "work"', value: 'x' }]), 400, 'invalidPath');
      // Attributes Atrium does not keep are ignored, as identity providers send their whole mapping.
      expect((await patch([{ op: 'replace', path: 'title', value: 'x' }, { op: 'add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'x' }])).status).toBe(200);
      expectScimError(await patch([{ op: 'remove' }]), 400, 'noTarget');
      expectScimError(await patch([{ op: 'add', path: 'groups', value: [{ value: String(s.delegatesGroup) }] }]), 400, 'mutability');
      expectScimError(await patch([{ op: 'replace', path: `${ATRIUM_USER}:workspace_id`, value: s.ws2 }]), 400, 'mutability');
      expectScimError(await patch([{ op: 'replace', path: 'emails[type zz "work"].value', value: 'x' }]), 400, 'invalidFilter');
    });

    it('honours If-Match: a stale version is 412, the current one or * goes ahead', async () => {
      const user = (await scim.post('/Users', newUser())).body;
      const body = { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'First' }] };
      const first = await scim.patch(`/Users/${user.id}`, body, { 'if-match': user.meta.version });
      expect(first.status).toBe(200);
      expect(first.body.meta.version).not.toBe(user.meta.version);
      expectScimError(await scim.patch(`/Users/${user.id}`, body, { 'if-match': user.meta.version }), 412);
      expectScimError(await scim.delete(`/Users/${user.id}`, { 'if-match': user.meta.version }), 412);
      expect((await scim.patch(`/Users/${user.id}`, body, { 'if-match': '*' })).status).toBe(200);
    });

    it('deletes a user as DELETE /users/<id> does: its keys and sessions end', async () => {
      const user = (await scim.post('/Users', newUser(unique('gone'), { [ATRIUM_USER]: { workspace_id: s.ws1 } }))).body;
      const key = await createApiKey(t.database.db, { userId: Number(user.id), workspaceId: s.ws1 });
      const session = await createSession(t.database.db, Number(user.id), t.clock.now());
      expect((await t.api.get(`/users/${user.id}`, { key })).status).toBe(200);
      expect((await scim.delete(`/Users/${user.id}`)).status).toBe(204);
      expectScimError(await scim.get(`/Users/${user.id}`), 404);
      expect((await t.api.get('/users', { key })).status).toBe(401);
      expect((await t.api.get('/users', { session })).status).toBe(401);
    });
  });

  describe('names, groups, versions and passwords', () => {
    const byId = async (id: string) => (await scim.get(`/Users/${id}`)).body;
    const patchUser = (id: string, Operations: unknown[], headers?: Record<string, string>) => scim.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations }, headers);

    it('keeps name.givenName and name.familyName as the identity provider sent them, and returns them', async () => {
      const user = (await scim.post('/Users', newUser())).body;
      expect(user.name).toEqual({ formatted: 'Ada Lovelace', givenName: 'Ada', familyName: 'Lovelace' });
      expect((await byId(user.id)).name).toEqual(user.name);
      const row = await t.database.db.selectFrom('users').select(['name', 'given_name', 'family_name']).where('id', '=', Number(user.id)).executeTakeFirstOrThrow();
      expect(row).toEqual({ name: 'Ada Lovelace', given_name: 'Ada', family_name: 'Lovelace' });
      // One part changed: the name is made from the parts, the other part kept.
      const married = await patchUser(user.id, [{ op: 'replace', path: 'name.familyName', value: 'King' }]);
      expect(married.body).toMatchObject({ displayName: 'Ada King', name: { formatted: 'Ada King', givenName: 'Ada', familyName: 'King' } });
      expect((await t.api.get(`/users/${user.id}`, { key: BOOTSTRAP_KEY })).body.name).toBe('Ada King');
      // displayName changed: it is the name, and the parts stay as sent.
      const titled = await patchUser(user.id, [{ op: 'replace', path: 'displayName', value: 'Countess of Lovelace' }]);
      expect(titled.body.name).toEqual({ formatted: 'Countess of Lovelace', givenName: 'Ada', familyName: 'King' });
      // A PUT replaces the user: parts it does not send are gone.
      const replaced = await scim.put(`/Users/${user.id}`, { schemas: [USER_SCHEMA], userName: user.userName, name: { givenName: 'Augusta' } });
      expect(replaced.body.name).toEqual({ formatted: 'Augusta', givenName: 'Augusta' });
    });

    it('drops the parts when the name is changed elsewhere, since they described the old name', async () => {
      const user = (await scim.post('/Users', newUser())).body;
      expect((await t.api.patch(`/users/${user.id}`, { name: 'Ada Lovelace', email: 'same-name@example.com' }, { key: BOOTSTRAP_KEY })).status).toBe(200);
      expect((await byId(user.id)).name).toEqual(user.name);
      expect((await t.api.patch(`/users/${user.id}`, { name: 'Someone Else' }, { key: BOOTSTRAP_KEY })).status).toBe(200);
      expect((await byId(user.id)).name).toEqual({ formatted: 'Someone Else' });
    });

    it("names each of a user's groups as display, where the key may see the group", async () => {
      const member = await createUser(t.database.db, { username: unique('grouped') });
      const groupAdmin = await createUser(t.database.db, { username: unique('gadmin') });
      const seen = unique('Seen Group');
      const seenId = await createGroup(t.database.db, { name: seen });
      const unseenId = await createGroup(t.database.db, { workspaceId: s.ws2, name: unique('Unseen Group') });
      await addMember(t.database.db, seenId, groupAdmin.id, true);
      await addMember(t.database.db, seenId, member.id);
      await addMember(t.database.db, unseenId, member.id);
      const base = `${t.baseUrl}/scim/v2/Groups`;
      const groupsFor = async (client: ScimClient) => (await client.get(`/Users/${member.id}`)).body.groups;
      expect(await groupsFor(scim)).toEqual([
        { value: String(seenId), $ref: `${base}/${seenId}`, display: seen },
        { value: String(unseenId), $ref: `${base}/${unseenId}`, display: expect.stringMatching(/^Unseen Group-/) },
      ].sort((x, y) => Number(x.value) - Number(y.value)));
      const asGroupAdmin = scim.as(await createApiKey(t.database.db, { userId: groupAdmin.id }));
      expect(await groupsFor(asGroupAdmin)).toEqual([
        { value: String(seenId), $ref: `${base}/${seenId}`, display: seen },
        { value: String(unseenId), $ref: `${base}/${unseenId}` },
      ].sort((x, y) => Number(x.value) - Number(y.value)));
      // The name is part of what the user shows, so renaming the group gives the user a new version.
      const before = (await byId(String(member.id))).meta.version;
      expect((await t.api.patch(`/groups/${seenId}`, { name: unique('Renamed Group') }, { key: BOOTSTRAP_KEY })).status).toBe(200);
      expect((await byId(String(member.id))).meta.version).not.toBe(before);
    });

    it('gives a version that is a hash of what the user shows: a password change keeps it, a change undone brings it back', async () => {
      const user = (await scim.post('/Users', newUser())).body;
      const first = user.meta.version;
      const withPassword = await patchUser(user.id, [{ op: 'replace', path: 'password', value: 'a new password, long enough' }], { 'if-match': first });
      expect(withPassword.status).toBe(200);
      expect([withPassword.body.meta.version, withPassword.headers.get('etag')]).toEqual([first, first]);
      const inactive = await patchUser(user.id, [{ op: 'replace', path: 'active', value: false }]);
      expect(inactive.body.meta.version).not.toBe(first);
      const active = await patchUser(user.id, [{ op: 'replace', path: 'active', value: true }]);
      expect(active.body.meta.version).toBe(first);
      expect(active.body.meta.lastModified >= inactive.body.meta.lastModified).toBe(true);
      // If-Match compares what the user shows, so the earlier version matches again.
      expect((await scim.put(`/Users/${user.id}`, { ...newUser(user.userName), name: { formatted: 'Ada Changed' } }, { 'if-match': first })).status).toBe(200);
      expectScimError(await scim.delete(`/Users/${user.id}`, { 'if-match': first }), 412);
    });

    it("refuses a password shorter than the site's minimum, naming the setting, and creates the user once the setting allows it", async () => {
      const userName = unique('okta');
      const withPassword = newUser(userName, { password: 'Pa55w0rd' });
      const refused = await scim.post('/Users', withPassword);
      expectScimError(refused, 400, 'invalidValue');
      expect(refused.body.detail).toBe('Password is too short: the site setting password_min_length asks for at least 12 characters.');
      expect((await scim.get(`/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`)).body.totalResults).toBe(0);
      expect((await t.api.patch('/site', { password_min_length: 8 }, { key: BOOTSTRAP_KEY })).status).toBe(200);
      try {
        expect((await scim.post('/Users', withPassword)).status).toBe(201);
      } finally {
        expect((await t.api.patch('/site', { password_min_length: 12 }, { key: BOOTSTRAP_KEY })).status).toBe(200);
      }
    });
  });

  describe('authentication', () => {
    it('takes the key as a Bearer token or in the usual header, and refuses anything else with a SCIM 401', async () => {
      expect((await scim.get('/Users?count=1')).status).toBe(200);
      const plain = await fetch(`${t.baseUrl}/scim/v2/Users?count=1`, { headers: { 'X-ServiceAPI-Key': BOOTSTRAP_KEY } });
      expect(plain.status).toBe(200);
      expectScimError(await scim.as('wrong-key').get('/Users'), 401);
      const none = await fetch(`${t.baseUrl}/scim/v2/Users`);
      expect(none.status).toBe(401);
      expect(await none.json()).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '401' });
    });
  });
});
