import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIN, startConsoleServer, type ConsoleServer } from './console-server.js';

const databases = inject('postgresMode') === 'server' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

async function signIn(server: ConsoleServer, headers: Record<string, string> = { 'X-Atrium-Console': '1' }) {
  return fetch(`${server.baseUrl}/api/rest/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(ADMIN),
  });
}

/** A JSON body, loosely typed for assertions. */
const json = (response: Response): Promise<any> => response.json();

function cookieOf(response: Response): string {
  return (response.headers.get('set-cookie') ?? '').split(';')[0] as string;
}

describe.each(databases)('the web console over HTTP [%s]', (database) => {
  let server: ConsoleServer;
  beforeAll(async () => { server = await startConsoleServer(database); });
  afterAll(async () => server?.stop());

  it('serves the console at / and on its own addresses, with the security headers', async () => {
    for (const url of ['/', '/files/Reports/2026', '/sign-in?next=%2Ffiles']) {
      const response = await fetch(`${server.baseUrl}${url}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const html = await response.text();
      expect(html).toContain('<div id="root">');
      // Every script is a file of Atrium's own: nothing inline, nothing from another site.
      expect(html).not.toMatch(/<script(?![^>]*\ssrc="\/assets\/)[^>]*>/);
      expect(html).not.toMatch(/https?:\/\//);
    }
  });

  it('serves the built scripts with a long cache and never answers an API path with the page', async () => {
    const html = await (await fetch(`${server.baseUrl}/`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1] as string;
    const asset = await fetch(`${server.baseUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const api = await fetch(`${server.baseUrl}/api/rest/v1/no-such-resource`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await json(api)).type).toBe('not-found');
  });

  it('signs the console in with an HttpOnly, SameSite=Strict cookie and no id in the body', async () => {
    const response = await signIn(server);
    expect(response.status).toBe(201);
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^atrium_session=[0-9a-f]{64}; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/api/rest/v1');
    expect(setCookie).not.toContain('Secure'); // plain HTTP here; HTTPS adds it
    const body = await response.json();
    expect(body).toMatchObject({ id: '', username: ADMIN.username, workspace_id: 0 });
  });

  it('keeps answering other clients with the session id and no cookie', async () => {
    const response = await signIn(server, {});
    expect(response.headers.get('set-cookie')).toBeNull();
    expect((await json(response)).id).toMatch(/^[0-9a-f]{64}$/);
  });

  it('honours the cookie only with the console header: a cross-site form post cannot act', async () => {
    const cookie = cookieOf(await signIn(server));
    const withHeader = await fetch(`${server.baseUrl}/api/rest/v1/folders/`, { headers: { cookie, 'X-Atrium-Console': '1' } });
    expect(withHeader.status).toBe(200);

    // What a form on another site sends: the cookie (were the browser to attach it), a form body, no custom header.
    const forged = await fetch(`${server.baseUrl}/api/rest/v1/folders/Forged`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: 'http://attacker.example' },
      body: 'mkdir_parents=true',
    });
    expect(forged.status).toBe(401);
    expect((await json(forged)).type).toBe('not-authenticated/authentication-required');
    const header = { 'X-Atrium-Console': '1' };
    const listing = await json(await fetch(`${server.baseUrl}/api/rest/v1/folders/`, { headers: { cookie, ...header } }));
    expect(listing.map((e: any) => e.path)).not.toContain('Forged');

    // A script on another site must ask first to add the header; the preflight is never approved.
    const preflight = await fetch(`${server.baseUrl}/api/rest/v1/folders/Forged`, {
      method: 'OPTIONS',
      headers: { origin: 'http://attacker.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-atrium-console' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
  });

  it('ignores a cookie that does not look like a session id, and refuses an unknown one', async () => {
    const odd = await fetch(`${server.baseUrl}/api/rest/v1/folders/`, { headers: { cookie: 'atrium_session=%3Cscript%3E', 'X-Atrium-Console': '1' } });
    expect((await json(odd)).type).toBe('not-authenticated/authentication-required');
    const unknown = await fetch(`${server.baseUrl}/api/rest/v1/folders/`, { headers: { cookie: `atrium_session=${'0'.repeat(64)}`, 'X-Atrium-Console': '1' } });
    expect(unknown.status).toBe(401);
    expect((await json(unknown)).type).toBe('not-authenticated/invalid-credentials');
  });

  it('signs out with DELETE /sessions: the session ends and the cookie is removed', async () => {
    const cookie = cookieOf(await signIn(server));
    const headers = { cookie, 'X-Atrium-Console': '1' };
    const out = await fetch(`${server.baseUrl}/api/rest/v1/sessions`, { method: 'DELETE', headers });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^atrium_session=; .*Max-Age=0/);
    const after = await fetch(`${server.baseUrl}/api/rest/v1/folders/`, { headers });
    expect(after.status).toBe(401);
    expect((await json(after)).type).toBe('not-authenticated/invalid-session');
  });

  it('asks for reauthentication under the cookie as under any session', async () => {
    const cookie = cookieOf(await signIn(server));
    const response = await fetch(`${server.baseUrl}/api/rest/v1/api_keys`, {
      method: 'POST',
      headers: { cookie, 'X-Atrium-Console': '1', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'needs the password first' }),
    });
    expect(response.status).toBe(403);
    expect((await json(response)).type).toBe('not-authorized/reauthentication-needed-action');
  });
});
