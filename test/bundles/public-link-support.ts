import { request as httpRequest } from 'node:http';
import { fromBufferPromise } from 'yauzl';
import type { TestApp } from '../support/test-app.js';

// Talking to the public share-link API as a browser does: no credential, the visit cookie only.

export const PUBLIC = '/api/public/bundles';

export interface Visitor {
  /** `atrium_link=<token>`, once the server set one. */
  cookie?: string;
  /** Sent as X-Forwarded-For (the test app trusts it), to be another client address. */
  address?: string;
}

export interface PublicAnswer {
  status: number;
  headers: Headers;
  body: any;
  bytes: Buffer;
}

/** One request to the public API; a cookie the answer sets is kept on the visitor. */
export async function visit(t: TestApp, visitor: Visitor, method: string, path: string, options: { json?: unknown; raw?: Buffer | string; headers?: Record<string, string> } = {}): Promise<PublicAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (visitor.cookie !== undefined) headers.cookie = visitor.cookie;
  if (visitor.address !== undefined) headers['x-forwarded-for'] = visitor.address;
  let body: string | Buffer | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  } else if (options.raw !== undefined) {
    body = options.raw;
    headers['content-type'] ??= 'application/octet-stream';
  }
  const response = await fetch(t.baseUrl + path, { method, headers, ...(body === undefined ? {} : { body }) });
  const bytes = Buffer.from(await response.arrayBuffer());
  const setCookie = response.headers.get('set-cookie');
  if (setCookie !== null) visitor.cookie = setCookie.split(';')[0];
  const json = (response.headers.get('content-type') ?? '').includes('application/json') && bytes.length > 0 ? JSON.parse(bytes.toString('utf8')) : undefined;
  return { status: response.status, headers: response.headers, body: json, bytes };
}

/** A GET whose path is sent exactly as written (fetch would resolve `..` and `.` before sending). */
export async function rawGet(t: TestApp, path: string, cookie?: string): Promise<{ status: number; body: string }> {
  const answer = await rawSend(t, 'GET', path, { cookie });
  return { status: answer.status, body: answer.bytes.toString('utf8') };
}

/** Any request whose path is sent exactly as written, unresolved and not re-encoded. */
export function rawSend(t: TestApp, method: string, path: string, options: { cookie?: string; body?: string } = {}): Promise<PublicAnswer> {
  const url = new URL(t.baseUrl);
  const headers: Record<string, string> = {};
  if (options.cookie !== undefined) headers.cookie = options.cookie;
  if (options.body !== undefined) headers['content-type'] = 'application/octet-stream';
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ host: url.hostname, port: url.port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const json = (response.headers['content-type'] ?? '').includes('application/json') && bytes.length > 0 ? JSON.parse(bytes.toString('utf8')) : undefined;
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') answerHeaders.set(name, value);
        resolve({ status: response.statusCode ?? 0, headers: answerHeaders, body: json, bytes });
      });
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(options.body);
  });
}

/** The entries of a ZIP: name to contents (folders end in `/` and hold nothing). */
export async function unzip(bytes: Buffer): Promise<Map<string, string>> {
  const zip = await fromBufferPromise(bytes, { lazyEntries: true });
  const found = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry) => {
      if (entry.fileName.endsWith('/')) {
        found.set(entry.fileName, '');
        zip.readEntry();
        return;
      }
      zip.openReadStreamPromise(entry).then((stream) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          found.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
          zip.readEntry();
        });
        stream.on('error', reject);
      }, reject);
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  return found;
}

/** Encodes a link-relative path for a URL: each segment on its own. */
export const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');
