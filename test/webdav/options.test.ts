import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { DavClient } from './dav-client.js';

/** OPTIONS: the WebDAV classes and the headers Windows and macOS look for. */
describe.each(testDatabaseTargets())('webdav OPTIONS [$name]', (target) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(target); });
  afterAll(() => t.close());

  it('answers DAV 1, 2, MS-Author-Via and Allow, without a credential', async () => {
    const dav = new DavClient(t.baseUrl, ['nobody', 'nothing']);
    for (const path of ['/dav', '/dav/', '/dav/anything/below']) {
      const answer = await dav.call('OPTIONS', path, { auth: null });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('dav')).toBe('1, 2');
      expect(answer.headers.get('ms-author-via')).toBe('DAV');
      expect(answer.headers.get('allow')).toContain('PROPFIND');
      expect(answer.headers.get('allow')).toContain('LOCK');
    }
  });

  it('answers a method it does not serve with 405 and Allow, and the REST API is unchanged', async () => {
    const dav = new DavClient(t.baseUrl, ['nobody', 'nothing']);
    const post = await dav.call('POST', '/dav/x', { auth: null });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toContain('MKCOL');
    expect((await fetch(`${t.baseUrl}/health`)).status).toBe(200);
  });
});
