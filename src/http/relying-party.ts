import type { FastifyRequest } from 'fastify';
import type { RelyingParty } from '../identity/index.js';
import { publicBaseUrl } from './routes/files/transfer-urls.js';

/**
 * The WebAuthn relying party a request's browser talks to: ATRIUM_PUBLIC_URL's host name and
 * origin when it is set, else the request's own (its Host, or X-Forwarded-Host and -Proto from
 * proxies ATRIUM_TRUST_PROXY trusts), as the transfer links are made. A passkey is bound to the
 * host name, without the port; a browser refuses an IP address as one (docs/authentication.md#passkeys).
 */
export function relyingPartyOf(request: FastifyRequest): RelyingParty {
  const url = new URL(publicBaseUrl(request));
  return { id: url.hostname, origin: url.origin };
}
