import type { ErrorDetails } from '../errors/atrium-error.js';
import { orList, type BrandHeaders } from './brand-headers.js';

/**
 * The sentence the REST API adds to an error about a request header, naming the header as this
 * server reads it (every configured brand), so that no message shows a placeholder such as
 * `X-<Brand>-Reauthentication`.
 */
export function headerHint(header: ErrorDetails['header'], names: BrandHeaders): string | undefined {
  switch (header) {
    case 'credentials':
      return `Send an API key as ${orList(names.apiKey)} (or as the user name of HTTP Basic authentication), or a session id as ${orList(names.session)}.`;
    case 'workspace':
      return `The Workspace is chosen with the ${orList(names.workspace)} header; without it, a request works in the Workspace of its credential.`;
    case 'reauthentication':
      return `Send the ${orList(names.reauthentication)} header with the value password:<your password>.`;
    default:
      return undefined;
  }
}
