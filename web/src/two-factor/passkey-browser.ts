/**
 * The browser's side of passkeys, through @simplewebauthn/browser. The library is loaded only when
 * a passkey is used, so the sign-in screen's first load stays small.
 */

/** Whether this browser can use passkeys at all (an old browser, or a page not served over HTTPS or from localhost, cannot). */
export function browserHasPasskeys(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** The browser asks the person for one of their passkeys; the answer for POST /sessions. */
export async function usePasskey(options: unknown): Promise<unknown> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return startAuthentication({ optionsJSON: options as Parameters<typeof startAuthentication>[0]['optionsJSON'] });
}

/** The browser makes a new passkey; the answer for POST /2fa/passkeys. */
export async function makePasskey(options: unknown): Promise<unknown> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  return startRegistration({ optionsJSON: options as Parameters<typeof startRegistration>[0]['optionsJSON'] });
}

/**
 * What went wrong in the browser's passkey dialog, in words. Cancelling or letting it time out is
 * the common case; browsers do not tell which, on purpose.
 */
export function passkeyProblem(caught: unknown): string {
  // The library's errors carry the browser's own name (NotAllowedError, ...).
  const name = caught instanceof Error ? caught.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError') return 'No passkey was used: the request was cancelled or timed out. Try again when you are ready.';
  if (name === 'InvalidStateError') return 'This device already holds a passkey for your account.';
  // Passkeys belong to a site's name: an address such as 127.0.0.1 has none.
  if (name === 'SecurityError') return 'Passkeys work only when Atrium is opened by its name (such as localhost or files.example.com), not by an IP address.';
  return caught instanceof Error && caught.message !== '' ? caught.message : 'The passkey could not be used.';
}
