import { api } from './client';

/**
 * Two-factor authentication (docs/authentication.md#two-factor-authentication): a person's methods
 * and their enrolment, under a session or, while a site that requires 2FA leads them through it at
 * sign-in, under the partial session the server keeps in an HttpOnly cookie. The requests of that
 * partial session have no session to lose and no Workspace to work in: they are sent as sign-in's are.
 */

/** How a request is authenticated: a signed-in session, or the partial session of a sign-in. */
export type TwoFactorContext = 'session' | 'signing-in';

function options(context: TwoFactorContext, body?: unknown) {
  return { ...(body === undefined ? {} : { body }), ...(context === 'signing-in' ? { signingIn: true } : { homeContext: true }) };
}

export type TwoFactorMethod = 'totp' | 'webauthn';

export interface Passkey {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface TwoFactorState {
  /** The site requires this person to have a second factor. */
  required: boolean;
  /** An authenticator app is set up (and confirmed). */
  totp: boolean;
  passkeys: Passkey[];
  recovery_codes_left: number;
  methods_allowed: TwoFactorMethod[];
}

export async function readTwoFactor(context: TwoFactorContext = 'session'): Promise<TwoFactorState> {
  const { data } = await api<Partial<TwoFactorState>>('GET', '/2fa', options(context));
  const methodsAllowed = Array.isArray(data.methods_allowed) ? data.methods_allowed : ['totp' as const];
  return {
    required: data.required === true,
    totp: data.totp === true,
    passkeys: Array.isArray(data.passkeys) ? data.passkeys : [],
    recovery_codes_left: typeof data.recovery_codes_left === 'number' ? data.recovery_codes_left : 0,
    methods_allowed: methodsAllowed,
  };
}

export interface TotpEnrolment {
  /** The secret in base32, for typing into an app that cannot scan. */
  secret: string;
  /** The `otpauth://` address the QR code carries. */
  otpauth_uri: string;
}

/** Starts (or starts again) setting up an authenticator app; nothing changes until it is confirmed. */
export async function startTotp(context: TwoFactorContext): Promise<TotpEnrolment> {
  return (await api<TotpEnrolment>('POST', '/2fa/totp', options(context, {}))).data;
}

/** What the first method's confirmation answers: the recovery codes, and at sign-in the new session's owner. */
export interface Enrolled {
  recovery_codes: string[];
  /** The session opened by enrolling at sign-in (its id stays in the cookie; `id` is empty). */
  session?: { user_id: number } | null;
}

export async function confirmTotp(context: TwoFactorContext, otp: string): Promise<Enrolled> {
  return (await api<Enrolled>('POST', '/2fa/totp/confirm', options(context, { otp }))).data;
}

export async function removeTotp(): Promise<void> {
  await api('DELETE', '/2fa/totp', options('session'));
}

/** A new set of recovery codes; the old ones stop working. */
export async function regenerateRecoveryCodes(): Promise<string[]> {
  return (await api<{ recovery_codes: string[] }>('POST', '/2fa/recovery_codes', options('session', {}))).data.recovery_codes;
}

/** The options `startRegistration` needs to make a passkey for this person. */
export async function passkeyCreationOptions(context: TwoFactorContext): Promise<unknown> {
  return (await api<unknown>('POST', '/2fa/passkeys/options', options(context, {}))).data;
}

export async function addPasskey(context: TwoFactorContext, name: string, response: unknown): Promise<Passkey & Partial<Enrolled>> {
  return (await api<Passkey & Partial<Enrolled>>('POST', '/2fa/passkeys', options(context, { name, response }))).data;
}

export async function renamePasskey(id: number, name: string): Promise<void> {
  await api('PATCH', `/2fa/passkeys/${id}`, options('session', { name }));
}

export async function removePasskey(id: number): Promise<void> {
  await api('DELETE', `/2fa/passkeys/${id}`, options('session'));
}

/** The session a second step opens: who it belongs to (its id stays in the cookie). */
export interface OpenedSession {
  user_id: number;
}

/** The second step of a sign-in with a code from the app, or a recovery code, under the partial session's cookie. */
export async function signInWithCode(otp: string): Promise<OpenedSession> {
  return (await api<OpenedSession>('POST', '/sessions', { body: { otp }, signingIn: true })).data;
}

/** The options `startAuthentication` needs to sign in with one of this person's passkeys. */
export async function passkeySignInOptions(): Promise<unknown> {
  return (await api<unknown>('POST', '/sessions/passkey_options', { body: {}, signingIn: true })).data;
}

export async function signInWithPasskey(response: unknown): Promise<OpenedSession> {
  return (await api<OpenedSession>('POST', '/sessions', { body: { webauthn: response }, signingIn: true })).data;
}
