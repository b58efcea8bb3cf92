import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseTargets } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

type Parameter = { $ref?: string; name?: string; in?: string; description?: string };
type Operation = { parameters?: Parameter[]; responses: Record<string, { headers?: Record<string, unknown>; description?: string }>; security?: unknown[] };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { parameters: Record<string, Parameter & { name: string; in: string }>; securitySchemes: Record<string, { description?: string; scheme?: string }>; schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }> };
};

const API = '/api/rest/v1';
/** Atrium's own API for share links' visitors: no credential at all. */
const LINKS = '/api/public/bundles/{code}';
const SSO = '/api/public/sso';
const PUBLIC_ROUTES = new Set([
  `POST ${API}/sessions`, `DELETE ${API}/sessions`, `POST ${API}/sessions/passkey_options`, `GET ${API}/downloads/{token}`, `PUT ${API}/uploads/{token}`,
  `GET ${API}/automations/webhook/{webhookId}/{secret}`, `POST ${API}/automations/webhook/{webhookId}/{secret}`,
  `GET ${LINKS}`, `POST ${LINKS}/visits`, `GET ${LINKS}/entries`, `GET ${LINKS}/files/{path}`, `PUT ${LINKS}/files/{path}`, `DELETE ${LINKS}/files/{path}`,
  `GET ${LINKS}/zip`,
  // The console's sign-in with a provider: before anyone is signed in.
  `GET ${SSO}/providers`, `GET ${SSO}/providers/{provider}/sign_in`, `GET ${SSO}/callback`,
]);
const REAUTHENTICATED_ROUTES = [
  `POST ${API}/api_keys`, `DELETE ${API}/api_keys/{id}`, `DELETE ${API}/api_key`,
  `POST ${API}/public_keys`, `DELETE ${API}/public_keys/{id}`,
  `POST ${API}/2fa/passkeys/options`, `DELETE ${API}/2fa/passkeys/{id}`,
  `PUT ${API}/site`, `PATCH ${API}/site`, `PUT ${API}/users/{id}`, `PATCH ${API}/users/{id}`, `DELETE ${API}/users/{id}`,
  `POST ${API}/users/{id}/2fa/reset`, `POST ${API}/2fa/totp`, `DELETE ${API}/2fa/totp`, `POST ${API}/2fa/recovery_codes`,
  `POST ${API}/sso_providers`, `PUT ${API}/sso_providers/{id}`, `PATCH ${API}/sso_providers/{id}`, `DELETE ${API}/sso_providers/{id}`,
  `POST ${API}/sso_providers/{id}/links`, `DELETE ${API}/sso_providers/{id}/links/{link_id}`,
];

/** A Fastify route path as the document spells it: `:id` is `{id}`, the wildcard is `{path}`. */
function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}').replace(/\/?\*$/, '/{path}');
}

/**
 * `METHOD /path` for every API route the app registered, read from Fastify's own radix tree,
 * one method at a time (the flattened, all-method listings leave some wildcard routes out).
 */
function registeredApiRoutes(app: TestApp['app']): string[] {
  const routes: string[] = [];
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
    const stack: string[] = [];
    for (const line of app.printRoutes({ method }).split('\n')) {
      const match = /^([│ ]*)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line);
      if (match === null) continue;
      const depth = (match[1] as string).length / 4;
      stack.length = depth;
      const path = (stack[depth - 1] ?? '') + (match[2] as string);
      stack.push(path);
      if (match[3] !== undefined) routes.push(`${method} ${openApiPath(path)}`);
    }
  }
  return routes.filter((route) => {
    const path = route.split(' ')[1] ?? '';
    return (path.startsWith(`${API}/`) || path.startsWith('/api/public/')) && !route.includes(`${API}/docs`) && !route.includes(`${API}/openapi`);
  });
}

function operation(document: Document, route: string): Operation {
  const [method, path] = route.split(' ') as [string, string];
  const found = document.paths[path]?.[method.toLowerCase()];
  if (found === undefined) throw new Error(`${route} is not in the document`);
  return found;
}

function headerNames(document: Document, op: Operation): string[] {
  return (op.parameters ?? [])
    .map((p) => (p.$ref === undefined ? p : document.components.parameters[p.$ref.split('/').pop() as string]))
    .filter((p) => p?.in === 'header')
    .map((p) => p?.name as string);
}

// The document describes routes and configuration, not data, so one database is enough.
describe('the OpenAPI document, with both header brands configured', () => {
  let t: TestApp;
  let document: Document;
  beforeAll(async () => {
    t = await startTestApp(testDatabaseTargets()[0]!, { brands: ['Service', 'Files'] });
    document = (await t.api.get(`${API}/openapi.json`)).body as Document;
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3 document', async () => {
    const result = await new Validator().validate(structuredClone(document) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('generates TypeScript types with openapi-typescript', async () => {
    const types = astToString(await openapiTS(structuredClone(document) as never));
    expect(types).toContain('"/api/rest/v1/folders/{path}"');
    expect(types).toMatch(/"X-Files-Workspace-Id"\?: /);
  });

  it('has every route the app registers, with the credential and Workspace headers of every brand', () => {
    const routes = registeredApiRoutes(t.app);
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) {
      const headers = headerNames(document, operation(document, route));
      if (PUBLIC_ROUTES.has(route)) continue;
      expect(headers, route).toEqual(expect.arrayContaining([
        'X-ServiceAPI-Key', 'X-FilesAPI-Key', 'X-ServiceAPI-Auth', 'X-FilesAPI-Auth', 'X-Service-Workspace-Id', 'X-Files-Workspace-Id',
      ]));
    }
    const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect(new Set(documented)).toEqual(new Set(routes));
  });

  it('documents the share-link visitors\' API with no credential', () => {
    for (const route of [...PUBLIC_ROUTES].filter((r) => r.includes(LINKS))) {
      const op = operation(document, route);
      expect(op.security, route).toEqual([]);
      expect(headerNames(document, op), route).toEqual([]);
    }
  });

  it('names the reauthentication header on the routes that ask for it, and only there', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const route = `${method.toUpperCase()} ${path}`;
        const asks = headerNames(document, op).filter((h) => h.endsWith('-Reauthentication'));
        expect(asks, route).toEqual(REAUTHENTICATED_ROUTES.includes(route) ? ['X-Service-Reauthentication', 'X-Files-Reauthentication'] : []);
      }
    }
  });

  it('describes the cursor response headers on listings', () => {
    for (const route of [`GET ${API}/users`, `GET ${API}/folders/{path}`, `GET ${API}/api_keys`]) {
      expect(Object.keys(operation(document, route).responses['200']?.headers ?? {}), route)
        .toEqual(expect.arrayContaining(['X-Service-Cursor', 'X-Files-Cursor', 'X-Service-Cursor-Next', 'X-Files-Cursor-Next']));
    }
    expect(operation(document, `GET ${API}/users/{id}`).responses['200']?.headers).toBeUndefined();
  });

  it('names the wildcard path parameter `path` and explains its encoding', () => {
    expect(Object.keys(document.paths).filter((p) => p.includes('*'))).toEqual([]);
    const parameter = operation(document, `GET ${API}/folders/{path}`).parameters?.find((p) => p.in === 'path');
    expect(parameter?.name).toBe('path');
    expect(parameter?.description).toMatch(/percent-encoded/);
    expect(parameter?.description).toMatch(/Slashes between folders are sent as they are/);
  });

  it('describes Basic authentication as the API key for the user name', () => {
    expect(document.components.securitySchemes.basic?.scheme).toBe('basic');
    expect(document.components.securitySchemes.basic?.description).toContain('curl -u <key>:x');
    expect(operation(document, `POST ${API}/sessions`).security).toEqual([]);
  });

  it('names the session header on logout, which needs no other credential', () => {
    const logout = operation(document, `DELETE ${API}/sessions`);
    expect(headerNames(document, logout)).toEqual(['X-ServiceAPI-Auth', 'X-FilesAPI-Auth']);
    expect(logout.security).toEqual([]);
  });

  it('lists the error types by status', () => {
    const errors = operation(document, `GET ${API}/users`).responses;
    expect(errors['400']?.description).toContain('`bad-request/invalid-cursor`');
    expect(errors['401']?.description).toContain('`not-authenticated/invalid-credentials`');
    expect(errors['403']?.description).toContain('`not-authorized/site-admin-required`');
    expect(errors['404']?.description).toContain('`not-found/user-not-found`');
    expect(errors['500']?.description).toContain('`internal-server-error`');
    expect(errors['4XX']).toBeUndefined();
    expect(document.components.schemas.Error?.properties?.type?.enum).toContain('not-authorized/site-admin-required');
  });
});

describe('the API reference page', () => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(testDatabaseTargets()[0]!); });
  afterAll(() => t.close());

  function expectPageSecurityHeaders(response: { headers: Headers }, what: string): void {
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp, what).toContain("script-src 'self'");
    expect(csp, what).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp, what).toContain("frame-ancestors 'none'");
    expect(response.headers.get('referrer-policy'), what).toBe('no-referrer');
    expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  }

  it('loads without a credential, with every asset from this server and the page security headers', async () => {
    const page = await fetch(`${t.baseUrl}${API}/docs/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expectPageSecurityHeaders(page, 'page');
    const html = await page.text();
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      const response = await fetch(new URL(asset, `${t.baseUrl}${API}/docs/`));
      expect(response.status, asset).toBe(200);
      expectPageSecurityHeaders(response, asset);
      const text = await response.text();
      // The start-up script loads nothing from elsewhere (a comment may still mention a web page).
      const code = text.split('\n').filter((l) => !l.trim().startsWith('//')).join('\n');
      if (asset.endsWith('swagger-initializer.js')) expect(code).not.toMatch(/https?:\/\//);
    }
  });

  it('reads the same document the API serves', async () => {
    const fromReference = await fetch(`${t.baseUrl}${API}/docs/json`).then((r) => r.json());
    const fromApi = (await t.api.get(`${API}/openapi.json`)).body;
    expect(fromReference).toEqual(fromApi);
  });

  it('redirects the bare address to the page', async () => {
    const response = await fetch(`${t.baseUrl}${API}/docs`, { redirect: 'manual' });
    expect([200, 302]).toContain(response.status);
  });
});
