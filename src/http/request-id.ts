import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What a proxy or client may choose as a request id: short, and safe in a header and a log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:+=@/-]{1,128}$/;

/**
 * The id of a request: the caller's `X-Request-Id` when it is sane (so one id follows a request
 * through a load balancer and Atrium's logs), otherwise a new one. Fastify puts it on every log
 * line of the request as `reqId`; app.ts returns it in the response header and the error body.
 */
export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  if (typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming)) return incoming;
  return randomUUID().replaceAll('-', '');
}
