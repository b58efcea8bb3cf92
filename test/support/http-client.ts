export interface CallOptions {
  key?: string;
  session?: string;
  workspace?: number | string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Raw body text, sent as is (for malformed-input tests). */
  rawBody?: string;
  /** `manual`: a redirect is answered as it came, not followed (the browser endpoints of single sign-on). */
  redirect?: 'manual';
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * A small client that talks real HTTP to a listening Atrium, with the header brand the test
 * app was configured with.
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly brand = 'Service',
  ) {}

  async call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.key !== undefined) headers[`X-${this.brand}API-Key`] = options.key;
    if (options.session !== undefined) headers[`X-${this.brand}API-Auth`] = options.session;
    if (options.workspace !== undefined) headers[`X-${this.brand}-Workspace-Id`] = String(options.workspace);
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
    const url = path.startsWith('/') && !path.startsWith('/api/') && path !== '/health' ? `/api/rest/v1${path}` : path;
    const response = await fetch(this.baseUrl + url, { method, headers, ...(body === undefined ? {} : { body }), ...(options.redirect === undefined ? {} : { redirect: options.redirect }) });
    const text = await response.text();
    let parsed: unknown = undefined;
    if ((response.headers.get('content-type') ?? '').includes('application/json') && text !== '') parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, options?: CallOptions) { return this.call<T>('GET', path, options); }
  post<T = any>(path: string, body: unknown, options: CallOptions = {}) { return this.call<T>('POST', path, { ...options, body }); }
  patch<T = any>(path: string, body: unknown, options: CallOptions = {}) { return this.call<T>('PATCH', path, { ...options, body }); }
  put<T = any>(path: string, body: unknown, options: CallOptions = {}) { return this.call<T>('PUT', path, { ...options, body }); }
  delete<T = any>(path: string, options?: CallOptions) { return this.call<T>('DELETE', path, options); }
}
