// Identity: who is calling and how they prove it. Passwords, API keys, sessions, sign-in
// throttling, reauthentication, the site's authentication settings and the first start. The only
// entrance to the feature.

export { createKey, findCallingKey, findKey, type KeyChanges, listKeys, revokeKey, updateKey } from './api-keys.js';
export { authenticate, type PresentedCredentials } from './authenticate.js';
export { bootstrapFirstStart, type BootstrapResult } from './bootstrap.js';
export { clientAddressKey } from './client-address.js';
export { checkNewPassword } from './password-policy.js';
export { DUMMY_PASSWORD_HASH, hashPassword } from './passwords.js';
export { type ConfirmIdentity, identityConfirmation, requireReauthentication } from './reauthentication.js';
export { hashSecret, newApiKeySecret, newSessionId } from './secrets.js';
export { logIn, logOut } from './sessions.js';
export { readSiteSettings, SETTING_RANGES, updateSiteSettings } from './site-settings.js';
