import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { DavClient, hrefsOf, responseFor } from './dav-client.js';

const XML = { 'Content-Type': 'application/xml; charset=utf-8' };

/** Every WebDAV method through HTTP, as a Site Administrator signed in with its password (its /dav/ is the site root). */
describe.each(testDatabaseTargets())('webdav methods [$name]', (target) => {
  let t: TestApp;
  let dav: DavClient;
  let n = 0;
  /** A fresh folder for each test, so tests share nothing. */
  const folder = async () => {
    n += 1;
    const name = `t${n}`;
    expect((await dav.mkcol(name)).status).toBe(201);
    return name;
  };
  const restList = async (path: string) => (await t.api.get(`/folders/${encodeURIComponent(path)}`, { key: BOOTSTRAP_KEY })).body as { path: string; type: string; size: number }[];

  beforeAll(async () => {
    t = await startTestApp(target);
    dav = new DavClient(t.baseUrl, [ADMIN_USERNAME, ADMIN_PASSWORD]);
  });
  afterAll(() => t.close());

  describe('PROPFIND', () => {
    it('answers Depth 0 and 1 with hrefs percent-encoded, folders with a trailing slash', async () => {
      const f = await folder();
      await dav.mkcol(`${f}/sub dir`);
      await dav.put(`${f}/r%C3%A9sum%C3%A9%20%231.txt`, 'hello');
      const zero = await dav.propfind(f, '0');
      expect(zero.status).toBe(207);
      expect(zero.headers.get('content-type')).toMatch(/^application\/xml/);
      expect(hrefsOf(zero.text)).toEqual([`/dav/${f}/`]);
      const one = await dav.propfind(`${f}/`, '1');
      expect(hrefsOf(one.text)).toEqual([`/dav/${f}/`, `/dav/${f}/sub%20dir/`, `/dav/${f}/r%C3%A9sum%C3%A9%20%231.txt`]);
      const file = responseFor(one.text, `/dav/${f}/r%C3%A9sum%C3%A9%20%231.txt`) as string;
      expect(file).toContain('<D:getcontentlength>5</D:getcontentlength>');
      expect(file).toContain('<D:resourcetype/>');
      expect(file).toContain('<D:getcontenttype>text/plain</D:getcontenttype>');
      expect(file).toMatch(/<D:getetag>"[0-9a-f]{64}"<\/D:getetag>/);
      expect(file).toContain('<D:displayname>résumé #1.txt</D:displayname>');
      expect(responseFor(one.text, `/dav/${f}/sub%20dir/`)).toContain('<D:collection/>');
    });

    it('refuses Depth infinity, also when no Depth is sent, with propfind-finite-depth', async () => {
      for (const headers of [{ Depth: 'infinity' }, {}] as Record<string, string>[]) {
        const answer = await dav.call('PROPFIND', '', { headers });
        expect(answer.status).toBe(403);
        expect(answer.text).toContain('<D:propfind-finite-depth/>');
      }
    });

    it('answers prop with a 404 propstat for what an entry lacks, and propname with names only', async () => {
      const f = await folder();
      const prop = await dav.propfind(f, '0', '<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:x="urn:x"><D:prop><D:getlastmodified/><D:getcontentlength/><x:nothing/></D:prop></D:propfind>');
      expect(prop.status).toBe(207);
      expect(prop.text).toMatch(/<D:propstat><D:prop><D:getlastmodified>[^<]+GMT<\/D:getlastmodified><\/D:prop><D:status>HTTP\/1.1 200 OK<\/D:status>/);
      expect(prop.text).toMatch(/<D:propstat><D:prop><D:getcontentlength\/><P:nothing xmlns:P="urn:x"\/><\/D:prop><D:status>HTTP\/1.1 404 Not Found<\/D:status>/);
      const names = await dav.propfind(f, '0', '<D:propfind xmlns:D="DAV:"><D:propname/></D:propfind>');
      expect(names.text).toContain('<D:resourcetype/>');
      expect(names.text).not.toContain('<D:collection/>');
    });

    it('keeps an answer only until the data changes, and never gives one caller another\'s', async () => {
      const f = await folder();
      const body = '<D:propfind xmlns:D="DAV:"><D:prop><D:getetag/></D:prop></D:propfind>';
      await dav.put(`${f}/one.txt`, '1');
      expect(hrefsOf((await dav.propfind(f, '1', body)).text)).toHaveLength(2);
      expect(hrefsOf((await dav.propfind(f, '1', body)).text)).toHaveLength(2);
      await dav.put(`${f}/two.txt`, '2');
      expect(hrefsOf((await dav.propfind(f, '1', body)).text)).toHaveLength(3);
      const etag = /<D:getetag>([^<]+)</.exec((await dav.propfind(`${f}/two.txt`, '0', body)).text)?.[1];
      await dav.put(`${f}/two.txt`, 'changed');
      expect((await dav.propfind(`${f}/two.txt`, '0', body)).text).not.toContain(etag as string);
      const stranger = await t.api.post('/users', { username: `stranger${n}`, password: 'a perfectly good passphrase' }, { key: BOOTSTRAP_KEY });
      expect(stranger.status).toBe(201);
      expect((await dav.as(`stranger${n}`, 'a perfectly good passphrase').propfind(f, '1', body)).status).toBe(404);
    });

    it('is 404 for a path that does not exist', async () => {
      expect((await dav.propfind('no-such-thing', '0')).status).toBe(404);
    });
  });

  describe('PROPPATCH', () => {
    const update = (body: string) => `<?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:">${body}</D:propertyupdate>`;

    it('keeps dead properties (Windows Win32 ones too), removes them, and they move and copy with the entry', async () => {
      const f = await folder();
      await dav.put(`${f}/a.txt`, 'a');
      const set = await dav.call('PROPPATCH', `${f}/a.txt`, { headers: XML, body: update('<D:set><D:prop><Z:Win32FileAttributes>00000020</Z:Win32FileAttributes><nons>plain 𝄞</nons></D:prop></D:set>') });
      expect(set.status).toBe(207);
      expect(set.text).toContain('HTTP/1.1 200 OK');
      const read = await dav.propfind(`${f}/a.txt`, '0');
      expect(read.text).toContain('<ns0:Win32FileAttributes xmlns:ns0="urn:schemas-microsoft-com:">00000020</ns0:Win32FileAttributes>');
      expect(read.text).toContain('<nons>plain 𝄞</nons>');

      expect((await dav.transfer('MOVE', `${f}/a.txt`, `${f}/b.txt`)).status).toBe(201);
      expect((await dav.propfind(`${f}/b.txt`, '0')).text).toContain('00000020');
      expect((await dav.transfer('COPY', `${f}/b.txt`, `${f}/c.txt`)).status).toBe(201);
      expect((await dav.propfind(`${f}/c.txt`, '0')).text).toContain('00000020');

      const removed = await dav.call('PROPPATCH', `${f}/c.txt`, { headers: XML, body: update('<D:remove><D:prop><Z:Win32FileAttributes/></D:prop></D:remove>') });
      expect(removed.status).toBe(207);
      expect((await dav.propfind(`${f}/c.txt`, '0')).text).not.toContain('00000020');
      expect((await dav.propfind(`${f}/b.txt`, '0')).text).toContain('00000020');
    });

    it('shows in a Depth 1 listing each member\'s own dead properties and locks, not those of the folder\'s neighbours or children', async () => {
      const f = await folder();
      await dav.put(`${f}/a.txt`, 'a');
      await dav.put(`${f}/b.txt`, 'b');
      await dav.mkcol(`${f}/sub`);
      await dav.put(`${f}/sub/deep.txt`, 'd');
      await dav.put(`${f}x.txt`, 'neighbour');
      const tag = (path: string, value: string) => dav.call('PROPPATCH', path, { headers: XML, body: update(`<D:set><D:prop><Z:tag>${value}</Z:tag></D:prop></D:set>`) });
      for (const [path, value] of [[f, 'folder'], [`${f}/a.txt`, 'a &amp; 1'], [`${f}/sub/deep.txt`, 'deep'], [`${f}x.txt`, 'neighbour']] as const) expect((await tag(path, value)).status).toBe(207);
      const locked = await dav.call('LOCK', `${f}/b.txt`, { headers: XML, body: '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>' });
      expect(locked.status).toBe(200);

      const all = (await dav.propfind(f, '1')).text;
      expect([...all.matchAll(/<D:response><D:href>([^<]*)</g)].map((m) => m[1])).toEqual([`/dav/${f}/`, `/dav/${f}/sub/`, `/dav/${f}/a.txt`, `/dav/${f}/b.txt`]);
      const tagOf = (text: string, href: string) => /<ns0:tag [^>]*>([^<]*)<\/ns0:tag>/.exec(responseFor(text, href) ?? '')?.[1];
      expect([`/dav/${f}/`, `/dav/${f}/sub/`, `/dav/${f}/a.txt`, `/dav/${f}/b.txt`].map((href) => tagOf(all, href))).toEqual(['folder', undefined, 'a &amp; 1', undefined]);
      expect(responseFor(all, `/dav/${f}/b.txt`)).toContain('<D:activelock>');
      expect(responseFor(all, `/dav/${f}/a.txt`)).toContain('<D:lockdiscovery/>');
      expect(all).not.toContain('neighbour');
      expect(all).not.toContain('deep');

      const asked = (await dav.propfind(f, '1', '<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:"><D:prop><Z:tag/><D:getcontentlength/></D:prop></D:propfind>')).text;
      expect(responseFor(asked, `/dav/${f}/a.txt`)).toMatch(/<D:propstat><D:prop><ns0:tag [^>]*>a &amp; 1<\/ns0:tag><D:getcontentlength>1<\/D:getcontentlength><\/D:prop><D:status>HTTP\/1.1 200 OK<\/D:status><\/D:propstat><\/D:response>$/);
      expect(responseFor(asked, `/dav/${f}/b.txt`)).toContain('<D:prop><P:tag xmlns:P="urn:schemas-microsoft-com:"/></D:prop><D:status>HTTP/1.1 404 Not Found</D:status>');
      expect(responseFor(asked, `/dav/${f}/`)).toMatch(/>folder<\/ns0:tag><\/D:prop><D:status>HTTP\/1.1 200 OK<\/D:status><\/D:propstat><D:propstat><D:prop><D:getcontentlength\/><\/D:prop><D:status>HTTP\/1.1 404 Not Found/);
      const names = (await dav.propfind(f, '1', '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:propname/></D:propfind>')).text;
      expect(responseFor(names, `/dav/${f}/a.txt`)).toContain('<D:getcontentlength/>');
      expect(responseFor(names, `/dav/${f}/a.txt`)).toContain('<P:tag xmlns:P="urn:schemas-microsoft-com:"/>');
      expect(responseFor(names, `/dav/${f}/sub/`)).not.toContain('P:tag');
      await dav.call('UNLOCK', `${f}/b.txt`, { headers: { 'Lock-Token': locked.headers.get('lock-token') as string } });
    });

    it('refuses a live property with 403, fails the rest with 424, and changes nothing', async () => {
      const f = await folder();
      const answer = await dav.call('PROPPATCH', f, { headers: XML, body: update('<D:set><D:prop><Z:mine>1</Z:mine><D:getetag>"x"</D:getetag></D:prop></D:set>') });
      expect(answer.status).toBe(207);
      expect(answer.text).toMatch(/<D:getetag\/><\/D:prop><D:status>HTTP\/1.1 403 Forbidden/);
      expect(answer.text).toMatch(/<P:mine xmlns:P="urn:schemas-microsoft-com:"\/><\/D:prop><D:status>HTTP\/1.1 424 Failed Dependency/);
      expect((await dav.propfind(f, '0')).text).not.toContain('mine');
    });
  });

  describe('client modification times', () => {
    const update = (body: string) => `<?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:">${body}</D:propertyupdate>`;
    const lastModifiedOf = async (path: string) => /<D:getlastmodified>([^<]+)<\/D:getlastmodified>/.exec((await dav.propfind(path, '0')).text)?.[1];
    const restEntry = async (path: string) => (await t.api.get(`/file_actions/metadata/${path}`, { key: BOOTSTRAP_KEY })).body as { mtime: string; provided_mtime: string | null };

    it('keeps Win32LastModifiedTime and getlastmodified set by PROPPATCH as provided_mtime, with the dead properties of the same request; getlastmodified and Last-Modified show it', async () => {
      const f = await folder();
      await dav.put(`${f}/a.txt`, 'a');
      const before = await restEntry(`${f}/a.txt`);
      const windows = await dav.call('PROPPATCH', `${f}/a.txt`, { headers: XML, body: update('<D:set><D:prop><Z:Win32CreationTime>Thu, 02 Jan 2020 03:04:05 GMT</Z:Win32CreationTime><Z:Win32LastModifiedTime>Thu, 02 Jan 2020 03:04:05 GMT</Z:Win32LastModifiedTime></D:prop></D:set>') });
      expect(windows.status).toBe(207);
      expect(windows.text).toMatch(/<P:Win32LastModifiedTime xmlns:P="urn:schemas-microsoft-com:"\/><\/D:prop><D:status>HTTP\/1.1 200 OK/);
      expect(await restEntry(`${f}/a.txt`)).toEqual({ ...before, provided_mtime: '2020-01-02T03:04:05Z' });
      expect(await lastModifiedOf(`${f}/a.txt`)).toBe('Thu, 02 Jan 2020 03:04:05 GMT');
      expect((await dav.get(`${f}/a.txt`)).headers.get('last-modified')).toBe('Thu, 02 Jan 2020 03:04:05 GMT');
      expect((await dav.propfind(`${f}/a.txt`, '0')).text).toContain('>Thu, 02 Jan 2020 03:04:05 GMT</ns0:Win32CreationTime>');

      // DAV:getlastmodified itself, on a folder too; the server's mtime stays its own.
      const dated = await dav.call('PROPPATCH', f, { headers: XML, body: update('<D:set><D:prop><D:getlastmodified>Sat, 29 Feb 2020 23:59:58 GMT</D:getlastmodified></D:prop></D:set>') });
      expect(dated.text).toMatch(/<D:getlastmodified\/><\/D:prop><D:status>HTTP\/1.1 200 OK/);
      expect((await lastModifiedOf(f))).toBe('Sat, 29 Feb 2020 23:59:58 GMT');
      expect((await restEntry(f)).provided_mtime).toBe('2020-02-29T23:59:58Z');
    });

    it('answers a time that is no HTTP date 409 and the rest 424, refuses removing getlastmodified (403), and changes nothing', async () => {
      const f = await folder();
      await dav.put(`${f}/a.txt`, 'a');
      for (const value of ['yesterday', '2020-01-02T03:04:05Z', 'Sun, 31 Feb 2020 03:04:05 GMT']) {
        const answer = await dav.call('PROPPATCH', `${f}/a.txt`, { headers: XML, body: update(`<D:set><D:prop><Z:mine>1</Z:mine><Z:Win32LastModifiedTime>${value}</Z:Win32LastModifiedTime></D:prop></D:set>`) });
        expect(answer.status, value).toBe(207);
        expect(answer.text, value).toMatch(/<P:Win32LastModifiedTime xmlns:P="urn:schemas-microsoft-com:"\/><\/D:prop><D:status>HTTP\/1.1 409 Conflict/);
        expect(answer.text, value).toMatch(/<P:mine xmlns:P="urn:schemas-microsoft-com:"\/><\/D:prop><D:status>HTTP\/1.1 424 Failed Dependency/);
      }
      const removed = await dav.call('PROPPATCH', `${f}/a.txt`, { headers: XML, body: update('<D:remove><D:prop><D:getlastmodified/></D:prop></D:remove>') });
      expect(removed.text).toMatch(/<D:getlastmodified\/><\/D:prop><D:status>HTTP\/1.1 403 Forbidden/);
      expect((await restEntry(`${f}/a.txt`)).provided_mtime).toBeNull();
      expect((await dav.propfind(`${f}/a.txt`, '0')).text).not.toContain('mine');
    });

    it('keeps the time of a PUT from X-OC-Mtime (rclone\'s owncloud vendor) or Last-Modified (lftp); new contents without one have none; an unreadable one is 400 and stores nothing', async () => {
      const f = await folder();
      const oc = await dav.put(`${f}/oc.txt`, 'oc', { 'X-OC-Mtime': '1577934245' });
      expect(oc.status).toBe(201);
      expect(oc.headers.get('x-oc-mtime')).toBe('accepted');
      expect((await restEntry(`${f}/oc.txt`)).provided_mtime).toBe('2020-01-02T03:04:05Z');
      expect(await lastModifiedOf(`${f}/oc.txt`)).toBe('Thu, 02 Jan 2020 03:04:05 GMT');

      // lftp writes the day space-padded.
      expect((await dav.put(`${f}/lftp.txt`, 'lftp', { 'Last-Modified': 'Thu,  2 Jan 2020 03:04:06 GMT' })).status).toBe(201);
      expect((await restEntry(`${f}/lftp.txt`)).provided_mtime).toBe('2020-01-02T03:04:06Z');
      expect((await dav.put(`${f}/lftp.txt`, 'new contents')).status).toBe(204);
      expect((await restEntry(`${f}/lftp.txt`)).provided_mtime).toBeNull();

      for (const headers of [{ 'X-OC-Mtime': 'soon' }, { 'X-OC-Mtime': '-5' }, { 'X-OC-Mtime': '999999999999' }, { 'Last-Modified': 'soon' }] as Record<string, string>[]) {
        const refused = await dav.put(`${f}/bad.txt`, 'bad', headers);
        expect(refused.status, JSON.stringify(headers)).toBe(400);
      }
      expect((await restList(f)).map((entry) => entry.path)).toEqual([`${f}/lftp.txt`, `${f}/oc.txt`]);
    });

    it('shows a provided_mtime set through the REST API as getlastmodified', async () => {
      const f = await folder();
      await dav.put(`${f}/a.txt`, 'a');
      expect((await t.api.patch(`/files/${f}/a.txt`, { provided_mtime: '2021-04-14T09:29:16-07:00' }, { key: BOOTSTRAP_KEY })).status).toBe(200);
      expect(await lastModifiedOf(`${f}/a.txt`)).toBe('Wed, 14 Apr 2021 16:29:16 GMT');
    });
  });

  describe('MKCOL', () => {
    it('creates a folder (201), and refuses one that exists (405), a missing parent (409) and a body (415)', async () => {
      const f = await folder();
      expect((await dav.mkcol(`${f}/new`)).status).toBe(201);
      expect((await restList(f)).map((e) => e.path)).toEqual([`${f}/new`]);
      expect((await dav.mkcol(`${f}/new`)).status).toBe(405);
      expect((await dav.mkcol(`${f}/missing/new`)).status).toBe(409);
      expect((await dav.call('MKCOL', `${f}/body`, { body: '<x/>', headers: XML })).status).toBe(415);
      expect((await restList(f)).map((e) => e.path)).toEqual([`${f}/new`]);
    });
  });

  describe('PUT, GET and HEAD', () => {
    it('creates (201), replaces (204), and REST sees the same file at once', async () => {
      const f = await folder();
      expect((await dav.put(`${f}/x.bin`, 'first')).status).toBe(201);
      expect((await dav.put(`${f}/x.bin`, 'second!')).status).toBe(204);
      expect(await restList(f)).toMatchObject([{ path: `${f}/x.bin`, type: 'file', size: 7 }]);
      const got = await dav.get(`${f}/x.bin`);
      expect(got.status).toBe(200);
      expect(got.text).toBe('second!');
    });

    it('refuses a PUT whose folder is missing (409) or onto a folder (405)', async () => {
      const f = await folder();
      expect((await dav.put(`${f}/nope/x.txt`, 'x')).status).toBe(409);
      expect((await dav.put(f, 'x')).status).toBe(405);
      expect(await restList(f)).toEqual([]);
    });

    it('serves ranges, ETag and Last-Modified, and answers 304 and 412 on conditions', async () => {
      const f = await folder();
      await dav.put(`${f}/r.txt`, '0123456789');
      const whole = await dav.get(`${f}/r.txt`);
      const etag = whole.headers.get('etag') as string;
      expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
      const part = await dav.get(`${f}/r.txt`, { Range: 'bytes=2-4' });
      expect(part.status).toBe(206);
      expect(part.text).toBe('234');
      expect(part.headers.get('content-range')).toBe('bytes 2-4/10');
      expect((await dav.get(`${f}/r.txt`, { 'If-None-Match': etag })).status).toBe(304);
      expect((await dav.get(`${f}/r.txt`, { 'If-Modified-Since': whole.headers.get('last-modified') as string })).status).toBe(304);
      expect((await dav.get(`${f}/r.txt`, { 'If-Match': '"other"' })).status).toBe(412);
      const head = await dav.call('HEAD', `${f}/r.txt`);
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe('10');
      expect(head.text).toBe('');
    });

    it('answers a folder GET with an HTML list of its entries', async () => {
      const f = await folder();
      await dav.put(`${f}/<b>.txt`.replace('<', '%3C').replace('>', '%3E'), 'x');
      const page = await dav.get(`${f}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.text).toContain('&lt;b&gt;.txt');
      expect(page.text).not.toContain('<b>');
    });

    it('leaves nothing visible when a PUT is interrupted', async () => {
      const f = await folder();
      const { request } = await import('node:http');
      const url = new URL(dav.url(`${f}/partial.bin`));
      await new Promise<void>((resolve) => {
        const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'PUT', headers: { 'Content-Length': '100000', Authorization: `Basic ${Buffer.from(`${ADMIN_USERNAME}:${ADMIN_PASSWORD}`).toString('base64')}` } });
        req.on('error', () => resolve());
        req.write(Buffer.alloc(5000, 1), () => setTimeout(() => { req.destroy(); resolve(); }, 200));
      });
      // As for SFTP: the server learns of the cut from its socket, and the test checks that nothing appears.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await restList(f)).toEqual([]);
      expect((await dav.propfind(`${f}/partial.bin`, '0')).status).toBe(404);
    });
  });

  describe('DELETE', () => {
    it('deletes a file, and a folder with everything in it', async () => {
      const f = await folder();
      await dav.mkcol(`${f}/d`);
      await dav.mkcol(`${f}/d/e`);
      await dav.put(`${f}/d/e/x.txt`, 'x');
      await dav.put(`${f}/y.txt`, 'y');
      expect((await dav.delete(`${f}/y.txt`)).status).toBe(204);
      expect((await dav.delete(`${f}/d`)).status).toBe(204);
      expect(await restList(f)).toEqual([]);
      expect((await dav.delete(`${f}/d`)).status).toBe(404);
      expect((await dav.delete('')).status).toBe(400);
    });
  });

  describe('COPY and MOVE', () => {
    it('copies and moves trees: 201 new, 204 overwritten, 412 with Overwrite F, 409 without the destination folder', async () => {
      const f = await folder();
      await dav.mkcol(`${f}/src`);
      await dav.put(`${f}/src/a.txt`, 'a');
      expect((await dav.transfer('COPY', `${f}/src`, `${f}/copy`)).status).toBe(201);
      expect((await dav.get(`${f}/copy/a.txt`)).text).toBe('a');
      expect((await dav.transfer('COPY', `${f}/src`, `${f}/copy`, { Overwrite: 'F' })).status).toBe(412);
      await dav.put(`${f}/copy/extra.txt`, 'e');
      expect((await dav.transfer('COPY', `${f}/src`, `${f}/copy`)).status).toBe(204);
      expect((await dav.get(`${f}/copy/extra.txt`)).status).toBe(404);
      expect((await dav.transfer('MOVE', `${f}/copy`, `${f}/none/moved`)).status).toBe(409);
      expect((await dav.transfer('MOVE', `${f}/copy`, `${f}/moved`)).status).toBe(201);
      await dav.put(`${f}/file.txt`, 'f');
      expect((await dav.transfer('MOVE', `${f}/file.txt`, `${f}/moved`)).status).toBe(204);
      expect((await restList(f)).map((e) => e.path).sort()).toEqual([`${f}/moved`, `${f}/src`]);
      expect((await dav.get(`${f}/moved`)).text).toBe('f');
    });

    it('copies a folder alone with Depth 0, and refuses Depth 1', async () => {
      const f = await folder();
      await dav.mkcol(`${f}/src`);
      await dav.put(`${f}/src/a.txt`, 'a');
      expect((await dav.transfer('COPY', `${f}/src`, `${f}/shallow`, { Depth: '0' })).status).toBe(201);
      expect(await restList(`${f}/shallow`)).toEqual([]);
      expect((await dav.transfer('COPY', `${f}/src`, `${f}/one`, { Depth: '1' })).status).toBe(400);
      expect((await dav.transfer('MOVE', `${f}/src`, `${f}/one`, { Depth: '0' })).status).toBe(400);
    });

    it('refuses a Destination on another host (502), outside /dav/ (403), or the source itself (403)', async () => {
      const f = await folder();
      await dav.put(`${f}/a.txt`, 'a');
      expect((await dav.transfer('COPY', `${f}/a.txt`, `http://elsewhere.example/dav/${f}/b.txt`)).status).toBe(502);
      expect((await dav.transfer('COPY', `${f}/a.txt`, '/api/rest/v1/files/b.txt')).status).toBe(403);
      expect((await dav.transfer('COPY', `${f}/a.txt`, `/dav/${f}/../../etc/b.txt`)).status).toBe(403);
      expect((await dav.transfer('MOVE', `${f}/a.txt`, `${f}/a.txt`)).status).toBe(403);
      expect((await dav.call('MOVE', `${f}/a.txt`)).status).toBe(400);
      expect((await restList(f)).map((e) => e.path)).toEqual([`${f}/a.txt`]);
    });
  });

  it('records what WebDAV changes in History with interface dav', async () => {
    const f = await folder();
    await dav.put(`${f}/h.txt`, 'h');
    await dav.get(`${f}/h.txt`);
    await dav.transfer('MOVE', `${f}/h.txt`, `${f}/i.txt`);
    await dav.delete(`${f}/i.txt`);
    const rows = await t.database.db.selectFrom('history').select(['action', 'path', 'interface']).where('path', 'like', `${f}%`).orderBy('id').execute();
    expect(rows.map((r) => [r.action, r.interface])).toEqual([['create', 'dav'], ['create', 'dav'], ['read', 'dav'], ['move', 'dav'], ['destroy', 'dav']]);
  });
});
