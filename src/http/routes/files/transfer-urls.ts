import type { FastifyRequest } from 'fastify';
import { API_ROOT } from '../../api-paths.js';

export const UPLOADS_PATH = '/uploads';
export const DOWNLOADS_PATH = '/downloads';

/** The name app.ts decorates the instance with: ATRIUM_PUBLIC_URL, or undefined. */
export const PUBLIC_URL = 'atriumPublicUrl';

declare module 'fastify' {
  interface FastifyInstance {
    [PUBLIC_URL]: string | undefined;
  }
}

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The scheme and authority clients reach this server at, for the transfer URLs it hands out:
 * ATRIUM_PUBLIC_URL when set, else the request's own (X-Forwarded-Proto and -Host count only from
 * proxies ATRIUM_TRUST_PROXY trusts). A Host that is not a plain host name or address is not
 * echoed into a URL.
 */
export function publicBaseUrl(request: FastifyRequest): string {
  const configured = request.server[PUBLIC_URL];
  if (configured !== undefined) return configured;
  const host = HOST.test(request.host ?? '') ? request.host : `${request.socket.localAddress ?? '127.0.0.1'}:${request.socket.localPort ?? 80}`;
  return `${request.protocol}://${host}`;
}

export function uploadUri(request: FastifyRequest, token: string): string {
  return `${publicBaseUrl(request)}${API_ROOT}${UPLOADS_PATH}/${token}`;
}

export function downloadUri(request: FastifyRequest, token: string): string {
  return `${publicBaseUrl(request)}${API_ROOT}${DOWNLOADS_PATH}/${token}`;
}

/** A URL path with any transfer token replaced, so that no log line ever holds a working link. */
export function redactTransferToken(urlPath: string): string {
  return urlPath.replace(/(\/api\/rest\/v1\/(?:uploads|downloads)\/)[^/?]+/, '$1[redacted]');
}
