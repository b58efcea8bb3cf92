import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { addMember, createApiKey, createGroup, createUser, unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Bodies that change nothing: empty, only fields the server does not know, or keys a JSON parser
 * must never obey. Sent raw, since a JavaScript object cannot carry a `__proto__` key.
 */
const NOTHING_TO_CHANGE = ['{}', '{"no_such_field":"x"}', '{"__proto__":{}}', '{"constructor":1}', '{"__proto__":{"site_admin":true},"prototype":{"admin":true}}'];

/**
 * Every update route (PUT and PATCH alike, contract 1.1) answers a body that changes nothing with
 * 200 and the record as it was, on every database, and changes nothing in the data.
 */
describe.each(testDatabaseTargets())('updates with nothing to change [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  async function expectUnchanged(path: string, key: string): Promise<void> {
    const before = await t.api.get(path, { key });
    expect(before.status).toBe(200);
    for (const method of ['PATCH', 'PUT']) {
      for (const rawBody of NOTHING_TO_CHANGE) {
        const answer = await t.api.call(method, path, { key, rawBody });
        expect({ method, rawBody, status: answer.status }).toEqual({ method, rawBody, status: 200 });
        expect(answer.body).toEqual(before.body);
      }
    }
    expect((await t.api.get(path, { key })).body).toEqual(before.body);
  }

  it('a user', async () => {
    const user = await createUser(t.database.db, { username: unique('still') });
    await expectUnchanged(`/users/${user.id}`, BOOTSTRAP_KEY);
  });

  it('a group', async () => {
    const groupId = await createGroup(t.database.db);
    await expectUnchanged(`/groups/${groupId}`, BOOTSTRAP_KEY);
  });

  it('a group membership', async () => {
    const groupId = await createGroup(t.database.db);
    const user = await createUser(t.database.db);
    await addMember(t.database.db, groupId, user.id);
    const membership = (await t.api.get(`/group_users?group_id=${groupId}`, { key: BOOTSTRAP_KEY })).body[0] as { id: number };
    const path = `/group_users/${membership.id}`;
    for (const method of ['PATCH', 'PUT']) {
      for (const rawBody of NOTHING_TO_CHANGE) {
        const answer = await t.api.call(method, path, { key: BOOTSTRAP_KEY, rawBody });
        expect({ method, rawBody, status: answer.status }).toEqual({ method, rawBody, status: 200 });
        expect(answer.body).toMatchObject({ id: membership.id, group_id: groupId, user_id: user.id, admin: false });
      }
    }
  });

  it('an API key, by id and as the calling key', async () => {
    const user = await createUser(t.database.db);
    const key = await createApiKey(t.database.db, { userId: user.id });
    const listed = (await t.api.get('/api_key', { key })).body as { id: number };
    await expectUnchanged(`/api_keys/${listed.id}`, BOOTSTRAP_KEY);
    await expectUnchanged('/api_key', key);
  });

  it('an SSH public key', async () => {
    const user = await createUser(t.database.db);
    const line = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIO4rZ1jC9wh0mZ7yq0J1mU8eB7x0v9hcQ0bW2wq3JXyT still';
    const created = await t.api.post('/public_keys', { title: 'still', user_id: user.id, public_key: line }, { key: BOOTSTRAP_KEY });
    expect(created.status).toBe(201);
    await expectUnchanged(`/public_keys/${created.body.id}`, BOOTSTRAP_KEY);
  });

  it('a Workspace', async () => {
    const created = await t.api.post('/workspaces', { name: unique('Still') }, { key: BOOTSTRAP_KEY });
    await expectUnchanged(`/workspaces/${created.body.id}`, BOOTSTRAP_KEY);
  });

  it('the site settings', async () => {
    await expectUnchanged('/site', BOOTSTRAP_KEY);
  });
});
