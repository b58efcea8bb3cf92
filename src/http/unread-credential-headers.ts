import type { IncomingHttpHeaders } from 'node:http';
import { errors } from '../errors/catalogue.js';
import type { PresentedCredentials } from '../identity/index.js';
import { orList, type BrandHeaders } from './brand-headers.js';

/** `X-<brand>API-Key` and `X-<brand>API-Auth` for any brand: a credential header, configured or not. */
const CREDENTIAL_HEADER = /^x-([a-z][a-z0-9]*)api-(?:key|auth)$/;

/**
 * A request whose only credential is in a header of a brand this server does not accept (the
 * Files.com SDKs' `X-FilesAPI-Key` where only `Service` is configured) is told which headers
 * would work, instead of a bare "authentication required".
 */
export function assertCredentialHeadersRead(requestHeaders: IncomingHttpHeaders, names: BrandHeaders, presented: PresentedCredentials): void {
  if (presented.apiKey !== undefined || presented.sessionId !== undefined) return;
  const accepted = new Set([...names.apiKey, ...names.session].map((name) => name.toLowerCase()));
  const unread = Object.keys(requestHeaders).filter((name) => CREDENTIAL_HEADER.test(name) && !accepted.has(name));
  const first = unread[0];
  if (first === undefined) return;
  throw errors.credentialsInUnreadHeaders(
    `The ${first} header is not read here: this server accepts the header brand${names.brands.length > 1 ? 's' : ''} ${orList(names.brands)} ` +
      `(ATRIUM_HEADER_BRANDS). Send the API key as ${orList(names.apiKey)}, or a session id as ${orList(names.session)}.`,
  );
}
