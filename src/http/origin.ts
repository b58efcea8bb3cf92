import type { FastifyRequest } from 'fastify';
import type { Origin } from '../lib/origin.js';
import { isConsoleRequest } from './console/session-cookie.js';

/**
 * Where a REST request came from, as History records it: `web` for the console (it marks every
 * request with its header), `restapi` for every other client; the address is Fastify's
 * request.ip, which follows X-Forwarded-For only from ATRIUM_TRUST_PROXY addresses.
 */
export function originOf(request: FastifyRequest): Origin {
  return { interface: isConsoleRequest(request.headers) ? 'web' : 'restapi', ip: request.ip };
}
