import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { BOOTSTRAP_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { downloadText, enc, expectError, listedPaths, putFile, seed } from './files-support.js';

const LIMIT = 256 * 1024;
const admin = { key: BOOTSTRAP_KEY };

/** Every file under a directory (the blob store's objects, or its temporary files). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    if (await check()) return;
    // A poll, not a wait: the server finishes a cut request on its own socket events, which no
    // fake clock drives; it ends as soon as the condition holds.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition never held');
}

/** Sends `sent` bytes of a body that declares `declared` (or is chunked), then cuts the connection or ends. */
function sendBody(t: TestApp, method: string, urlPath: string, options: { declared?: number; sent: number; abort: boolean; key?: string }) {
  const url = new URL(t.baseUrl);
  return new Promise<{ status: number; body: any } | 'aborted'>((resolve) => {
    const headers: Record<string, string> = options.key === undefined ? {} : { 'X-ServiceAPI-Key': options.key };
    if (options.declared !== undefined) headers['content-length'] = String(options.declared);
    const request = http.request({ host: url.hostname, port: url.port, method, path: urlPath, headers }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) }));
    });
    request.on('error', () => resolve('aborted'));
    const chunk = Buffer.alloc(16 * 1024, 'z');
    let written = 0;
    const pump = () => {
      while (written < options.sent) {
        written += chunk.length;
        if (!request.write(chunk)) return void request.once('drain', pump);
      }
      // The client goes away once some bytes are on the wire, as a real one would mid-upload.
      if (options.abort) setTimeout(() => request.destroy(), 50);
      else request.end();
    };
    pump();
  });
}

describe.each(testDatabaseTargets())('file transfer [$name]', (target) => {
  let t: TestApp;
  let objectsDir: string;
  let tmpDir: string;
  beforeAll(async () => {
    t = await startTestApp(target, { maxUploadBytes: LIMIT });
    objectsDir = path.join(t.dataDir, 'files', 'objects');
    tmpDir = path.join(t.dataDir, 'files', 'tmp');
    await seed(t, { 'docs/': '' });
  });
  afterAll(() => t.close());

  it('uploads a whole file in one PUT, as curl -T does, creating missing folders', async () => {
    const response = await putFile(t, 'docs/new/report.txt', 'quarterly numbers');
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ path: 'docs/new/report.txt', type: 'file', size: 17, permissions: 'lrwd' });
    expect(await listedPaths(t, 'docs/new', admin)).toEqual(['docs/new/report.txt']);
    expectError(await putFile(t, 'docs/none/x.txt', 'x', admin, '?mkdir_parents=false'), 422, 'processing-failure/destination-parent-does-not-exist');
  });

  it('stores the bytes whatever the content type says, a JSON body included', async () => {
    const response = await fetch(`${t.baseUrl}/api/rest/v1/files/${enc('docs/data.json')}`, {
      method: 'PUT', headers: { 'X-ServiceAPI-Key': BOOTSTRAP_KEY, 'content-type': 'application/json' }, body: '[1, 2',
    });
    expect(response.status).toBe(201);
    expect(await downloadText(t, 'docs/data.json', admin)).toBe('[1, 2');
  });

  it('replaces a file atomically and keeps the replaced contents as its version, by reference', async () => {
    await putFile(t, 'docs/v.txt', 'version one');
    const before = await filesUnder(objectsDir);
    const replaced = await putFile(t, 'DOCS/V.TXT', 'version two!');
    expect(replaced.status).toBe(201);
    expect(replaced.body.path).toBe('docs/v.txt');
    expect(await downloadText(t, 'docs/v.txt', admin)).toBe('version two!');
    // One new blob, the new contents: the old one is the version's now (docs/files.md#trash-and-versions).
    expect((await filesUnder(objectsDir)).length).toBe(before.length + 1);
    const versions = await t.api.get('/file_versions?path=docs%2Fv.txt', admin);
    expect(versions.body.map((v: { size: number }) => v.size)).toEqual(['version one'.length]);
  });

  it('serves a download_uri with the exact length, a range, a redirect and a direct stream', async () => {
    await putFile(t, 'docs/range.txt', '0123456789');
    const meta = await t.api.get(`/files/${enc('docs/range.txt')}`, admin);
    expect(meta.body).toMatchObject({ path: 'docs/range.txt', size: 10, download_uri: expect.stringContaining('/api/rest/v1/downloads/') });
    const whole = await fetch(meta.body.download_uri);
    expect(whole.headers.get('content-length')).toBe('10');
    expect(whole.headers.get('content-type')).toBe('application/octet-stream');
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    expect(whole.headers.get('content-disposition')).toContain("filename*=UTF-8''range.txt");
    expect(await whole.text()).toBe('0123456789');
    const part = await fetch(meta.body.download_uri, { headers: { range: 'bytes=2-4' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-4/10');
    expect(await part.text()).toBe('234');
    expect(await (await fetch(meta.body.download_uri, { headers: { range: 'bytes=-3' } })).text()).toBe('789');
    expect((await fetch(meta.body.download_uri, { headers: { range: 'bytes=50-60' } })).status).toBe(200);
    const redirect = await fetch(`${t.baseUrl}/api/rest/v1/files/${enc('docs/range.txt')}?action=redirect`, { headers: { 'X-ServiceAPI-Key': BOOTSTRAP_KEY }, redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(await (await fetch(redirect.headers.get('location') as string)).text()).toBe('0123456789');
    const stream = await fetch(`${t.baseUrl}/api/rest/v1/files/${enc('docs/range.txt')}?action=stream`, { headers: { 'X-ServiceAPI-Key': BOOTSTRAP_KEY } });
    expect(await stream.text()).toBe('0123456789');
  });

  it('gives File.find the metadata, with a download_uri for a file', async () => {
    const meta = await t.api.get(`/file_actions/metadata/${enc('docs/range.txt')}?path=docs%2Frange.txt`, admin);
    expect(meta.body).toMatchObject({ path: 'docs/range.txt', type: 'file', download_uri: expect.any(String) });
    const folder = await t.api.get('/file_actions/metadata/docs', admin);
    expect(folder.body).toMatchObject({ path: 'docs', type: 'directory', size: null });
    expect(folder.body.download_uri).toBeUndefined();
    expectError(await t.api.get('/files/docs', admin), 400, 'bad-request/cannot-download-directory');
    expectError(await t.api.get('/files/docs/missing.txt', admin), 404, 'not-found/file-not-found');
  });

  it('makes a download link reach one version of one file, for a short time', async () => {
    await putFile(t, 'docs/once.txt', 'first');
    const uri = (await t.api.get(`/files/${enc('docs/once.txt')}`, admin)).body.download_uri as string;
    const token = uri.slice(uri.lastIndexOf('/') + 1);
    expect((await fetch(uri.replace(token, token.replace(/^d\.(\d+)/, (_m, id: string) => `d.${Number(id) - 1}`)))).status).toBe(404);
    t.clock.advanceMinutes(16);
    const expired = await fetch(uri);
    t.clock.advanceMinutes(-16);
    expect(expired.status).toBe(401);
    await putFile(t, 'docs/once.txt', 'second');
    expect((await fetch(uri)).status).toBe(404);
  });

  it('refuses a file over the configured size, before or while reading it, and keeps nothing', async () => {
    const before = await filesUnder(objectsDir);
    const declared = await sendBody(t, 'PUT', '/api/rest/v1/files/docs/big.bin', { declared: LIMIT + 1, sent: LIMIT + 1, abort: false, key: BOOTSTRAP_KEY });
    expect(declared).toMatchObject({ status: 400, body: { type: 'bad-request/request-body-too-large' } });
    expect((declared as { body: { error: string } }).body.error).toContain(String(LIMIT));
    const chunked = await sendBody(t, 'PUT', '/api/rest/v1/files/docs/big.bin', { sent: LIMIT + 64 * 1024, abort: false, key: BOOTSTRAP_KEY });
    if (chunked !== 'aborted') expect(chunked).toMatchObject({ status: 400, body: { type: 'bad-request/request-body-too-large' } });
    await eventually(async () => (await filesUnder(tmpDir)).length === 0);
    expect(await filesUnder(objectsDir)).toEqual(before);
    expectError(await t.api.get('/files/docs/big.bin', admin), 404, 'not-found/file-not-found');
    expect((await putFile(t, 'docs/exact.bin', new Uint8Array(LIMIT))).status).toBe(201);
  });

  it('counts every part of an upload against the limit', async () => {
    const begun = await t.api.post('/files/docs%2Fparts.bin', { action: 'put' }, admin);
    const first = await t.api.post('/files/docs%2Fparts.bin', { action: 'put', ref: begun.body.ref, part: 1 }, admin);
    expect((await fetch(first.body.upload_uri, { method: 'PUT', body: new Uint8Array(LIMIT - 10) })).status).toBe(200);
    const second = await t.api.post('/files/docs%2Fparts.bin', { action: 'put', ref: begun.body.ref, part: 2 }, admin);
    const over = await fetch(second.body.upload_uri, { method: 'PUT', body: new Uint8Array(11) });
    expect(over.status).toBe(400);
    expect(((await over.json()) as any).type).toBe('bad-request/request-body-too-large');
  });

  it('leaves nothing behind when a client goes away mid-upload', async () => {
    const before = await filesUnder(objectsDir);
    const whole = await sendBody(t, 'PUT', '/api/rest/v1/files/docs/cut.bin', { declared: 200_000, sent: 64 * 1024, abort: true, key: BOOTSTRAP_KEY });
    expect(whole).toBe('aborted');
    const begun = await t.api.post('/files/docs%2Fcut-part.bin', { action: 'put' }, admin);
    const partPath = new URL(begun.body.upload_uri).pathname;
    expect(await sendBody(t, 'PUT', partPath, { declared: 200_000, sent: 64 * 1024, abort: true })).toBe('aborted');
    await eventually(async () => (await filesUnder(tmpDir)).length === 0);
    expect(await filesUnder(objectsDir)).toEqual(before);
    expect(await t.database.db.selectFrom('upload_parts').innerJoin('uploads', 'uploads.id', 'upload_parts.upload_id').select('ref').where('ref', '=', begun.body.ref).execute()).toEqual([]);
    expect(await listedPaths(t, 'docs', admin)).not.toEqual(expect.arrayContaining(['docs/cut.bin']));
    // The upload itself is still open: the client may send the part again.
    expect((await fetch(begun.body.upload_uri, { method: 'PUT', body: 'whole' })).status).toBe(200);
    expect((await t.api.post('/files/docs%2Fcut-part.bin', { action: 'end', ref: begun.body.ref }, admin)).status).toBe(201);
  });

  it('answers a body shorter than its Content-Length as incomplete, storing nothing', async () => {
    const url = new URL(t.baseUrl);
    const socketAnswer = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write(`PUT /api/rest/v1/files/docs/short.bin HTTP/1.1\r\nHost: x\r\nX-ServiceAPI-Key: ${BOOTSTRAP_KEY}\r\nContent-Length: 100\r\n\r\nonly-ten..`);
        socket.end();
      });
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    // Node's HTTP parser itself refuses the truncated request; the handler only has to clean up.
    expect(socketAnswer === '' || socketAnswer.startsWith('HTTP/1.1 400')).toBe(true);
    await eventually(async () => (await filesUnder(tmpDir)).length === 0);
    expectError(await t.api.get('/files/docs/short.bin', admin), 404, 'not-found/file-not-found');
  });

  it('keeps sha256 and size in step with the stored bytes', async () => {
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    const response = await putFile(t, 'docs/bytes.bin', bytes);
    expect(response.body.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    const meta = await t.api.get('/files/docs%2Fbytes.bin', admin);
    const downloaded = Buffer.from(await (await fetch(meta.body.download_uri)).arrayBuffer());
    expect(downloaded.equals(bytes)).toBe(true);
  });
});
