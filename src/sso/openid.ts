import * as oidc from 'openid-client';
import type { Clock } from '../lib/time.js';

/** How Atrium reaches identity providers: the platform's fetch, or one a test gives that trusts its own certificate authority. */
export type ProviderFetch = oidc.CustomFetch;

/** What a provider's discovery document tells is kept this long, then asked again (its signing keys are re-read by openid-client when an unknown key appears). */
const DISCOVERY_TTL_MS = 10 * 60 * 1000;
/** Seconds a request to a provider may take. */
const REQUEST_TIMEOUT_S = 10;

export interface ProviderClient {
  issuerUrl: string;
  clientId: string;
  /** Null for a public client: PKCE alone, no client authentication. */
  clientSecret: string | null;
  scopes: string;
}

/** An account the provider vouched for, with the claims its ID token (and, where needed, its UserInfo) carried. */
export interface VerifiedAccount {
  issuer: string;
  subject: string;
  claims: Record<string, unknown>;
}

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Ask the provider to sign the person in again, whatever session it holds (a reauthentication). */
  freshSignIn: boolean;
}

interface Discovered {
  metadata: oidc.ServerMetadata;
  fetchedAt: number;
  jwks: oidc.ExportedJWKSCache | undefined;
}

/**
 * OpenID Connect with openid-client: the authorization request (state, nonce and PKCE), the code
 * exchange, and the ID token's checks, every one of openid-client's kept: the signature against
 * the provider's keys, the issuer, the audience (this client), the expiry, the nonce, and the
 * authentication's age for a reauthentication. Only HTTPS issuers are reached: nothing here turns
 * openid-client's refusal of plain HTTP off.
 *
 * The time is Atrium's clock (a test's moved by hand): openid-client's own sense of now is set
 * from it for each exchange, as the difference between the two.
 */
export class OpenIdConnect {
  private readonly discovered = new Map<string, Discovered>();

  constructor(private readonly options: { clock: Clock; fetch?: ProviderFetch | undefined }) {}

  async authorizationUrl(client: ProviderClient, request: AuthorizationRequest): Promise<string> {
    const { config } = await this.configuration(client);
    const parameters: Record<string, string> = {
      redirect_uri: request.redirectUri,
      scope: client.scopes,
      state: request.state,
      nonce: request.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(request.codeVerifier),
      code_challenge_method: 'S256',
      ...(request.freshSignIn ? { prompt: 'login', max_age: '0' } : {}),
    };
    return oidc.buildAuthorizationUrl(config, parameters).href;
  }

  /**
   * The account the callback's code stands for, after every check. `callbackQuery` is the query
   * string the provider sent the browser back with; `maxAgeSeconds`, for a reauthentication, how
   * long ago the person may have signed in at the provider.
   */
  async exchange(client: ProviderClient, request: Omit<AuthorizationRequest, 'freshSignIn'>, callbackQuery: string, maxAgeSeconds: number | undefined, wantedClaims: readonly string[]): Promise<VerifiedAccount> {
    const { config, discovered } = await this.configuration(client);
    const currentUrl = new URL(request.redirectUri);
    currentUrl.search = callbackQuery;
    const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: request.codeVerifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
      idTokenExpected: true,
      ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
    });
    discovered.jwks = oidc.getJwksCache(config);
    const idToken = tokens.claims();
    if (idToken === undefined) throw new Error('the provider sent no ID token');
    let claims: Record<string, unknown> = { ...idToken };
    // Many providers put only the subject in the ID token and the rest in UserInfo: asked only
    // when a claim Atrium reads is missing, and only for this subject (openid-client checks it).
    const missing = wantedClaims.some((name) => claims[name] === undefined);
    if (missing && config.serverMetadata().userinfo_endpoint !== undefined) {
      const userInfo = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
      claims = { ...userInfo, ...idToken };
    }
    return { issuer: idToken.iss, subject: idToken.sub, claims };
  }

  private async configuration(client: ProviderClient): Promise<{ config: oidc.Configuration; discovered: Discovered }> {
    const now = this.options.clock.now();
    const metadata = { client_secret: client.clientSecret ?? undefined, [oidc.clockSkew]: Math.round((now - Date.now()) / 1000) };
    const authentication = client.clientSecret === null ? oidc.None() : undefined;
    let discovered = this.discovered.get(client.issuerUrl);
    if (discovered === undefined || now - discovered.fetchedAt > DISCOVERY_TTL_MS || now < discovered.fetchedAt) {
      const found = await oidc.discovery(new URL(client.issuerUrl), client.clientId, metadata, authentication, {
        timeout: REQUEST_TIMEOUT_S,
        ...(this.options.fetch === undefined ? {} : { [oidc.customFetch]: this.options.fetch }),
      });
      discovered = { metadata: { ...found.serverMetadata() }, fetchedAt: now, jwks: discovered?.jwks };
      this.discovered.set(client.issuerUrl, discovered);
    }
    const config = new oidc.Configuration(discovered.metadata, client.clientId, metadata, authentication);
    config.timeout = REQUEST_TIMEOUT_S;
    if (this.options.fetch !== undefined) config[oidc.customFetch] = this.options.fetch;
    if (discovered.jwks !== undefined) oidc.setJwksCache(config, discovered.jwks);
    return { config, discovered };
  }
}
