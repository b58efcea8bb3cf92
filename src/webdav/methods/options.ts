import type { FastifyReply } from 'fastify';
import { ALLOWED_METHODS } from './allowed.js';

/**
 * OPTIONS: WebDAV class 1 and 2, and `MS-Author-Via: DAV`, without which Windows' Web Folders and
 * Office treat the server as plain HTTP (FrontPage). Answered without a credential: it tells
 * nothing about any file, and Windows' Mini-Redirector asks it before it sends one.
 */
export function options(reply: FastifyReply): FastifyReply {
  return reply
    .code(200)
    .header('DAV', '1, 2')
    .header('MS-Author-Via', 'DAV')
    .header('Allow', ALLOWED_METHODS.join(', '))
    .header('Accept-Ranges', 'bytes')
    .header('Content-Length', '0')
    .send();
}
