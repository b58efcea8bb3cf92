/**
 * The WebAuthn relying party Atrium is to a browser: `id`, the host name passkeys are bound to,
 * and `origin`, the scheme, host and port its pages are served from. The front door decides it
 * from ATRIUM_PUBLIC_URL, or from the request (http/relying-party.ts).
 */
export interface RelyingParty {
  id: string;
  origin: string;
}
