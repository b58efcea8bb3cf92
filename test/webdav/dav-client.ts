/** A small WebDAV client over fetch for the tests: any method, Basic credentials, raw answers. */
export interface DavAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export interface DavCall {
  headers?: Record<string, string>;
  body?: string | Buffer | undefined;
  /** Basic credentials: [user, password]; `null` sends none. */
  auth?: [string, string] | null;
}

export class DavClient {
  constructor(readonly baseUrl: string, readonly auth: [string, string]) {}

  /** Another client on the same server with other credentials. */
  as(user: string, password: string): DavClient {
    return new DavClient(this.baseUrl, [user, password]);
  }

  url(path: string): string {
    return `${this.baseUrl}${path.startsWith('/') ? path : `/dav/${path}`}`;
  }

  async call(method: string, path: string, call: DavCall = {}): Promise<DavAnswer> {
    const auth = call.auth === undefined ? this.auth : call.auth;
    const headers: Record<string, string> = { ...call.headers };
    if (auth !== null) headers.Authorization = basic(auth[0], auth[1]);
    const response = await fetch(this.url(path), { method, headers, body: call.body });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  propfind(path: string, depth: '0' | '1' | 'infinity', body?: string): Promise<DavAnswer> {
    return this.call('PROPFIND', path, { headers: { Depth: depth, ...(body === undefined ? {} : { 'Content-Type': 'application/xml' }) }, body });
  }

  put(path: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<DavAnswer> {
    return this.call('PUT', path, { body, headers });
  }

  get(path: string, headers: Record<string, string> = {}): Promise<DavAnswer> {
    return this.call('GET', path, { headers });
  }

  mkcol(path: string): Promise<DavAnswer> {
    return this.call('MKCOL', path);
  }

  delete(path: string): Promise<DavAnswer> {
    return this.call('DELETE', path);
  }

  /** COPY or MOVE to a path on this server (`/dav/...` made absolute) or to any absolute URL. */
  transfer(method: 'COPY' | 'MOVE', from: string, to: string, headers: Record<string, string> = {}): Promise<DavAnswer> {
    const destination = /^https?:/.test(to) ? to : this.url(to);
    return this.call(method, from, { headers: { Destination: destination, ...headers } });
  }
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

/** The hrefs of a multistatus, in order. */
export function hrefsOf(xml: string): string[] {
  return [...xml.matchAll(/<D:href>([^<]*)<\/D:href>/g)].map((m) => m[1] as string);
}

/** The XML of the response whose href is `href` in a multistatus. */
export function responseFor(xml: string, href: string): string | undefined {
  return [...xml.matchAll(/<D:response>[\s\S]*?<\/D:response>/g)].map((m) => m[0]).find((r) => r.includes(`<D:href>${href}</D:href>`));
}

/**
 * A request sent byte for byte as given (fetch would normalize `%2e%2e` away), which resolves
 * with the answer even when the server answers before reading the whole body and closes.
 */
export async function rawRequest(baseUrl: string, options: { method: string; path: string; headers?: Record<string, string>; body?: Buffer | string; auth?: [string, string] }): Promise<{ status: number; text: string }> {
  const { request } = await import('node:http');
  const url = new URL(baseUrl);
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth !== undefined) headers.Authorization = basic(options.auth[0], options.auth[1]);
  if (options.body !== undefined && headers['Content-Length'] === undefined && headers['Transfer-Encoding'] === undefined) headers['Content-Length'] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: options.path, method: options.method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    // The server may answer and close before taking the whole body: the answer is what counts.
    req.on('error', () => undefined);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}
