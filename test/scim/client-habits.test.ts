import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { expectScimError, ScimClient } from './scim-client.js';

// The request bodies below are those Microsoft Entra ID and Okta document for their SCIM
// provisioning clients; only the identifiers are made unique per run.

describe.each(testDatabaseTargets())('SCIM clients [$name]', (target) => {
  let t: TestApp;
  let scim: ScimClient;
  beforeAll(async () => {
    t = await startTestApp(target);
    scim = new ScimClient(t.baseUrl, BOOTSTRAP_KEY);
  });
  afterAll(() => t.close());

  const rest = async (id: string) => (await t.api.get(`/users/${id}`, { key: BOOTSTRAP_KEY })).body;
  const filter = (text: string) => `filter=${encodeURIComponent(text)}`;

  describe('Microsoft Entra ID', () => {
    it('checks existence by userName and externalId, creates, updates with capitalised ops, disables with "False" and deletes', async () => {
      const userName = `Test_User_${unique('ab6490ee')}`;
      const externalId = `0a21f0f2-8d2a-4f8e-bf98-${unique('7363c4aed4ef')}`;
      const missing = await scim.get(`/Users?${filter(`userName eq "${userName}"`)}`);
      expect(missing.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 0, Resources: [] });

      const created = await scim.post('/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
        externalId,
        userName,
        active: true,
        emails: [{ primary: true, type: 'work', value: `${userName}@testuser.com` }],
        meta: { resourceType: 'User' },
        name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
        roles: [],
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ userName, externalId, active: true, displayName: 'givenName familyName' });
      const id = created.body.id as string;

      const byExternalId = await scim.get(`/Users?${filter(`externalId eq "${externalId}"`)}`);
      expect(byExternalId.body.Resources.map((r: { id: string }) => r.id)).toEqual([id]);
      // Entra ID's matching on the work address: not RFC grammar (a sub-attribute after a value filter), but sent.
      const byEmail = await scim.get(`/Users?${filter(`emails[type eq "work"].value eq "${userName}@testuser.com"`)}`);
      expect(byEmail.body.Resources.map((r: { id: string }) => r.id)).toEqual([id]);
      expect((await scim.get(`/Users?${filter(`emails[type eq "work"].value eq "nobody-${userName}@testuser.com"`)}`)).body.totalResults).toBe(0);
      expectScimError(await scim.post('/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: userName.toLowerCase(), active: true }), 409, 'uniqueness');

      const updated = await scim.patch(`/Users/${id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
          { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        ],
      });
      expect(updated.status).toBe(200);
      expect(await rest(id)).toMatchObject({ email: 'updatedEmail@microsoft.com', name: 'givenName updatedFamilyName' });

      // Entra ID's PATCH without a path: the value is an object of attributes, paths as keys.
      const noPath = await scim.patch(`/Users/${id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'Add', value: { 'name.givenName': 'Grace', 'name.familyName': 'Hopper', title: 'Rear Admiral' } }],
      });
      expect(noPath.status).toBe(200);
      expect(noPath.body.displayName).toBe('Grace Hopper');

      const disabled = await scim.patch(`/Users/${id}`, {
        Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      });
      expect(disabled.body.active).toBe(false);
      expect((await rest(id)).disabled).toBe(true);
      const enabled = await scim.patch(`/Users/${id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'Replace', value: { active: 'True' } }],
      });
      expect(enabled.body.active).toBe(true);

      expect((await scim.delete(`/Users/${id}`)).status).toBe(204);
      expectScimError(await scim.get(`/Users/${id}`), 404);
    });

    it('creates a group, finds it without members, and adds and removes members in its two forms', async () => {
      const users = await Promise.all([1, 2, 3].map(async () => (await scim.post('/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: unique('entra'), active: true })).body.id as string));
      const displayName = unique('displayName');
      const group = await scim.post('/Groups', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group', 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/Group'],
        externalId: `8aa1a0c0-c4c3-4bc0-b4a5-${unique('2ef676900159')}`,
        displayName,
        meta: { resourceType: 'Group' },
      });
      expect(group.status).toBe(201);
      const id = group.body.id as string;
      const found = await scim.get(`/Groups?excludedAttributes=members&${filter(`displayName eq "${displayName}"`)}`);
      expect(found.body.Resources).toHaveLength(1);
      expect(found.body.Resources[0].members).toBeUndefined();

      const add = await scim.patch(`/Groups/${id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ name: 'addMember', op: 'add', path: 'members', value: users.map((value) => ({ $ref: null, value })) }],
      });
      expect(add.body.members.map((m: { value: string }) => m.value).sort()).toEqual([...users].sort());
      const removeOld = await scim.patch(`/Groups/${id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ name: 'removeMember', op: 'remove', path: 'members', value: [{ $ref: null, value: users[0] }] }],
      });
      expect(removeOld.body.members.map((m: { value: string }) => m.value).sort()).toEqual([users[1], users[2]].sort());
      const removeNew = await scim.patch(`/Groups/${id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'Remove', path: `members[value eq "${users[1]}"]` }],
      });
      expect(removeNew.body.members.map((m: { value: string }) => m.value)).toEqual([users[2]]);
      const isMember = await scim.get(`/Groups?excludedAttributes=members&${filter(`id eq "${id}" and members[value eq "${users[2]}"]`)}`);
      expect(isMember.body.totalResults).toBe(1);
      const renamed = await scim.patch(`/Groups/${id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'Replace', path: 'displayName', value: `${displayName}-renamed` }],
      });
      expect(renamed.body.displayName).toBe(`${displayName}-renamed`);
    });
  });

  describe('Okta', () => {
    it('pages its existence check, creates, replaces with PUT, and deactivates with PATCH', async () => {
      const userName = `${unique('test.user')}@okta.local`;
      const check = await scim.get(`/Users?${filter(`userName eq "${userName}"`)}&startIndex=1&count=100`);
      expect(check.body).toMatchObject({ totalResults: 0, startIndex: 1, itemsPerPage: 0 });
      const created = await scim.post('/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName,
        name: { givenName: 'Test', familyName: 'User' },
        emails: [{ primary: true, value: userName, type: 'work' }],
        displayName: 'Test User',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        groups: [],
        password: '1mz050nq-long-enough',
        active: true,
      });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      const found = await scim.get(`/Users?${filter(`userName eq "${userName}"`)}&startIndex=1&count=100`);
      expect(found.body).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1 });

      const replaced = await scim.put(`/Users/${id}`, {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        id,
        userName,
        name: { givenName: 'Another', familyName: 'User' },
        emails: [{ primary: true, value: userName, type: 'work' }],
        displayName: 'Another User',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        groups: [],
        active: true,
        meta: { resourceType: 'User', created: created.body.meta.created, lastModified: created.body.meta.lastModified },
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body.displayName).toBe('Another User');

      const deactivated = await scim.patch(`/Users/${id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', value: { active: false } }],
      });
      expect(deactivated.body.active).toBe(false);
      expect((await rest(id)).disabled).toBe(true);
    });

    it('pushes a group: create, rename with the id in the value, and add and remove members in one request', async () => {
      const [a, b] = await Promise.all([1, 2].map(async () => (await scim.post('/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: unique('okta'), active: true })).body as { id: string; userName: string }));
      const group = await scim.post('/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: unique('Test SCIMv2'), members: [{ value: a!.id, display: a!.userName }] });
      expect(group.status).toBe(201);
      const id = group.body.id as string;
      const renamed = await scim.patch(`/Groups/${id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', value: { id, displayName: `${group.body.displayName} renamed` } }],
      });
      expect(renamed.body.displayName).toBe(`${group.body.displayName} renamed`);
      const pushed = await scim.patch(`/Groups/${id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [
          { op: 'remove', path: `members[value eq "${a!.id}"]` },
          { op: 'add', path: 'members', value: [{ value: b!.id, display: b!.userName }] },
        ],
      });
      expect(pushed.body.members.map((m: { value: string }) => m.value)).toEqual([b!.id]);
      const restGroup = await t.api.get(`/groups/${id}`, { key: BOOTSTRAP_KEY });
      expect(restGroup.body.user_ids).toBe(b!.id);
    });
  });
});
