// Identity: who is calling and how they prove it. Passwords, API keys, sessions, sign-in
// throttling, reauthentication, the site's authentication settings and the first start. The only
// entrance to the feature.

export { type ApiKey, type ApiKeySortField, apiKeySortValue } from '../repositories/api-keys.js';
export { createKey, findCallingKey, findKey, type KeyChanges, listKeys, revokeKey, updateKey } from './api-keys.js';
export { authenticate, type PresentedCredentials } from './authenticate.js';
export { bootstrapFirstStart, type BootstrapResult } from './bootstrap.js';
export { clientAddressKey } from './client-address.js';
export { checkNewPassword, checkPasswordDiffers } from './password-policy.js';
export { DUMMY_PASSWORD_HASH, hashPassword, verifyPasswordOrDummy } from './passwords.js';
export { type ConfirmIdentity, identityConfirmation, requireReauthentication } from './reauthentication.js';
export { hashSecret, newApiKeySecret, newSessionId } from './secrets.js';
export { logIn, type LogInOutcome, logOut, type NewSession, openSession, startSession } from './sessions.js';
export { type PasswordSignIn, verifyPasswordSignIn } from './sign-in.js';
export { changeSiteSettings, readSitePolicies, readSiteSettingsAs, SITE_ID, type SiteView } from './site-administration.js';
export { hourSpellingsOf } from './site-setting-hours.js';
export {
  automationImportMayReachPrivateAddresses, BUNDLE_EXPIRATION_DAYS, fileKeepingSettings, historyRetentionDays, readSharingSettings, SETTING_RANGES, type SharingSettings, type SiteSettings, TWO_FACTOR_USER_TYPES, type TwoFactorUserType,
} from './site-settings.js';
export { PasswordDoor, REMEMBER_PASSWORD_MS } from './password-door.js';
export { SecretBox } from './secret-box.js';
export { endLockout, lockoutEnds } from './lockouts.js';
export { type PublicKey } from '../repositories/public-keys.js';
export { createPublicKey, type CreatedPublicKey, deletePublicKeyAs, findPublicKeyAs, listPublicKeysAs, type NewPublicKeyInput, renamePublicKeyAs } from './public-keys.js';
export { findPublicKeysOfUser, publicKeyMatches, publicKeyOfUserMatching, touchPublicKeyLogin } from './public-key-sign-in.js';
export { completeKeySignIn, findKeySignIn, type KeySignIn } from './key-sign-in.js';
export { fingerprintsOf, openSshLine, parseSshPublicKey, type SshPublicKey } from './ssh-public-key.js';
export { type ActivityKind, noteActivity } from './user-activity.js';
export { admitAtDoor } from './door-admission-history.js';
export { addPasskeyAndSignIn, confirmEnrolmentAndSignIn, findEnrolment, passkeySignInOptions } from './two-factor-sign-in.js';
export { type PartialSession } from '../repositories/partial-sessions.js';
export {
  clearSecondFactors, confirmTotpEnrolment, type Enrolling, regenerateRecoveryCodes, removeTotp, startTotpEnrolment, twoFactorStatus, type TwoFactorStatus,
} from './two-factor-enrolment.js';
export { mustUseTwoFactor, type SecondFactors, secondFactorsOf, secondFactorsOfUsers, typeOf2fa } from './two-factor-policy.js';
export { hashesEqual } from './secrets.js';
export { type Passkey } from '../repositories/passkeys.js';
export {
  addPasskey, type AddedPasskey, listPasskeys, type NewPasskeyInput, type PasskeyHolder, passkeyHolder, passkeyRegistrationOptions, removePasskeyOf, renamePasskeyOf,
} from './passkeys.js';
export { passkeyAuthenticationOptions, verifyPasskeySignIn } from './passkey-sign-in.js';
export { type RelyingParty } from './relying-party.js';
