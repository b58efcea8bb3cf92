// Single sign-on with OpenID Connect (docs/authentication.md#single-sign-on-openid-connect): the
// providers a Site Administrator configures, the links of their accounts to Atrium users, the
// console's sign-in and reauthentication through them. (How a user is switched to one is a change
// of the user: directory/user-authentication.ts.) The only entrance to the feature.

export { type SsoLink } from '../repositories/sso-links.js';
export { createProvider, deleteProvider, getProvider, listProviders, type SsoProviderView, updateProvider } from './providers.js';
export { DEFAULT_SCOPES, DEFAULT_USERNAME_CLAIM, type SsoProviderInput } from './provider-fields.js';
export { linkAccount, listProviderLinks, unlinkAccount } from './links.js';
export { type ProviderFetch } from './openid.js';
export { SsoRefusal } from './refusal.js';
export { SingleSignOn } from './sign-in-flows.js';
export { strategyProviderOf } from './strategies.js';
