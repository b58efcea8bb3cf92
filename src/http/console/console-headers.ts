import type { FastifyReply } from 'fastify';

/**
 * What the browser may do with the console's pages: run only Atrium's own scripts (no inline
 * script, no eval), talk only to Atrium, never be framed, and send no Referer that could carry a
 * folder path to another site. Styles may be inline because the component library sets its theme
 * variables in a style element at run time; styles cannot run code.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function setConsoleHeaders(reply: FastifyReply): void {
  reply.header('Content-Security-Policy', CONSOLE_CONTENT_SECURITY_POLICY);
  reply.header('X-Frame-Options', 'DENY');
  reply.header('Referrer-Policy', 'no-referrer');
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Cross-Origin-Opener-Policy', 'same-origin');
}
