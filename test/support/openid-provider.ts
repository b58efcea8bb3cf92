import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import type { ProviderFetch } from '../../src/sso/index.js';
import { makeTestCertificateAuthority, type TestCertificateAuthority } from './tls-certificates.js';

/** The claims an account at the test provider carries; `sub` is the account's id. */
export type AccountClaims = Record<string, unknown>;

export interface TestOpenIdProvider {
  /** `https://127.0.0.1:<port>`: what Atrium's provider configuration names as issuer_url. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  ca: TestCertificateAuthority;
  /** A fetch that trusts the test CA, for an Atrium core in this process (createCore's identityProviderFetch). */
  fetch: ProviderFetch;
  /** Sets (or replaces) an account's claims: the next sign-in sees them. */
  setAccount(accountId: string, claims: AccountClaims): void;
  /** The ID tokens issued from now on name this audience instead of the client (a token meant for another client), until set back to undefined. */
  tamper: { audience: string | undefined };
  /**
   * Signs `accountId` in at the provider as a browser would, from the authorization URL Atrium sent
   * the browser to, with the provider's own forms (its development sign-in pages), and answers the
   * URL the provider sends the browser back to (Atrium's callback, with code and state).
   */
  signIn(authorizationUrl: string, accountId: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Runs `make` with oidc-provider's start-up warnings silenced: they say that it runs on Node.js 20
 * (it asks for 22; it works on 20, which CI runs), and that its development in-memory storage and
 * sign-in pages are on, which is what a test wants.
 */
/* eslint-disable no-console -- the warnings it silences are oidc-provider's own console lines */
function quietly<T>(make: () => T): T {
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    const made = make();
    if (made instanceof Promise) return made.finally(() => { console.warn = warn; }) as T;
    console.warn = warn;
    return made;
  } catch (error) {
    console.warn = warn;
    throw error;
  }
}
/* eslint-enable no-console */

/** ID tokens last a minute: a test moves Atrium's clock past that instead of waiting. */
export const ID_TOKEN_SECONDS = 60;

/**
 * A real OpenID provider (panva's oidc-provider) on loopback over HTTPS, with a certificate of a
 * throwaway CA in `dir`: Atrium reaches it as it reaches any provider, and openid-client's checks
 * all apply. One confidential client (`atrium`) whose redirect URIs are `redirectUris`; consent
 * is implied (the test's accounts agree to everything), so a sign-in is the login form alone.
 * `authority`: a CA made beforehand (a server process told to trust it before the provider starts).
 */
export async function startOpenIdProvider(dir: string, redirectUris: readonly string[], authority?: TestCertificateAuthority): Promise<TestOpenIdProvider> {
  const ca = authority ?? makeTestCertificateAuthority(dir);
  const certificate = ca.issue('openid-provider');
  const accounts = new Map<string, AccountClaims>();
  let handler: (request: unknown, response: unknown) => void = () => undefined;
  const server = https.createServer({ cert: fs.readFileSync(certificate.chainFile), key: fs.readFileSync(certificate.keyFile) }, (request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'atrium';
  const clientSecret = randomBytes(24).toString('hex');
  const signingKey = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const tamper: { audience: string | undefined } = { audience: undefined };

  const Provider = await quietly(async () => (await import('oidc-provider')).default);
  const provider = quietly(() => new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [...redirectUris], grant_types: ['authorization_code'], response_types: ['code'] }],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'email', 'groups'],
    ttl: { IdToken: ID_TOKEN_SECONDS, AccessToken: 600, Interaction: 600, Grant: 600, Session: 600 },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: unknown, id: string) {
      const claims = accounts.get(id);
      if (claims === undefined) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...claims }) };
    },
    // The test's accounts have agreed to everything the client asks: no consent page.
    async loadExistingGrant(ctx: any) {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId !== undefined) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid profile email groups');
      await grant.save();
      return grant;
    },
  }));
  provider.proxy = false;
  // A token meant for another client, signed by the provider all the same: Atrium must refuse its audience.
  const issue = provider.IdToken.prototype.issue;
  provider.IdToken.prototype.issue = function issueFor(this: { client: object }, options: unknown) {
    if (tamper.audience !== undefined) this.client = Object.create(this.client, { clientId: { value: tamper.audience } });
    return issue.call(this, options);
  };
  handler = provider.callback();

  const agent = new Agent({ connect: { ca: ca.ca } });
  const trustingFetch: ProviderFetch = (url, options) => undiciFetch(url, { ...(options as object), dispatcher: agent }) as unknown as Promise<Response>;

  return {
    issuer,
    clientId,
    clientSecret,
    ca,
    fetch: trustingFetch,
    tamper,
    setAccount(accountId, claims) {
      accounts.set(accountId, claims);
    },
    async signIn(authorizationUrl, accountId) {
      const jar = new Map<string, string>();
      const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
      const step = async (url: string, init: { method?: string; body?: string } = {}) => {
        const response = await undiciFetch(url, {
          method: init.method ?? 'GET', redirect: 'manual', dispatcher: agent,
          headers: { cookie: cookieHeader(), ...(init.body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
          ...(init.body === undefined ? {} : { body: init.body }),
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const equals = (pair as string).indexOf('=');
          jar.set((pair as string).slice(0, equals), (pair as string).slice(equals + 1));
        }
        await response.text();
        const location = response.headers.get('location');
        if (location === null) throw new Error(`the provider answered ${response.status} without a redirect at ${url}`);
        return new URL(location, url).href;
      };
      let next = await step(authorizationUrl);
      for (let hops = 0; hops < 6; hops += 1) {
        if (!next.startsWith(issuer)) return next;
        if (new URL(next).pathname.startsWith('/interaction/')) {
          next = await step(next, { method: 'POST', body: new URLSearchParams({ prompt: 'login', login: accountId, password: 'any' }).toString() });
        } else {
          next = await step(next);
        }
      }
      throw new Error('the provider did not send the browser back');
    },
    async close() {
      await agent.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
