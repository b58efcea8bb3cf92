import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { errors } from '../../errors/catalogue.js';
import { definedOnly } from '../../lib/defined-only.js';
import { isoTime } from '../../lib/time.js';
import {
  createProvider, DEFAULT_SCOPES, DEFAULT_USERNAME_CLAIM, deleteProvider, getProvider, linkAccount, listProviderLinks, listProviders, type SsoLink,
  type SsoProviderInput, type SsoProviderView, SsoRefusal, strategyProviderOf, unlinkAccount, updateProvider,
} from '../../sso/index.js';
import { callOf, confirmIdentity } from '../call.js';
import type { ApiInstance } from '../fastify-types.js';
import { asksForReauthentication } from '../openapi/route-markers.js';
import { paginationQuery, readPage, sendPage } from '../pagination.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses, IdParams, RecordId } from '../schemas.js';
import { UPDATE_METHODS } from '../update-methods.js';
import { setFlowCookie, SSO_CALLBACK_PATH, ssoRedirectUri } from './sso-sign-in.js';

// /sso_providers (docs/authentication.md#single-sign-on-openid-connect): Atrium's configuration of
// OpenID Connect providers, Site Administrators only; /sso_strategies: the same providers as the
// Files.com SDKs' read-only SsoStrategy; POST /sso_reauthentications: a console session confirmed
// at its provider. Every decision is the sso feature's.

const NoContent = { 204: Type.Null({ description: 'No content' }) };

const GroupMappingBody = Type.Object({
  claim_value: Type.String({ maxLength: 1024, description: 'a value of the group claim, as the provider sends it' }),
  group_id: RecordId({ minimum: 1, description: 'the Atrium group (of the provider\'s Workspace) it stands for' }),
});

const ProviderBody = Type.Object({
  id: Type.Integer(),
  label: Type.String({ description: 'shown on the sign-in page: "Sign in with <label>"' }),
  issuer_url: Type.String({ description: 'the provider\'s issuer, exactly as its discovery document names it (https only)' }),
  client_id: Type.String(),
  client_secret_set: Type.Boolean({ description: 'whether a client secret is kept (it is write-only: never shown)' }),
  scopes: Type.String({ description: 'space-separated; openid always among them' }),
  username_claim: Type.String({ description: 'the claim read as the user name of a new user; when the account has none, email is read' }),
  group_claim: Type.Union([Type.String(), Type.Null()], { description: 'the claim that lists the account\'s groups; null for none' }),
  group_mappings: Type.Array(GroupMappingBody),
  provision_users: Type.Boolean({ description: 'make an Atrium user at an account\'s first sign-in (just-in-time)' }),
  workspace_id: Type.Integer({ description: 'the Workspace users made at sign-in land in; mapped groups are its groups' }),
  enabled: Type.Boolean(),
  display_on_login_page: Type.Boolean(),
  redirect_uri: Type.String({ description: 'read-only: the address to register at the provider as this client\'s redirect URI' }),
  provider: Type.Union([Type.String(), Type.Null()], { description: 'read-only: the kind of provider, guessed from the issuer\'s host (Files.com\'s SsoStrategy.provider)' }),
  user_count: Type.Integer({ description: 'read-only: users who sign in with this provider alone' }),
  created_at: Type.String(),
  updated_at: Type.String(),
});

const ProviderFields = {
  label: Type.String({ maxLength: 1024 }),
  issuer_url: Type.String({ maxLength: 4096 }),
  client_id: Type.String({ maxLength: 4096 }),
  client_secret: Type.Union([Type.String({ maxLength: 8192 }), Type.Null()], { description: 'write-only; null or "" for none (a public client: PKCE alone)' }),
  scopes: Type.String({ maxLength: 4096, description: `default "${DEFAULT_SCOPES}"` }),
  username_claim: Type.String({ maxLength: 1024, description: `default "${DEFAULT_USERNAME_CLAIM}"` }),
  group_claim: Type.Union([Type.String({ maxLength: 1024 }), Type.Null()]),
  group_mappings: Type.Array(GroupMappingBody, { maxItems: 1000 }),
  provision_users: Type.Boolean(),
  workspace_id: RecordId(),
  enabled: Type.Boolean(),
  display_on_login_page: Type.Boolean(),
};

type ProviderFieldsInput = { label?: string; issuer_url?: string; client_id?: string; client_secret?: string | null; scopes?: string; username_claim?: string;
  group_claim?: string | null; group_mappings?: { claim_value: string; group_id: number }[]; provision_users?: boolean; workspace_id?: number; enabled?: boolean;
  display_on_login_page?: boolean };

function providerInput(body: ProviderFieldsInput): SsoProviderInput {
  return definedOnly({
    label: body.label, issuerUrl: body.issuer_url, clientId: body.client_id, clientSecret: body.client_secret, scopes: body.scopes,
    usernameClaim: body.username_claim, groupClaim: body.group_claim,
    groupMappings: body.group_mappings?.map((m) => ({ claimValue: m.claim_value, groupId: m.group_id })),
    provisionUsers: body.provision_users, workspaceId: body.workspace_id, enabled: body.enabled, displayOnLoginPage: body.display_on_login_page,
  });
}

function providerBody(request: FastifyRequest, { provider, userCount }: SsoProviderView) {
  return {
    id: provider.id,
    label: provider.label,
    issuer_url: provider.issuerUrl,
    client_id: provider.clientId,
    client_secret_set: provider.clientSecretSealed !== null,
    scopes: provider.scopes,
    username_claim: provider.usernameClaim,
    group_claim: provider.groupClaim,
    group_mappings: provider.groupMappings.map((m) => ({ claim_value: m.claimValue, group_id: m.groupId })),
    provision_users: provider.provisionUsers,
    workspace_id: provider.workspaceId,
    enabled: provider.enabled,
    display_on_login_page: provider.displayOnLoginPage,
    redirect_uri: ssoRedirectUri(request),
    provider: strategyProviderOf(provider.issuerUrl),
    user_count: userCount,
    created_at: isoTime(provider.createdAt),
    updated_at: isoTime(provider.updatedAt),
  };
}

const LinkBody = Type.Object({
  id: Type.Integer(),
  sso_provider_id: Type.Integer(),
  user_id: Type.Integer(),
  username: Type.String(),
  issuer: Type.String({ description: 'the issuer the account belongs to' }),
  subject: Type.String({ description: 'the account\'s sub claim at the issuer' }),
  created_at: Type.String(),
  last_sign_in_at: Type.Union([Type.String(), Type.Null()]),
});

function linkBody(link: SsoLink) {
  return {
    id: link.id, sso_provider_id: link.providerId, user_id: link.userId, username: link.username, issuer: link.issuer, subject: link.subject,
    created_at: isoTime(link.createdAt), last_sign_in_at: isoTime(link.lastSignInAt),
  };
}

/** Files.com's SsoStrategy, every field: an OpenID Connect provider is `oauth2`; what OIDC has no use for is null or false. */
const StrategyBody = Type.Object({
  id: Type.Integer(),
  protocol: Type.String({ description: 'always oauth2 (OpenID Connect)' }),
  provider: Type.Union([Type.String(), Type.Null()]),
  label: Type.String(),
  logo_url: Type.Null(),
  enabled: Type.Boolean(),
  user_count: Type.Integer(),
  display_on_login_page: Type.Boolean(),
  provision_users: Type.Boolean({ description: 'users are made at their first sign-in' }),
  provision_groups: Type.Boolean({ description: 'the mapped groups follow the group claim at each sign-in' }),
  deprovision_users: Type.Boolean(),
  deprovision_groups: Type.Boolean(),
  deprovision_behavior: Type.Null(),
  subdomain: Type.Null(),
  provider_identifier: Type.Null(),
  saml_provider_cert_fingerprint: Type.Null(), saml_provider_issuer_url: Type.Null(), saml_provider_metadata_content: Type.Null(), saml_provider_metadata_url: Type.Null(),
  saml_provider_slo_target_url: Type.Null(), saml_provider_sso_target_url: Type.Null(),
  scim_authentication_method: Type.Null(), scim_username: Type.Null(), scim_oauth_access_token: Type.Null(), scim_oauth_access_token_expires_at: Type.Null(),
  provision_group_default: Type.Null(), provision_group_exclusion: Type.Null(), provision_group_inclusion: Type.Null(), provision_group_required: Type.Null(),
  provision_email_signup_groups: Type.Null(), provision_readonly_site_admin_groups: Type.Null(), provision_site_admin_groups: Type.Null(), provision_group_admin_groups: Type.Null(),
  provision_attachments_permission: Type.Boolean(), provision_dav_permission: Type.Boolean(), provision_ftp_permission: Type.Boolean(), provision_sftp_permission: Type.Boolean(),
  provision_time_zone: Type.Null(), provision_company: Type.Null(), provision_require_2fa: Type.Null(), provision_filesystem_layout: Type.Null(),
  ldap_base_dn: Type.Null(), ldap_domain: Type.Null(), ldap_host: Type.Null(), ldap_host_2: Type.Null(), ldap_host_3: Type.Null(), ldap_port: Type.Null(),
  ldap_secure: Type.Boolean(), ldap_username: Type.Null(), ldap_username_field: Type.Null(),
});

function strategyBody({ provider, userCount }: SsoProviderView) {
  return {
    id: provider.id, protocol: 'oauth2', provider: strategyProviderOf(provider.issuerUrl), label: provider.label, logo_url: null, enabled: provider.enabled,
    user_count: userCount, display_on_login_page: provider.displayOnLoginPage, provision_users: provider.provisionUsers,
    provision_groups: provider.groupClaim !== null && provider.groupMappings.length > 0,
    // Mapped groups a claim no longer carries are left at the next sign-in; no user is removed or disabled.
    deprovision_users: false, deprovision_groups: provider.groupClaim !== null && provider.groupMappings.length > 0, deprovision_behavior: null,
    subdomain: null, provider_identifier: null,
    saml_provider_cert_fingerprint: null, saml_provider_issuer_url: null, saml_provider_metadata_content: null, saml_provider_metadata_url: null,
    saml_provider_slo_target_url: null, saml_provider_sso_target_url: null,
    scim_authentication_method: null, scim_username: null, scim_oauth_access_token: null, scim_oauth_access_token_expires_at: null,
    provision_group_default: null, provision_group_exclusion: null, provision_group_inclusion: null, provision_group_required: null,
    provision_email_signup_groups: null, provision_readonly_site_admin_groups: null, provision_site_admin_groups: null, provision_group_admin_groups: null,
    // Users made at sign-in get the doors every new user gets.
    provision_attachments_permission: false, provision_dav_permission: true, provision_ftp_permission: true, provision_sftp_permission: true,
    provision_time_zone: null, provision_company: null, provision_require_2fa: null, provision_filesystem_layout: null,
    ldap_base_dn: null, ldap_domain: null, ldap_host: null, ldap_host_2: null, ldap_host_3: null, ldap_port: null, ldap_secure: false, ldap_username: null, ldap_username_field: null,
  };
}

const LinkParams = Type.Object({ id: RecordId(), link_id: RecordId() });

export function ssoProviderRoutes(app: ApiInstance, deps: RouteDeps): void {
  app.get('/sso_providers', {
    schema: { summary: 'List the OpenID Connect sign-in providers (Site Administrators)', querystring: Type.Object({ ...paginationQuery }), response: { 200: Type.Array(ProviderBody), ...errorResponses } },
  }, async (request, reply) => {
    const page = readPage<number>('sso_providers', request.query, 'id');
    const views = (await listProviders(callOf(request, deps))).filter((v) => page.after === undefined || v.provider.id > page.after);
    return sendPage(reply, deps.headers, 'sso_providers', views, page.limit, (v) => v.provider.id).map((v) => providerBody(request, v));
  });

  app.post('/sso_providers', {
    schema: {
      ...asksForReauthentication,
      summary: 'Add an OpenID Connect sign-in provider (Site Administrators)',
      description: `Register \`<this server>${SSO_CALLBACK_PATH}\` at the provider as the client's redirect URI (the answer's \`redirect_uri\`).`,
      body: Type.Object({ ...Type.Partial(Type.Object(ProviderFields)).properties, label: ProviderFields.label, issuer_url: ProviderFields.issuer_url, client_id: ProviderFields.client_id }),
      response: { 201: ProviderBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const a = callOf(request, deps);
    const created = await createProvider(a, providerInput(request.body), deps.secretBox, confirmIdentity(request, deps, a));
    return reply.code(201).send(providerBody(request, created));
  });

  app.get('/sso_providers/:id', {
    schema: { summary: 'Show a sign-in provider', params: IdParams, response: { 200: ProviderBody, ...errorResponses } },
  }, async (request) => providerBody(request, await getProvider(callOf(request, deps), request.params.id)));

  app.route({
    method: UPDATE_METHODS,
    url: '/sso_providers/:id',
    schema: {
      ...asksForReauthentication,
      summary: 'Change a sign-in provider (partial update); a client_secret not sent stays',
      params: IdParams,
      body: Type.Partial(Type.Object(ProviderFields)),
      response: { 200: ProviderBody, ...errorResponses },
    },
    handler: async (request) => {
      const a = callOf(request, deps);
      return providerBody(request, await updateProvider(a, request.params.id, providerInput(request.body), deps.secretBox, confirmIdentity(request, deps, a)));
    },
  });

  app.delete('/sso_providers/:id', {
    schema: {
      ...asksForReauthentication,
      summary: 'Remove a sign-in provider and its links; refused while users sign in with it alone',
      params: IdParams, body: Type.Unknown({ description: 'Ignored.' }), response: { ...NoContent, ...errorResponses },
    },
  }, async (request, reply) => {
    const a = callOf(request, deps);
    await deleteProvider(a, request.params.id, confirmIdentity(request, deps, a));
    return reply.code(204).send(null);
  });

  app.get('/sso_providers/:id/links', {
    schema: { summary: 'Which Atrium users which accounts at the provider are', params: IdParams, response: { 200: Type.Array(LinkBody), ...errorResponses } },
  }, async (request) => (await listProviderLinks(callOf(request, deps), request.params.id)).map(linkBody));

  app.post('/sso_providers/:id/links', {
    schema: {
      ...asksForReauthentication,
      summary: 'Link an account at the provider (its sub) to an Atrium user, who may then sign in with it',
      params: IdParams,
      body: Type.Object({ user_id: RecordId({ minimum: 1 }), subject: Type.String({ maxLength: 1024, description: 'the account\'s sub claim (History\'s record of its refused sign-in names it)' }) }),
      response: { 201: LinkBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const a = callOf(request, deps);
    const link = await linkAccount(a, request.params.id, { userId: request.body.user_id, subject: request.body.subject }, confirmIdentity(request, deps, a));
    return reply.code(201).send(linkBody(link));
  });

  app.delete('/sso_providers/:id/links/:link_id', {
    schema: {
      ...asksForReauthentication,
      summary: 'Unlink an account: it no longer signs in as the user',
      params: LinkParams, body: Type.Unknown({ description: 'Ignored.' }), response: { ...NoContent, ...errorResponses },
    },
  }, async (request, reply) => {
    const a = callOf(request, deps);
    await unlinkAccount(a, request.params.id, request.params.link_id, confirmIdentity(request, deps, a));
    return reply.code(204).send(null);
  });

  app.get('/sso_strategies', {
    schema: { summary: 'List the sign-in providers as Files.com\'s SsoStrategy (read-only; Site Administrators)', querystring: Type.Object({ ...paginationQuery }), response: { 200: Type.Array(StrategyBody), ...errorResponses } },
  }, async (request, reply) => {
    const page = readPage<number>('sso_strategies', request.query, 'id');
    const views = (await listProviders(callOf(request, deps))).filter((v) => page.after === undefined || v.provider.id > page.after);
    return sendPage(reply, deps.headers, 'sso_strategies', views, page.limit, (v) => v.provider.id).map(strategyBody);
  });

  app.get('/sso_strategies/:id', {
    schema: { summary: 'Show a sign-in provider as Files.com\'s SsoStrategy', params: IdParams, response: { 200: StrategyBody, ...errorResponses } },
  }, async (request) => strategyBody(await getProvider(callOf(request, deps), request.params.id)));

  app.post('/sso_strategies/:id/sync', {
    schema: {
      summary: 'Synchronise a provider: OpenID Connect has nothing to synchronise (groups follow each sign-in); answers 204 and changes nothing',
      params: IdParams, body: Type.Unknown({ description: 'Ignored.' }), response: { ...NoContent, ...errorResponses },
    },
  }, async (request, reply) => {
    await getProvider(callOf(request, deps), request.params.id);
    return reply.code(204).send(null);
  });

  app.post('/sso_reauthentications', {
    schema: {
      summary: 'Confirm a console session at its provider: answers where to send the browser; after a fresh sign-in there, X-<Brand>-Reauthentication: sso is accepted for a few minutes',
      body: Type.Object({
        sso_provider_id: Type.Optional(RecordId({ minimum: 1, description: 'the provider; default the user\'s own (sso_strategy_id)' })),
        next: Type.Optional(Type.String({ maxLength: 2048, description: 'the console page to come back to' })),
      }),
      response: { 201: Type.Object({ authorization_url: Type.String() }), ...errorResponses },
    },
  }, async (request, reply) => {
    const caller = request.caller;
    const providerId = request.body.sso_provider_id ?? caller.user?.authentication.ssoStrategyId ?? undefined;
    if (providerId === undefined) throw errors.paramsRequired({ sso_provider_id: ['names the provider to confirm at: this user has none of its own'] });
    try {
      const started = await deps.sso.startReauthentication(caller, providerId, ssoRedirectUri(request), request.body.next);
      setFlowCookie(reply, request, started.flowSecret);
      return reply.code(201).send({ authorization_url: started.authorizationUrl });
    } catch (error) {
      if (error instanceof SsoRefusal) throw errors.modelSaveError({ sso_provider_id: [error.message] });
      throw error;
    }
  });
}
