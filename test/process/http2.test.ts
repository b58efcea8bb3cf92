import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http2 from 'node:http2';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpsRequest, startHttpsServer } from '../support/https-server-process.js';
import type { ServerProcess } from '../support/server-process.js';
import { makeTestCertificateAuthority, type TestCertificateAuthority } from '../support/tls-certificates.js';

const KEY = 'http2-listener-bootstrap-key-0123456789abcdef';
const API = '/api/rest/v1';

interface Http2Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One request on an HTTP/2 session. The body is written in chunks with no Content-Length, as an
 * HTTP/2 client may do; `abortAfter` resets the stream after that many chunks.
 */
function request(session: http2.ClientHttp2Session, method: string, urlPath: string, options: { headers?: Record<string, string>; chunks?: Buffer[]; abortAfter?: number } = {}): Promise<Http2Answer | 'aborted'> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': method, ':path': urlPath, ...options.headers }, { endStream: options.chunks === undefined });
    const parts: Buffer[] = [];
    let headers: http2.IncomingHttpHeaders = {};
    stream.on('response', (received) => (headers = received));
    stream.on('data', (chunk: Buffer) => parts.push(chunk));
    stream.on('end', () => resolve({ status: Number(headers[':status']), headers, body: Buffer.concat(parts) }));
    stream.on('error', reject);
    if (options.chunks === undefined) return;
    void (async () => {
      for (const [index, chunk] of options.chunks!.entries()) {
        if (index === options.abortAfter) {
          stream.close(http2.constants.NGHTTP2_CANCEL);
          resolve('aborted');
          return;
        }
        if (!stream.write(chunk)) await new Promise((done) => stream.once('drain', done));
      }
      stream.end();
    })();
  });
}

function answered(result: Http2Answer | 'aborted'): Http2Answer {
  if (result === 'aborted') throw new Error('the request was aborted');
  return result;
}

const json = (answer: Http2Answer) => JSON.parse(answer.body.toString('utf8')) as Record<string, any>;

describe('HTTP/2 beside HTTP/1.1 on the HTTPS listener', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-http2-'));
  const auth = { 'x-serviceapi-key': KEY };
  let authority: TestCertificateAuthority;
  let server: ServerProcess;
  let session: http2.ClientHttp2Session;
  // 3 MiB in 48 chunks of 64 KiB, each different, so a lost or reordered chunk shows.
  const chunks = Array.from({ length: 48 }, (_, i) => Buffer.alloc(64 * 1024, i));
  const whole = Buffer.concat(chunks);
  const sha256 = createHash('sha256').update(whole).digest('hex');

  beforeAll(async () => {
    authority = makeTestCertificateAuthority(path.join(work, 'pki'));
    const certificate = authority.issue('h2');
    server = await startHttpsServer({
      ATRIUM_DATA_DIR: path.join(work, 'data'),
      ATRIUM_BOOTSTRAP_API_KEY: KEY,
      ATRIUM_TLS_CERT_FILE: certificate.chainFile,
      ATRIUM_TLS_KEY_FILE: certificate.keyFile,
      ATRIUM_IDLE_TIMEOUT: '2s',
      ATRIUM_HTTP_REDIRECT_PORT: '0',
    }, authority.ca);
    session = await connect();
  });

  async function connect(): Promise<http2.ClientHttp2Session> {
    const opened = http2.connect(`https://127.0.0.1:${server.port}`, { ca: authority.ca });
    await new Promise<void>((resolve, reject) => opened.once('connect', () => resolve()).once('error', reject));
    return opened;
  }

  afterAll(async () => {
    session?.close();
    expect(await server?.stop()).toBe(0);
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('offers h2 by ALPN and still answers HTTP/1.1 clients on the same port', async () => {
    expect(session.alpnProtocol).toBe('h2');
    const health = answered(await request(session, 'GET', '/health'));
    expect(health.status).toBe(200);
    expect(health.headers['strict-transport-security']).toBe('max-age=31536000');
    const overHttp1 = await httpsRequest(`https://127.0.0.1:${server.port}/health`, { ca: authority.ca });
    expect(overHttp1.status).toBe(200);
  });

  it('stores every byte of a whole-file PUT sent with no Content-Length and no content type', async () => {
    const put = answered(await request(session, 'PUT', `${API}/files/h2/whole.bin`, { headers: auth, chunks }));
    expect(put.status).toBe(201);
    expect(json(put)).toMatchObject({ path: 'h2/whole.bin', size: whole.length });
    const meta = json(answered(await request(session, 'GET', `${API}/files/h2%2Fwhole.bin`, { headers: auth })));
    const download = answered(await request(session, 'GET', new URL(meta.download_uri as string).pathname));
    expect(download.status).toBe(200);
    expect(createHash('sha256').update(download.body).digest('hex')).toBe(sha256);
  });

  it('stores every byte of an upload part sent with no Content-Length, then finalizes the file', async () => {
    const begin = (body: object) => request(session, 'POST', `${API}/files/h2%2Fparts.bin`, { headers: { ...auth, 'content-type': 'application/json' }, chunks: [Buffer.from(JSON.stringify(body))] });
    const begun = json(answered(await begin({ action: 'put' })));
    const part = answered(await request(session, 'PUT', new URL(begun.upload_uri as string).pathname, { chunks }));
    expect(part.status).toBe(200);
    const ended = answered(await begin({ action: 'end', ref: begun.ref }));
    expect(ended.status).toBe(201);
    expect(json(ended)).toMatchObject({ path: 'h2/parts.bin', size: whole.length });
  });

  it('makes nothing visible when the client resets the stream of an upload midway', async () => {
    expect(await request(session, 'PUT', `${API}/files/h2/cut.bin`, { headers: auth, chunks, abortAfter: 10 })).toBe('aborted');
    const begun = json(answered(await request(session, 'POST', `${API}/files/h2%2Fcut-part.bin`, { headers: { ...auth, 'content-type': 'application/json' }, chunks: [Buffer.from('{"action":"put"}')] })));
    expect(await request(session, 'PUT', new URL(begun.upload_uri as string).pathname, { chunks, abortAfter: 10 })).toBe('aborted');
    // The server sees the reset a moment later; the file must never appear, the part never count.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const missing = answered(await request(session, 'GET', `${API}/files/h2%2Fcut.bin`, { headers: auth }));
    expect(missing.status).toBe(404);
    const ended = answered(await request(session, 'POST', `${API}/files/h2%2Fcut-part.bin`, { headers: { ...auth, 'content-type': 'application/json' }, chunks: [Buffer.from(JSON.stringify({ action: 'end', ref: begun.ref }))] }));
    // No part arrived whole: the upload ends as an empty file, none of the cut part's bytes in it.
    expect(ended.status).toBe(201);
    expect(json(ended)).toMatchObject({ path: 'h2/cut-part.bin', size: 0 });
  });

  it('closes an HTTP/2 connection that stalls in the middle of a body after the idle timeout', async () => {
    const stalled = http2.connect(`https://127.0.0.1:${server.port}`, { ca: authority.ca });
    const closed = new Promise<number>((resolve) => stalled.once('close', () => resolve(Date.now())));
    stalled.on('error', () => undefined);
    const stream = stalled.request({ ':method': 'PUT', ':path': `${API}/files/h2/stalled.bin`, ...auth }, { endStream: false });
    stream.on('error', () => undefined);
    stream.write(Buffer.alloc(1024));
    const started = Date.now();
    const at = await closed;
    expect(at - started).toBeGreaterThanOrEqual(1500);
    // The idle timeout closed the quiet test session too; a new one is answered, and nothing was stored.
    session.close();
    session = await connect();
    expect(answered(await request(session, 'GET', '/health')).status).toBe(200);
    expect(answered(await request(session, 'GET', `${API}/files/h2%2Fstalled.bin`, { headers: auth })).status).toBe(404);
  });

  it('closes a connection to the plain HTTP redirect port that stalls in its headers after the idle timeout', async () => {
    const redirectPort = Number(/HTTP redirect to HTTPS listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(server.output())?.[1]);
    const started = Date.now();
    const closedAt = await new Promise<number>((resolve, reject) => {
      const socket = net.connect(redirectPort, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n'));
      socket.on('close', () => resolve(Date.now()));
      socket.on('error', reject);
    });
    expect(closedAt - started).toBeGreaterThanOrEqual(1500);
  });
});
