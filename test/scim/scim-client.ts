import type { ApiResponse } from '../support/http-client.js';

/** Real HTTP to /scim/v2 as identity providers speak it: a Bearer token and SCIM JSON. */
export class ScimClient {
  constructor(readonly baseUrl: string, readonly token: string) {}

  as(token: string): ScimClient {
    return new ScimClient(this.baseUrl, token);
  }

  async call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const all: Record<string, string> = { accept: 'application/scim+json', authorization: `Bearer ${this.token}`, ...headers };
    if (body !== undefined && all['content-type'] === undefined) all['content-type'] = 'application/scim+json';
    const response = await fetch(`${this.baseUrl}/scim/v2${path}`, { method, headers: all, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });
    const text = await response.text();
    const parsed: unknown = text === '' ? undefined : JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, headers?: Record<string, string>) { return this.call<T>('GET', path, undefined, headers); }
  post<T = any>(path: string, body: unknown, headers?: Record<string, string>) { return this.call<T>('POST', path, body, headers); }
  put<T = any>(path: string, body: unknown, headers?: Record<string, string>) { return this.call<T>('PUT', path, body, headers); }
  patch<T = any>(path: string, body: unknown, headers?: Record<string, string>) { return this.call<T>('PATCH', path, body, headers); }
  delete<T = any>(path: string, headers?: Record<string, string>) { return this.call<T>('DELETE', path, undefined, headers); }
}

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ATRIUM_USER = 'urn:ietf:params:scim:schemas:extension:atrium:2.0:User';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** A SCIM error answer: RFC 7644 §3.12. */
export function expectScimError(response: ApiResponse, status: number, scimType?: string): void {
  const expected = { schemas: [ERROR_SCHEMA], status: String(status), ...(scimType === undefined ? {} : { scimType }) };
  if (response.status !== status || JSON.stringify({ schemas: response.body?.schemas, status: response.body?.status, ...(scimType === undefined ? {} : { scimType: response.body?.scimType }) }) !== JSON.stringify(expected)) {
    throw new Error(`expected SCIM error ${status} ${scimType ?? ''}, got ${response.status} ${response.text}`);
  }
}

/**
 * The order a list comes back in, as the keys `made` gives the resources (key to id): lists
 * `resource` with `filter` and the rest of the `query`, and asserts the list succeeded.
 */
export async function listedOrder(client: ScimClient, resource: 'Users' | 'Groups', filter: string, made: Record<string, string>, query: string): Promise<string> {
  const response = await client.get(`/${resource}?filter=${encodeURIComponent(filter)}&${query}`);
  if (response.status !== 200) throw new Error(`listing ${resource} with ${query} answered ${response.status} ${response.text}`);
  return response.body.Resources.map((r: { id: string }) => Object.entries(made).find(([, id]) => id === r.id)?.[0]).join('');
}
