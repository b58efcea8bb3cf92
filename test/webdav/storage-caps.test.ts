import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDavLock, insertDavLock, type DavLock } from '../../src/repositories/dav-locks.js';
import { testDatabaseTargets } from '../support/databases.js';
import { createUser, unique } from '../support/factories.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { DavClient, type DavAnswer } from './dav-client.js';

const PASSWORD = 'a perfectly good passphrase';
const XML = { 'Content-Type': 'application/xml; charset=utf-8' };
const NS = 'urn:z';

const lockBody = (scope: 'exclusive' | 'shared', ownerXml: string) =>
  `<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>${ownerXml}</D:owner></D:lockinfo>`;
const tokenOf = (answer: DavAnswer) => /^<(.+)>$/.exec(answer.headers.get('lock-token') ?? '')?.[1] as string;
const activeLocksIn = (xml: string) => xml.split('<D:activelock>').length - 1;

/** A PROPPATCH body: `removes` by name, then `sets` as [name, text], in namespace urn:z (applied in that order). */
function propertyUpdate(sets: readonly (readonly [string, string])[], removes: readonly string[] = []): string {
  const set = sets.length === 0 ? '' : `<D:set><D:prop>${sets.map(([name, text]) => `<Z:${name}>${text}</Z:${name}>`).join('')}</D:prop></D:set>`;
  const remove = removes.length === 0 ? '' : `<D:remove><D:prop>${removes.map((name) => `<Z:${name}/>`).join('')}</D:prop></D:remove>`;
  return `<?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="${NS}">${remove}${set}</D:propertyupdate>`;
}

/** The bytes a property of urn:z with a plain-text value keeps: namespace, name and its element as stored. */
const storedBytes = (name: string, text: string) => Buffer.byteLength(NS) + Buffer.byteLength(name) + Buffer.byteLength(`<ns0:${name} xmlns:ns0="${NS}">${text}</ns0:${name}>`);

/** The property names of a PROPPATCH answer's propstat with `status`, in order. */
function namesWithStatus(xml: string, status: number): string[] {
  const propstat = [...xml.matchAll(/<D:propstat>([\s\S]*?)<\/D:propstat>/g)].map((m) => m[1] as string).find((p) => p.includes(`HTTP/1.1 ${status} `));
  return propstat === undefined ? [] : [...propstat.matchAll(/<P:(\w+) xmlns:P="urn:z"\/>/g)].map((m) => m[1] as string);
}

/**
 * The storage caps of docs/webdav.md, through the WebDAV door, as a user who may write one folder:
 * a lock's owner at most 4 KiB, at most 16 locks covering one resource, and at most 256 dead
 * properties and 64 KiB of them per resource. Each cap at its limit is accepted and one past it is
 * 507 with nothing stored; data kept from before the caps stays readable and may shrink but not
 * grow; COPY does not multiply what is over a cap.
 */
describe.each(testDatabaseTargets())('webdav storage caps [$name]', (target) => {
  let t: TestApp;
  let dav: DavClient;
  let home: string;
  beforeAll(async () => {
    t = await startTestApp(target);
    home = unique('home');
    const admin = new DavClient(t.baseUrl, [BOOTSTRAP_KEY, 'x']);
    expect((await admin.mkcol(home)).status).toBe(201);
    const user = await createUser(t.database.db, { password: PASSWORD });
    expect((await t.api.post('/permissions', { path: home, user_id: user.id, permission: 'full' }, { key: BOOTSTRAP_KEY })).status).toBe(201);
    dav = new DavClient(t.baseUrl, [user.username, PASSWORD]);
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const path = (name: string) => `${home}/${name}`;
  const file = async () => {
    const name = path(unique('f'));
    expect((await dav.put(name, 'hello')).status).toBe(201);
    return name;
  };
  const folder = async () => {
    const name = path(unique('d'));
    expect((await dav.mkcol(name)).status).toBe(201);
    return name;
  };
  const lock = (target: string, options: { scope?: 'exclusive' | 'shared'; owner?: string; depth?: '0' | 'infinity'; headers?: Record<string, string> } = {}) =>
    dav.call('LOCK', target, { headers: { ...XML, Depth: options.depth ?? '0', ...options.headers }, body: lockBody(options.scope ?? 'shared', options.owner ?? 'me') });
  const unlock = (target: string, token: string) => dav.call('UNLOCK', target, { headers: { 'Lock-Token': `<${token}>` } });
  const proppatch = (target: string, sets: readonly (readonly [string, string])[], removes: readonly string[] = []) =>
    dav.call('PROPPATCH', target, { headers: XML, body: propertyUpdate(sets, removes) });
  const locksRootedAt = async (target: string) => (await db().selectFrom('dav_locks').select('token').where('path_key', '=', target.toLowerCase()).execute()).length;
  const entryIdOf = async (target: string) => (await db().selectFrom('entries').select('id').where('path_key', '=', target.toLowerCase()).executeTakeFirstOrThrow()).id;
  const propertiesOf = async (target: string) => {
    const row = await db().selectFrom('dav_properties')
      .select([sql<number>`count(*)`.as('count'), sql<number>`coalesce(sum(octet_length(namespace) + octet_length(name) + octet_length(value)), 0)`.as('bytes')])
      .where('entry_id', '=', await entryIdOf(target))
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), bytes: Number(row.bytes) };
  };
  const propertyNames = async (target: string) =>
    (await db().selectFrom('dav_properties').select('name').where('entry_id', '=', await entryIdOf(target)).orderBy('name').execute()).map((row) => row.name);
  /** Dead properties written straight into the database, as a server without the caps kept them. */
  const keepPropertiesFromBefore = async (target: string, properties: readonly (readonly [string, string])[]) => {
    const entryId = await entryIdOf(target);
    const rows = properties.map(([name, text]) => ({ entry_id: entryId, namespace: NS, name, value: `<ns0:${name} xmlns:ns0="${NS}">${text}</ns0:${name}>` }));
    for (let i = 0; i < rows.length; i += 100) await db().insertInto('dav_properties').values(rows.slice(i, i + 100)).execute();
  };
  const numbered = (count: number, prefix = 'p', text = 'v') => Array.from({ length: count }, (_, i) => [`${prefix}${i}`, text] as const);

  describe('locks', () => {
    it('keeps an owner of 4 KiB as stored, and refuses one byte more with 507, storing nothing', async () => {
      const name = await file();
      // Two-byte characters: 2,048 of them are exactly 4,096 bytes.
      const atLimit = await lock(name, { owner: 'é'.repeat(2048) });
      expect(atLimit.status).toBe(200);
      expect(atLimit.text).toContain(`<D:owner>${'é'.repeat(2048)}</D:owner>`);
      // The owner is counted as it is kept: the text's `&` as `&amp;`, 5 bytes.
      expect((await lock(name, { owner: `${'a'.repeat(4091)}&amp;` })).status).toBe(200);
      const refused = await lock(name, { owner: `${'a'.repeat(4092)}&amp;` });
      expect(refused.status).toBe(507);
      expect(refused.headers.get('lock-token')).toBeNull();
      expect(refused.text).toContain('4096 bytes');
      expect(await locksRootedAt(name)).toBe(2);
      expect(activeLocksIn((await dav.propfind(name, '0', '<D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>')).text)).toBe(2);

      // An unmapped path is not made into an empty file when its lock is refused.
      const unmapped = path(unique('new'));
      expect((await lock(unmapped, { owner: 'x'.repeat(5000) })).status).toBe(507);
      expect((await dav.get(unmapped)).status).toBe(404);
      expect(await locksRootedAt(unmapped)).toBe(0);
    });

    it('takes 16 shared locks on one resource and refuses the 17th with 507 until one is removed', async () => {
      const name = await file();
      const tokens: string[] = [];
      for (let i = 0; i < 16; i += 1) {
        const taken = await lock(name);
        expect(taken.status).toBe(200);
        tokens.push(tokenOf(taken));
      }
      const refused = await lock(name);
      expect(refused.status).toBe(507);
      expect(await locksRootedAt(name)).toBe(16);
      // A conflict is still a conflict; a LOCK with a body is a new lock even when its If header names one of these.
      expect((await lock(name, { scope: 'exclusive' })).status).toBe(423);
      expect((await lock(name, { headers: { If: `(<${tokens[0]}>)` } })).status).toBe(507);
      // A refresh (no body) adds nothing and is granted.
      const refreshed = await dav.call('LOCK', name, { headers: { If: `(<${tokens[0]}>)`, Timeout: 'Second-600' } });
      expect(refreshed.status).toBe(200);
      expect(refreshed.text).toContain('<D:owner>me</D:owner>');

      expect((await unlock(name, tokens[15] as string)).status).toBe(204);
      expect((await lock(name)).status).toBe(200);
      expect((await lock(name)).status).toBe(507);
      expect(await locksRootedAt(name)).toBe(16);
    });

    it('grants exactly 16 of 20 shared locks asked for at once', async () => {
      const name = await file();
      const answers = await Promise.all(Array.from({ length: 20 }, () => lock(name)));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(16);
      expect(answers.filter((answer) => answer.status === 507)).toHaveLength(4);
      expect(await locksRootedAt(name)).toBe(16);
    });

    it('counts the depth-infinity locks of a folder on every resource below it', async () => {
      const parent = await folder();
      const member = `${parent}/member.txt`;
      expect((await dav.put(member, 'x')).status).toBe(201);
      const memberTokens: string[] = [];
      for (let i = 0; i < 16; i += 1) memberTokens.push(tokenOf(await lock(member)));

      // A depth-infinity lock on the folder would be a 17th on the member.
      expect((await lock(parent, { depth: 'infinity' })).status).toBe(507);
      expect(await locksRootedAt(parent)).toBe(0);
      // A depth-0 lock covers the folder alone.
      const alone = await lock(parent, { depth: '0' });
      expect(alone.status).toBe(200);
      expect((await unlock(parent, tokenOf(alone))).status).toBe(204);

      expect((await unlock(member, memberTokens[0] as string)).status).toBe(204);
      expect((await lock(parent, { depth: 'infinity' })).status).toBe(200);
      // The member is now covered by 15 locks of its own and the folder's.
      expect((await lock(member)).status).toBe(507);
      expect(await locksRootedAt(member)).toBe(15);
    });

    it('keeps locks from before the caps readable and refreshable, refuses new ones until enough are removed', async () => {
      const name = await file();
      const first = await lock(name);
      const taken = await findDavLock(db(), tokenOf(first), t.clock.now()) as DavLock;
      const bigOwner = 'o'.repeat(8192);
      const legacy = Array.from({ length: 19 }, (_, i) => ({ ...taken, token: `urn:x-atrium:from-before-${i}-${unique('t')}`, ownerXml: i === 0 ? bigOwner : taken.ownerXml }));
      // Kept by a server without the caps: written straight into the database.
      for (const kept of legacy) await insertDavLock(db(), kept);
      expect(await locksRootedAt(name)).toBe(20);

      const discovery = await dav.propfind(name, '0', '<D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>');
      expect(discovery.status).toBe(207);
      expect(activeLocksIn(discovery.text)).toBe(20);
      expect(discovery.text).toContain(bigOwner);
      expect((await lock(name)).status).toBe(507);
      const refreshed = await dav.call('LOCK', name, { headers: { If: `(<${legacy[0]?.token}>)` } });
      expect(refreshed.status).toBe(200);
      expect(refreshed.text).toContain(bigOwner);

      // Removals are always allowed; at 15 there is room for one more.
      for (const removed of legacy.slice(0, 5)) expect((await unlock(name, removed.token)).status).toBe(204);
      expect(await locksRootedAt(name)).toBe(15);
      expect((await lock(name)).status).toBe(200);
      expect((await lock(name)).status).toBe(507);
    });
  });

  describe('dead properties', () => {
    it('keeps 256 properties on a resource and refuses the 257th with 507, the rest of the request 424, nothing changed', async () => {
      const name = await file();
      const all = await proppatch(name, numbered(256));
      expect(all.status).toBe(207);
      expect(namesWithStatus(all.text, 200)).toHaveLength(256);
      expect((await propertiesOf(name)).count).toBe(256);

      const one = await proppatch(name, [['extra', 'v']]);
      expect(one.status).toBe(207);
      expect(namesWithStatus(one.text, 507)).toEqual(['extra']);
      expect((await propertiesOf(name)).count).toBe(256);

      // All or none: the removal and the first new property (back at 256) fail with the second, past the cap.
      const mixed = await proppatch(name, [['x1', 'v'], ['x2', 'v']], ['p0']);
      expect(namesWithStatus(mixed.text, 507)).toEqual(['x2']);
      expect(namesWithStatus(mixed.text, 424).sort()).toEqual(['p0', 'x1']);
      expect(namesWithStatus(mixed.text, 200)).toEqual([]);
      const names = await propertyNames(name);
      expect(names).toContain('p0');
      expect(names).not.toContain('x1');

      // Changing a value, or adding one in place of one removed, stays at the cap and is stored.
      expect(namesWithStatus((await proppatch(name, [['p1', 'changed'], ['x1', 'v']], ['p0'])).text, 200).sort()).toEqual(['p0', 'p1', 'x1']);
      expect((await propertiesOf(name)).count).toBe(256);
    });

    it('stores exactly the PROPPATCHes that fit when ten arrive at once', async () => {
      const name = await file();
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => proppatch(name, numbered(30, `r${i}x`))));
      // 8 of 30 make 240; a ninth would make 270.
      expect(answers.filter((answer) => namesWithStatus(answer.text, 200).length === 30)).toHaveLength(8);
      expect(answers.filter((answer) => namesWithStatus(answer.text, 507).length > 0)).toHaveLength(2);
      expect((await propertiesOf(name)).count).toBe(240);
    });

    it('keeps 64 KiB of properties on a resource, counted as stored, and refuses one byte more with 507', async () => {
      const name = await file();
      // Eight properties of 8 KiB each as stored: namespace, name and the element's XML.
      const text = 'v'.repeat(8192 - storedBytes('b0', ''));
      const eight = Array.from({ length: 8 }, (_, i) => [`b${i}`, text] as const);
      expect(eight.reduce((sum, [n, v]) => sum + storedBytes(n, v), 0)).toBe(65536);
      expect(namesWithStatus((await proppatch(name, eight)).text, 200)).toHaveLength(8);
      expect(await propertiesOf(name)).toEqual({ count: 8, bytes: 65536 });

      const longer = await proppatch(name, [['b0', `${text}v`]]);
      expect(namesWithStatus(longer.text, 507)).toEqual(['b0']);
      const tiny = await proppatch(name, [['c', 'x']], ['b1']);
      // Removing b1 first makes room: stored.
      expect(namesWithStatus(tiny.text, 200).sort()).toEqual(['b1', 'c']);
      const refused = await proppatch(name, [['b1', text]]);
      expect(namesWithStatus(refused.text, 507)).toEqual(['b1']);
      expect(await propertiesOf(name)).toEqual({ count: 8, bytes: 65536 - storedBytes('b1', text) + storedBytes('c', 'x') });
    });

    it('keeps properties from before the caps readable, lets them be removed or shrunk, and adds none until the resource is under', async () => {
      const many = await file();
      await keepPropertiesFromBefore(many, numbered(300));
      const allprop = await dav.propfind(many, '0');
      expect(allprop.status).toBe(207);
      expect(allprop.text.match(/<ns0:p\d+ xmlns:ns0="urn:z">v<\/ns0:p\d+>/g)).toHaveLength(300);
      expect(namesWithStatus((await proppatch(many, [['new', 'v']])).text, 507)).toEqual(['new']);
      expect(namesWithStatus((await proppatch(many, [], numbered(50).map(([n]) => n))).text, 200)).toHaveLength(50);
      expect((await propertiesOf(many)).count).toBe(250);
      expect(namesWithStatus((await proppatch(many, numbered(6, 'q'))).text, 200)).toHaveLength(6);
      expect(namesWithStatus((await proppatch(many, [['r', 'v']])).text, 507)).toEqual(['r']);
      expect((await propertiesOf(many)).count).toBe(256);

      const big = await file();
      await keepPropertiesFromBefore(big, [['huge', 'h'.repeat(100 * 1024)]]);
      expect((await dav.propfind(big, '0')).text).toContain('h'.repeat(100 * 1024));
      expect(namesWithStatus((await proppatch(big, [['small', 'v']])).text, 507)).toEqual(['small']);
      expect(namesWithStatus((await proppatch(big, [['huge', 'h'.repeat(50 * 1024)]])).text, 200)).toEqual(['huge']);
      expect(namesWithStatus((await proppatch(big, [['small', 'v']])).text, 200)).toEqual(['small']);
    });

    it('does not copy what is over a cap: COPY of such a source is 507 and makes nothing, MOVE keeps it', async () => {
      const over = await file();
      await keepPropertiesFromBefore(over, numbered(300));
      const copy = path(unique('copy'));
      const refused = await dav.transfer('COPY', over, copy);
      expect(refused.status).toBe(507);
      expect((await dav.get(copy)).status).toBe(404);

      // In a folder: its depth-infinity copy is refused whole; the folder alone (Depth 0) is copied.
      const parent = await folder();
      expect((await proppatch(parent, [['mine', 'v']])).status).toBe(207);
      expect((await dav.transfer('MOVE', over, `${parent}/over.txt`)).status).toBe(201);
      expect((await propertiesOf(`${parent}/over.txt`)).count).toBe(300);
      const deep = path(unique('deep'));
      expect((await dav.transfer('COPY', parent, deep)).status).toBe(507);
      expect((await dav.propfind(deep, '0')).status).toBe(404);
      const shallow = path(unique('shallow'));
      expect((await dav.transfer('COPY', parent, shallow, { Depth: '0' })).status).toBe(201);
      expect(await propertyNames(shallow)).toEqual(['mine']);
      expect((await dav.propfind(shallow, '1')).text).not.toContain('over.txt');

      // A folder over a cap itself is not copied alone either, and a replaced destination stays as it was.
      await keepPropertiesFromBefore(shallow, numbered(300, 's'));
      const target = await folder();
      expect((await dav.transfer('COPY', shallow, target, { Depth: '0', Overwrite: 'T' })).status).toBe(507);
      expect((await dav.propfind(target, '0')).status).toBe(207);
      expect(await propertyNames(target)).toEqual([]);
    });
  });
});
