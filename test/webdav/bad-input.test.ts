import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startTestApp, type TestApp } from '../support/test-app.js';
import { DavClient, rawRequest } from './dav-client.js';

const XML = { 'Content-Type': 'application/xml' };

/**
 * Bad input to every method that reads one: a clear 4xx and nothing changed. Malformed XML,
 * DOCTYPEs and entities (no XXE, no billion laughs), huge bodies, traversal, overlong names,
 * Destinations on another host or outside /dav/.
 */
describe.each(testDatabaseTargets())('webdav bad input [$name]', (target) => {
  let t: TestApp;
  let dav: DavClient;
  /** Everything on the site, to compare before and after. */
  const snapshot = async () => JSON.stringify(await t.database.db.selectFrom('entries').select(['path', 'size', 'sha256']).orderBy('path_key').execute())
    + JSON.stringify(await t.database.db.selectFrom('dav_properties').selectAll().orderBy('name').execute());

  beforeAll(async () => {
    t = await startTestApp(target);
    dav = new DavClient(t.baseUrl, [ADMIN_USERNAME, ADMIN_PASSWORD]);
    expect((await dav.mkcol('box')).status).toBe(201);
    expect((await dav.put('box/a.txt', 'a')).status).toBe(201);
  });
  afterAll(() => t.close());

  const laughs = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>'
    + '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">&lol2;</x></D:prop></D:set></D:propertyupdate>';
  const xxe = '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY e SYSTEM "file:///etc/passwd">]><D:propfind xmlns:D="DAV:"><D:prop><x xmlns="urn:x">&e;</x></D:prop></D:propfind>';
  const bodies: [string, string, string][] = [
    ['PROPFIND', 'malformed XML', '<D:propfind xmlns:D="DAV:"><D:prop>'],
    ['PROPFIND', 'an external entity (XXE)', xxe],
    ['PROPFIND', 'an undeclared entity', '<D:propfind xmlns:D="DAV:"><D:prop><x xmlns="urn:x">&nope;</x></D:prop></D:propfind>'],
    ['PROPFIND', 'an unbound prefix', '<D:propfind xmlns:D="DAV:"><D:prop><q:x/></D:prop></D:propfind>'],
    ['PROPFIND', 'another root element', '<D:lockinfo xmlns:D="DAV:"/>'],
    ['PROPPATCH', 'malformed XML', '<D:propertyupdate xmlns:D="DAV:"><D:set>'],
    ['PROPPATCH', 'billion laughs', laughs],
    ['PROPPATCH', 'no body', ''],
  ];
  for (const [method, what, body] of bodies) {
    it(`answers ${method} with ${what} 400, changing nothing`, async () => {
      const before = await snapshot();
      const answer = await dav.call(method, 'box/a.txt', { headers: { ...XML, Depth: '0' }, body });
      expect(answer.status).toBe(400);
      expect(answer.text).not.toContain('root:');
      expect(await snapshot()).toBe(before);
    });
  }

  it('refuses an XML body over 1 MiB with 413, declared or not', async () => {
    const before = await snapshot();
    const huge = `<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">${'a'.repeat(1024 * 1024 + 10)}</x></D:prop></D:set></D:propertyupdate>`;
    const auth: [string, string] = [ADMIN_USERNAME, ADMIN_PASSWORD];
    expect((await rawRequest(t.baseUrl, { method: 'PROPPATCH', path: '/dav/box/a.txt', headers: XML, body: huge, auth })).status).toBe(413);
    expect((await rawRequest(t.baseUrl, { method: 'PROPFIND', path: '/dav/box/a.txt', headers: { ...XML, Depth: '0', 'Transfer-Encoding': 'chunked' }, body: huge, auth })).status).toBe(413);
    expect(await snapshot()).toBe(before);
  });

  it('refuses traversal and control characters in paths with 400, and overlong names with 400', async () => {
    const before = await snapshot();
    const auth: [string, string] = [ADMIN_USERNAME, ADMIN_PASSWORD];
    for (const path of ['/dav/box/%2e%2e/%2e%2e/etc/passwd', '/dav/box/../../etc/passwd', '/dav/box/..%2F..%2Fx', '/dav/box/a%00b', '/dav/box/%ZZ']) {
      expect((await rawRequest(t.baseUrl, { method: 'PUT', path, body: 'x', auth })).status, path).toBe(400);
      expect((await rawRequest(t.baseUrl, { method: 'MKCOL', path, auth })).status, path).toBe(400);
      expect((await rawRequest(t.baseUrl, { method: 'DELETE', path, auth })).status, path).toBe(400);
    }
    const long = 'n'.repeat(256);
    expect((await dav.put(`box/${long}`, 'x')).status).toBe(400);
    expect((await dav.mkcol(`box/${long}`)).status).toBe(400);
    expect((await dav.transfer('COPY', 'box/a.txt', `box/${long}`)).status).toBe(400);
    expect(await snapshot()).toBe(before);
  });

  it('refuses Destinations on another host, outside /dav/ or climbing out, changing nothing', async () => {
    const before = await snapshot();
    expect((await dav.transfer('MOVE', 'box/a.txt', 'https://attacker.example/dav/box/b.txt')).status).toBe(502);
    expect((await dav.transfer('MOVE', 'box/a.txt', '/elsewhere/b.txt')).status).toBe(403);
    expect((await dav.transfer('MOVE', 'box/a.txt', '/dav/box/%2e%2e/%2e%2e/b.txt')).status).toBe(403);
    expect((await dav.transfer('MOVE', 'box/a.txt', '/dav/box/..%2F..%2Fb.txt')).status).toBe(400);
    expect((await dav.call('MOVE', 'box/a.txt', { headers: { Destination: 'http://[bad' } })).status).toBe(400);
    expect((await dav.transfer('MOVE', 'box/a.txt', 'box/b.txt', { Overwrite: 'maybe' })).status).toBe(400);
    expect((await dav.propfind('box/a.txt', '0', undefined)).status).toBe(207);
    expect(await snapshot()).toBe(before);
  });

  it('refuses changes to the root and a malformed Depth', async () => {
    const before = await snapshot();
    expect((await dav.call('PROPFIND', 'box', { headers: { Depth: '2' } })).status).toBe(400);
    expect((await dav.delete('')).status).toBe(400);
    expect((await dav.put('', 'x')).status).toBe(405);
    expect((await dav.mkcol('')).status).toBe(405);
    expect((await dav.transfer('MOVE', '', 'box/root')).status).toBe(403);
    expect(await snapshot()).toBe(before);
  });
});
