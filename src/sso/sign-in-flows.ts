import * as oidc from 'openid-client';
import type { Caller } from '../access/index.js';
import type { Db } from '../db/database.js';
import { hashesEqual, hashSecret, newSessionId, type NewSession, type SecretBox } from '../identity/index.js';
import type { Clock } from '../lib/time.js';
import type { Origin } from '../lib/origin.js';
import { activeSessionUser, confirmFlow, type FlowPurpose, findFlowCandidates, insertFlow, pruneFlows, type SsoFlow, useFlow } from '../repositories/sso-flows.js';
import { findLinkBySubject, listLinks } from '../repositories/sso-links.js';
import { findSsoProvider, listSignInChoices, type SsoProvider } from '../repositories/sso-providers.js';
import { OpenIdConnect, type ProviderClient, type ProviderFetch } from './openid.js';
import { secretContext } from './providers.js';
import { SsoRefusal } from './refusal.js';
import { recordRefusedSignIn, signInWithProvider } from './sso-sign-in.js';

/** How long a person has at the provider before the sign-in must start again. */
export const FLOW_LIFETIME_MS = 10 * 60 * 1000;
/** A reauthentication at the provider must be this recent (seconds): the provider is asked for a fresh sign-in. */
const REAUTHENTICATION_MAX_AGE_S = 120;
/** Ended flows removed at each start, at most: the table stays bounded by the flows of the last minutes. */
const PRUNE_BATCH = 100;

/** A page of the console to go back to: a same-site path, never another site's (`//host`, `/\host`) or a scheme. */
export function safeReturnPath(raw: string | undefined): string {
  if (raw === undefined || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\') || raw.length > 2048) return '/files';
  // eslint-disable-next-line no-control-regex -- a path with control characters is not one the console made
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return '/files';
  // Percent-encoded as a URL's path and query are, so that it is a valid Location header.
  const url = new URL(raw, SAME_SITE);
  return url.origin === SAME_SITE ? `${url.pathname}${url.search}${url.hash}` : '/files';
}

const SAME_SITE = 'http://atrium.invalid';

export interface StartedFlow {
  /** Where to send the browser: the provider's authorization endpoint. */
  authorizationUrl: string;
  /** The browser's proof that the callback belongs to this flow: kept in an HttpOnly cookie, only its hash stored. */
  flowSecret: string;
}

export interface FinishedFlow {
  returnTo: string;
  /** A sign-in's new session; none for a reauthentication, whose session is now confirmed. */
  session?: NewSession;
}

/**
 * Sign-in and reauthentication with an OpenID Connect provider, for the console's browser: the
 * start (a flow, a redirect to the provider) and the callback (the code exchanged, the account
 * signed in). One per core: it remembers what the providers' discovery documents said.
 */
export class SingleSignOn {
  private readonly openid: OpenIdConnect;

  constructor(private readonly deps: { db: Db; clock: Clock; secretBox: SecretBox; fetch?: ProviderFetch | undefined }) {
    this.openid = new OpenIdConnect({ clock: deps.clock, fetch: deps.fetch });
  }

  /** The enabled providers the sign-in page offers, by id. */
  async signInChoices(): Promise<{ id: number; label: string }[]> {
    return listSignInChoices(this.deps.db);
  }

  /** GET /api/public/sso/providers/<id>/sign_in: a sign-in begins; `returnTo` is where the console goes after. */
  startSignIn(providerId: number, redirectUri: string, returnTo: string | undefined): Promise<StartedFlow> {
    return this.start(providerId, 'sign_in', null, redirectUri, safeReturnPath(returnTo));
  }

  /**
   * POST /sso_reauthentications: the session's user confirms it is still them by signing in at the
   * provider again (a fresh sign-in is asked for). The user must be linked to an account there.
   */
  async startReauthentication(caller: Caller, providerId: number, redirectUri: string, returnTo: string | undefined): Promise<StartedFlow> {
    const credential = caller.credential;
    if (credential.kind !== 'session' || caller.user === null) throw new SsoRefusal('reauthentication_failed', 'Only a console session is confirmed at a provider.');
    const links = await listLinks(this.deps.db, { providerId, userIds: [caller.user.id] });
    if (links.length === 0) throw new SsoRefusal('reauthentication_failed', 'This user is not linked to an account at that provider.');
    return this.start(providerId, 'reauthenticate', credential.sessionId, redirectUri, safeReturnPath(returnTo));
  }

  private async start(providerId: number, purpose: FlowPurpose, sessionId: number | null, redirectUri: string, returnTo: string): Promise<StartedFlow> {
    const now = this.deps.clock.now();
    const provider = await findSsoProvider(this.deps.db, providerId);
    if (provider === undefined || !provider.enabled) throw new SsoRefusal('unavailable', 'No such sign-in provider, or it is turned off.', returnTo);
    const flowSecret = newSessionId();
    const { lookup, hash } = hashSecret(flowSecret);
    const request = { redirectUri, state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
    let authorizationUrl: string;
    try {
      authorizationUrl = await this.openid.authorizationUrl(this.clientOf(provider), { ...request, freshSignIn: purpose === 'reauthenticate' });
    } catch (error) {
      throw new SsoRefusal('failed', `The provider could not be reached or its discovery document was refused: ${messageOf(error)}`, returnTo);
    }
    // Flows ended a lifetime ago: a reauthentication's confirmation, which lasts minutes, outlives its flow's end.
    await pruneFlows(this.deps.db, now - FLOW_LIFETIME_MS, PRUNE_BATCH);
    await insertFlow(this.deps.db, {
      lookup, secretHash: hash, providerId, purpose, sessionId, ...request, returnTo, expiresAt: now + FLOW_LIFETIME_MS, now,
    });
    return { authorizationUrl, flowSecret };
  }

  /**
   * GET /api/public/sso/callback: the flow this browser started (by its cookie's secret), used once;
   * the provider's answer checked and exchanged (openid.ts); then the sign-in (sso-sign-in.ts) or the
   * session's confirmation. A flow not found, already used or expired is refused without asking the
   * provider, and a used one's second callback (a replayed state) is recorded.
   */
  async finish(flowSecret: string | undefined, callbackQuery: string, origin: Origin, encrypted: boolean): Promise<FinishedFlow> {
    const now = this.deps.clock.now();
    const flow = flowSecret === undefined ? undefined : await this.findFlow(flowSecret);
    if (flow === undefined) throw new SsoRefusal('expired', 'This sign-in was not started in this browser, or has ended.');
    const provider = await findSsoProvider(this.deps.db, flow.providerId);
    const recorded = { provider: provider ?? { id: flow.providerId, label: `provider ${flow.providerId}` }, origin, now };
    if (flow.usedAt !== null || !(await useFlow(this.deps.db, flow.id, now))) {
      await recordRefusedSignIn(this.deps.db, recorded, undefined, 'sso_refused', 'the sign-in\'s state was used already (a replayed callback)');
      throw new SsoRefusal('expired', 'This sign-in was used already.', flow.returnTo);
    }
    if (now >= flow.expiresAt) throw new SsoRefusal('expired', 'This sign-in took too long.', flow.returnTo);
    if (provider === undefined || !provider.enabled) throw new SsoRefusal('unavailable', 'The sign-in provider is gone or turned off.', flow.returnTo);

    const wanted = [provider.usernameClaim, 'email', 'name', ...(provider.groupClaim === null ? [] : [provider.groupClaim])];
    const maxAge = flow.purpose === 'reauthenticate' ? REAUTHENTICATION_MAX_AGE_S : undefined;
    let account;
    try {
      account = await this.openid.exchange(this.clientOf(provider), flow, callbackQuery, maxAge, wanted);
    } catch (error) {
      await recordRefusedSignIn(this.deps.db, recorded, undefined, 'sso_refused', `the provider's answer was refused: ${messageOf(error)}`);
      throw new SsoRefusal('failed', `The provider's answer was refused: ${messageOf(error)}`, flow.returnTo);
    }

    if (flow.purpose === 'reauthenticate') {
      const link = await findLinkBySubject(this.deps.db, account.issuer, account.subject);
      const sessionUser = flow.sessionId === null ? undefined : await activeSessionUser(this.deps.db, flow.sessionId);
      if (link === undefined || sessionUser === undefined || link.userId !== sessionUser) {
        await recordRefusedSignIn(this.deps.db, recorded, undefined, 'sso_refused', 'a reauthentication signed in another account, or its session has ended', { issuer: account.issuer, subject: account.subject });
        throw new SsoRefusal('reauthentication_failed', 'The provider signed in someone else, or the session has ended.', flow.returnTo);
      }
      await confirmFlow(this.deps.db, flow.id, now);
      return { returnTo: flow.returnTo };
    }
    try {
      const session = await signInWithProvider(this.deps.db, { provider, account, origin, encrypted, now });
      return { returnTo: flow.returnTo, session };
    } catch (error) {
      if (error instanceof SsoRefusal) throw new SsoRefusal(error.code, error.message, flow.returnTo);
      throw error;
    }
  }

  private async findFlow(secret: string): Promise<SsoFlow | undefined> {
    const { lookup, hash } = hashSecret(secret);
    return (await findFlowCandidates(this.deps.db, lookup)).find((candidate) => hashesEqual(candidate.secretHash, hash));
  }

  private clientOf(provider: SsoProvider): ProviderClient {
    return {
      issuerUrl: provider.issuerUrl,
      clientId: provider.clientId,
      clientSecret: provider.clientSecretSealed === null ? null : this.deps.secretBox.open(provider.clientSecretSealed, secretContext(provider.id)),
      scopes: provider.scopes,
    };
  }
}

/** What went wrong, for the log and History: openid-client's words, and the check's own (its cause) when it has one. Never a token. */
function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const cause = error.cause instanceof Error && error.cause.message !== error.message ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`.slice(0, 300);
}
