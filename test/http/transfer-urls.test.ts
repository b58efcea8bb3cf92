import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putFile } from '../files/files-support.js';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const admin = { key: BOOTSTRAP_KEY };
const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'files.example.test' };

/** The download_uri and a fresh upload_uri of one file, asked for with `headers`. */
async function transferUris(t: TestApp, headers: Record<string, string>): Promise<{ download: string; upload: string }> {
  const file = await t.api.get('/files/links/a.txt', { ...admin, headers });
  expect(file.status).toBe(200);
  const begun = await t.api.post('/files/links%2Fb.txt', { action: 'put' }, { ...admin, headers });
  expect(begun.status).toBe(200);
  return { download: file.body.download_uri, upload: begun.body.upload_uri };
}

describe.each(testDatabaseTargets())('transfer URLs without ATRIUM_PUBLIC_URL [$name]', (target) => {
  let trusting: TestApp;
  let untrusting: TestApp;
  beforeAll(async () => {
    trusting = await startTestApp(target, { trustProxy: ['127.0.0.1'] });
    untrusting = await startTestApp(target);
    for (const t of [trusting, untrusting]) {
      expect((await putFile(t, 'links/a.txt', 'linked')).status).toBe(201);
    }
  });
  afterAll(async () => {
    await trusting?.close();
    await untrusting?.close();
  });

  it('use the scheme and host a trusted proxy forwarded', async () => {
    const uris = await transferUris(trusting, forwarded);
    expect(uris.download).toMatch(/^https:\/\/files\.example\.test\/api\/rest\/v1\/downloads\/[^/]+$/);
    expect(uris.upload).toMatch(/^https:\/\/files\.example\.test\/api\/rest\/v1\/uploads\/[^/]+$/);
  });

  it('ignore forwarded headers from a client that is not a trusted proxy, and work as given', async () => {
    const uris = await transferUris(untrusting, forwarded);
    expect(uris.download.startsWith(`${untrusting.baseUrl}/api/rest/v1/downloads/`)).toBe(true);
    expect(uris.upload.startsWith(`${untrusting.baseUrl}/api/rest/v1/uploads/`)).toBe(true);
    const download = await fetch(uris.download);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('linked');
  });
});
