import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOpenSshKeyPairSync } from '../../src/lib/openssh-key-pair.js';
import { testDatabaseTargets } from '../support/databases.js';
import { unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { declaredAttributes, LIST_PARAMETERS, listParameterFields, type ListParameter } from './sdk-model-docs.js';
import { fieldsNotOfferedByModel } from '../support/sdk-fields-doc.js';

/**
 * Driven by the installed Files.com SDK's own model documents: every attribute a served model
 * declares is returned by Atrium to the SDK, or listed in docs/sdk-fields.md as not offered (and a
 * field listed there is indeed not returned, so the table stays true); and every field each list
 * parameter names for the model changes the answer or is refused, never ignored.
 */
const require = createRequire(import.meta.url);
const Files = require('files.com/lib/Files.js');
const { LogLevel } = require('files.com/lib/Logger.js');
const model = (name: string) => require(`files.com/lib/models/${name}.js`).default;
const User = model('User');
const Group = model('Group');
const GroupUser = model('GroupUser');
const Permission = model('Permission');
const ApiKey = model('ApiKey');
const PublicKey = model('PublicKey');
const File = model('File');
const History = model('History');
const Lock = model('Lock');
const Site = model('Site');

const attributesOf = (objects: { attributes: Record<string, unknown> }[]) => new Set(objects.flatMap((o) => Object.keys(o.attributes)));

/** Whether a returned value has the type the SDK's model document declares (null stands for "not set"). */
function hasDeclaredType(type: string, value: unknown): boolean {
  if (value === null) return true;
  switch (type) {
    case 'boolean': return typeof value === 'boolean';
    case 'int64': return Number.isInteger(value);
    case 'double': return typeof value === 'number';
    case 'string': case 'email': return typeof value === 'string';
    // Dates as Files.com writes them: seconds, no fraction, UTC.
    case 'date-time': return typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(value);
    default: return true;
  }
}

describe.each(testDatabaseTargets())('the SDK\'s models, field by field [$name]', (target) => {
  let t: TestApp;
  /** What Atrium returned to the SDK for each model, over creating, finding and listing. */
  const returned = new Map<string, Set<string>>();
  /** The objects themselves, by model, for their values' types. */
  const objects = new Map<string, Record<string, unknown>[]>();
  const keep = (name: string, got: { attributes: Record<string, unknown> }[]) => {
    returned.set(name, attributesOf(got));
    objects.set(name, got.map((o) => o.attributes));
  };
  let userId: number;

  beforeAll(async () => {
    t = await startTestApp(target, { brands: ['Service', 'Files'] });
    Files.setBaseUrl(t.baseUrl);
    Files.setApiKey(BOOTSTRAP_KEY);
    Files.setLogLevel(LogLevel.NONE);

    const users = [
      await User.create({ username: unique('sdk-ann'), name: 'Ann', email: 'ann@example.com', password: 'a long enough password' }),
      await User.create({ username: unique('sdk-bob'), name: 'Bob', email: 'bob@example.com' }),
    ];
    userId = users[0].attributes.id as number;
    keep('User', [...users, await User.find(userId), ...(await User.list())]);
    const signIn = await t.api.post('/sessions', { username: users[0].attributes.username, password: 'a long enough password' });
    expect(signIn.status).toBe(201);

    const groups = [await Group.create({ name: unique('sdk-a') }), await Group.create({ name: unique('sdk-b') })];
    keep('Group', [...groups, await Group.find(groups[0].attributes.id), ...(await Group.list())]);

    const membership = await GroupUser.create({ group_id: groups[0].attributes.id, user_id: userId });
    keep('GroupUser', [membership, ...(await GroupUser.list({ group_id: groups[0].attributes.id }))]);

    await t.api.post('/folders/sdk-a', {}, { key: BOOTSTRAP_KEY });
    await t.api.post('/folders/sdk-b', {}, { key: BOOTSTRAP_KEY });
    const grants = [
      await Permission.create({ path: 'sdk-a', user_id: userId, permission: 'full' }),
      await Permission.create({ path: 'sdk-b', group_id: groups[1].attributes.id, permission: 'readonly' }),
    ];
    keep('Permission', [...grants, ...(await Permission.list())]);

    const keys = [
      await ApiKey.create({ name: 'sdk one', user_id: userId, expires_at: '2099-01-01T00:00:00Z' }),
      await ApiKey.create({ name: 'sdk two', user_id: userId }),
    ];
    keep('ApiKey', [...keys, await ApiKey.find(keys[0].attributes.id), ...(await ApiKey.list({ user_id: userId }))]);

    const sshKeys = [];
    for (const title of ['laptop', 'desktop']) {
      sshKeys.push(await PublicKey.create({ title, user_id: userId, public_key: generateOpenSshKeyPairSync('ed25519').public.trim() }));
      t.clock.advance(86_400_000);
    }
    keep('PublicKey', [...sshKeys, await PublicKey.find(sshKeys[0].attributes.id), ...(await PublicKey.list({ user_id: userId }))]);

    const put = await fetch(`${t.baseUrl}/api/rest/v1/files/sdk-a/report.txt`, { method: 'PUT', headers: { 'X-FilesAPI-Key': BOOTSTRAP_KEY }, body: 'hello' });
    expect(put.status).toBe(201);
    keep('File', [await File.find('sdk-a/report.txt'), await File.find('sdk-a'), ...(await model('Folder').listFor('sdk-a'))]);

    const locks = [await Lock.create('sdk-a/report.txt', { exclusive: true, recursive: false, timeout: 600, allow_access_by_any_user: false })];
    keep('Lock', [...locks, ...(await Lock.listFor('sdk-a', { include_children: true }))]);
    await locks[0].delete({ token: locks[0].attributes.token });

    keep('History', await History.list());

    const sites = [await Site.get(), await Site.update({ name: 'SDK site', session_expiry: 2 })];
    expect(sites[1].attributes).toMatchObject({ name: 'SDK site', session_expiry: 2, session_expiry_minutes: 120 });
    keep('Site', sites);
    await Site.update({ name: 'Atrium', session_expiry_minutes: 360 });
  });
  afterAll(() => t.close());

  const served = ['User', 'Group', 'GroupUser', 'Permission', 'ApiKey', 'PublicKey', 'File', 'History', 'Lock', 'Site'];

  it.each(served)('%s: every declared field is returned, or listed as not offered in docs/sdk-fields.md', (name) => {
    const declared = declaredAttributes(name).map((a) => a.name.replace(/\?$/, ''));
    expect(declared.length).toBeGreaterThan(3);
    const got = returned.get(name) ?? new Set<string>();
    const listed = fieldsNotOfferedByModel().get(name) ?? new Set<string>();
    const missing = declared.filter((field) => !got.has(field) && !got.has(`${field}?`) && !listed.has(field));
    const listedYetReturned = [...listed].filter((field) => got.has(field));
    expect({ missing, listedYetReturned }).toEqual({ missing: [], listedYetReturned: [] });
  });

  it.each(served)('%s: every field returned has the type and date format the SDK declares', (name) => {
    const declared = declaredAttributes(name);
    const wrong = (objects.get(name) ?? []).flatMap((values) => declared
      .filter((a) => a.name in values && !hasDeclaredType(a.type, values[a.name]))
      .map((a) => `${a.name} (${a.type}): ${JSON.stringify(values[a.name])}`));
    expect([...new Set(wrong)]).toEqual([]);
  });

  const LISTS: Record<string, string> = { User: '/users', Group: '/groups', Permission: '/permissions', ApiKey: `/api_keys`, PublicKey: '/public_keys', History: '/history' };
  const cases = Object.entries(LISTS).flatMap(([name, url]) => {
    const fields = listParameterFields(name);
    return LIST_PARAMETERS.flatMap((parameter) => (fields[parameter] ?? []).map((field) => ({ name, url, parameter, field })));
  });

  /** A value of the field that no record here has: the answer must shrink to nothing, or be refused. */
  const nothingMatches = (name: string, parameter: ListParameter, field: string): string => {
    const type = declaredAttributes(name).find((a) => a.name === field)?.type ?? (/_id$/.test(field) ? 'int64' : 'string');
    if (parameter === 'filter_gt' || parameter === 'filter_gteq') return '2999-01-01T00:00:00Z';
    if (parameter === 'filter_lt' || parameter === 'filter_lteq') return type === 'int64' ? '-5' : '1971-01-01T00:00:00Z';
    if (type === 'date-time') return '1971-01-01T00:00:00Z';
    if (type === 'int64') return '2147480000';
    return `nothing-${unique('x')}`;
  };

  it.each(cases)('$name list: $parameter[$field] changes the answer or is refused, never ignored', async ({ name, url, parameter, field }) => {
    const withUser = name === 'ApiKey' || name === 'PublicKey' ? `user_id=${userId}&` : '';
    const get = (query: string) => t.api.get(`${url}?${withUser}${query}`, { key: BOOTSTRAP_KEY });
    const ids = (body: { id: number }[]) => body.map((record) => record.id);
    const all = await get('');
    expect(all.status).toBe(200);
    expect(all.body.length).toBeGreaterThan(1);
    const refused = (status: number, type: string) => (status === 400 && type.startsWith('bad-request/')) || (status === 404 && type.startsWith('not-found/'));
    if (parameter === 'sort_by') {
      const asc = await get(`sort_by[${field}]=asc`);
      const desc = await get(`sort_by[${field}]=desc`);
      if (refused(asc.status, asc.body.type ?? '')) return;
      expect([asc.status, desc.status]).toEqual([200, 200]);
      // A total order, reversed: a sort that was ignored would answer the same order both times.
      expect(ids(desc.body)).toEqual([...ids(asc.body)].reverse());
      expect(ids(asc.body)).not.toEqual(ids(desc.body));
      return;
    }
    const type = declaredAttributes(name).find((a) => a.name === field)?.type;
    if (type === 'boolean' || field.startsWith('not_')) {
      const yes = await get(`${parameter}[${field}]=true`);
      if (refused(yes.status, yes.body.type ?? '')) return;
      const no = await get(`${parameter}[${field}]=false`);
      expect([yes.status, no.status]).toEqual([200, 200]);
      // Each record in exactly one of the two answers.
      expect([...ids(yes.body), ...ids(no.body)].sort((a, b) => a - b)).toEqual([...ids(all.body)].sort((a, b) => a - b));
      return;
    }
    const narrowed = await get(`${parameter}[${field}]=${encodeURIComponent(nothingMatches(name, parameter, field))}`);
    if (refused(narrowed.status, narrowed.body.type ?? '')) return;
    expect(narrowed.status).toBe(200);
    expect(ids(narrowed.body)).toEqual([]);
  });
});
