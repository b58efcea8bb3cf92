import type { IncomingHttpHeaders } from 'node:http';
import type { PresentedCredentials } from '../identity/index.js';
import { readHeader, type BrandHeaders } from './brand-headers.js';
import { consoleSessionId } from './console/session-cookie.js';

/**
 * Reads the credentials a request carries (contract 3.1): the session header, the key header,
 * or HTTP Basic with the key as user name (the password is ignored). Never the query string.
 * The web console's session cookie counts as the session header (see console/session-cookie.ts).
 */
export function readCredentials(headers: IncomingHttpHeaders, names: BrandHeaders): PresentedCredentials {
  return {
    sessionId: readHeader(headers, names.session) ?? consoleSessionId(headers),
    apiKey: readHeader(headers, names.apiKey) ?? basicAuthUser(headers.authorization),
  };
}

function basicAuthUser(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(authorization);
  if (match === null) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const user = colon === -1 ? decoded : decoded.slice(0, colon);
  return user === '' ? undefined : user;
}
