import type { FastifyRequest } from 'fastify';
import { errors } from '../../../errors/catalogue.js';
import { API_ROOT } from '../../api-paths.js';

/**
 * The folder or file path a request names after `resource` (`folders`, `files`,
 * `file_actions/metadata`, ...). It is cut from the URL as the client sent it and then
 * percent-decoded exactly once, so `a%2Fb` is the path `a/b` whether or not a router would have
 * split it, and `%252F` stays a literal `%2F` in a name. `.`/`..` and control characters are left
 * for canonicalPath to refuse; nothing here resolves them.
 */
export function capturedPath(request: FastifyRequest, resource: string): string {
  const prefix = `${API_ROOT}/${resource}`;
  const url = request.url;
  const queryStart = url.indexOf('?');
  const rawPath = queryStart === -1 ? url : url.slice(0, queryStart);
  // The route matched, so the URL starts with the prefix; anything else is a routing bug.
  if (!rawPath.startsWith(prefix)) throw new Error(`route ${resource} matched ${rawPath}`);
  const raw = rawPath.slice(prefix.length);
  try {
    return decodeURIComponent(raw);
  } catch {
    throw errors.invalidPath('The path is not valid percent-encoded UTF-8.');
  }
}
