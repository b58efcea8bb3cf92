import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

// A browser's answer to a WebAuthn ceremony, as @simplewebauthn/browser hands it over (the
// PublicKeyCredential's JSON), checked for shape before the library reads it: the library expects
// the shape and would fail on anything else with a TypeError rather than a refusal.

/** Longer than any field of an answer to options that ask for no attestation (`none`). */
const MAX_FIELD = 65_536;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isBase64url(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_FIELD && BASE64URL.test(value);
}

function optional(value: unknown, check: (value: unknown) => boolean): boolean {
  return value === undefined || value === null || check(value);
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.length <= 16 && value.every((item) => typeof item === 'string' && item.length <= 32);
}

function credentialFields(value: unknown): { id: string; response: Record<string, unknown>; rest: Record<string, unknown> } | undefined {
  if (!isRecord(value) || value.type !== 'public-key' || !isBase64url(value.id) || value.rawId !== value.id || !isRecord(value.response)) return undefined;
  if (!optional(value.clientExtensionResults, isRecord) || !optional(value.authenticatorAttachment, (a) => a === 'platform' || a === 'cross-platform')) return undefined;
  return { id: value.id, response: value.response, rest: value };
}

/** What every answer carries besides its `response`, in the library's shape. */
function envelopeOf(credential: NonNullable<ReturnType<typeof credentialFields>>) {
  return {
    id: credential.id,
    rawId: credential.id,
    type: 'public-key' as const,
    clientExtensionResults: isRecord(credential.rest.clientExtensionResults) ? credential.rest.clientExtensionResults : {},
    ...(typeof credential.rest.authenticatorAttachment === 'string' ? { authenticatorAttachment: credential.rest.authenticatorAttachment as AuthenticatorAttachment } : {}),
  };
}

/** The answer to registration options, or undefined when it is not one. */
export function asRegistrationResponse(value: unknown): RegistrationResponseJSON | undefined {
  const credential = credentialFields(value);
  if (credential === undefined) return undefined;
  const { response } = credential;
  if (!isBase64url(response.clientDataJSON) || !isBase64url(response.attestationObject)) return undefined;
  if (!optional(response.transports, isStringList)) return undefined;
  return {
    ...envelopeOf(credential),
    response: {
      clientDataJSON: response.clientDataJSON,
      attestationObject: response.attestationObject,
      ...(Array.isArray(response.transports) ? { transports: response.transports as AuthenticatorTransportFuture[] } : {}),
    },
  };
}

/** The answer to authentication options, or undefined when it is not one. */
export function asAuthenticationResponse(value: unknown): AuthenticationResponseJSON | undefined {
  const credential = credentialFields(value);
  if (credential === undefined) return undefined;
  const { response } = credential;
  if (!isBase64url(response.clientDataJSON) || !isBase64url(response.authenticatorData) || !isBase64url(response.signature)) return undefined;
  if (!optional(response.userHandle, (handle) => typeof handle === 'string' && handle.length <= 1024)) return undefined;
  return {
    ...envelopeOf(credential),
    response: {
      clientDataJSON: response.clientDataJSON,
      authenticatorData: response.authenticatorData,
      signature: response.signature,
      ...(typeof response.userHandle === 'string' ? { userHandle: response.userHandle } : {}),
    },
  };
}

type AuthenticatorAttachment = NonNullable<RegistrationResponseJSON['authenticatorAttachment']>;
type AuthenticatorTransportFuture = NonNullable<RegistrationResponseJSON['response']['transports']>[number];
