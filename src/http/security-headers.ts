import type { FastifyReply } from 'fastify';

/**
 * What the browser may do with Atrium's own pages (the web console and the API reference): run
 * only Atrium's own scripts (no inline script, no eval), load nothing from another site, talk only
 * to Atrium, never be framed, and send no Referer that could carry a folder path to another site.
 * Styles may be inline because the component libraries set theme variables in style elements at
 * run time; styles cannot run code.
 */
export const PAGE_CONTENT_SECURITY_POLICY = [
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

/** The headers every page Atrium serves to a browser carries. */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': PAGE_CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** Sets the page security headers on a reply; use it from an `onRequest` hook of the page's scope. */
export function setPageSecurityHeaders(reply: FastifyReply): void {
  reply.headers(PAGE_SECURITY_HEADERS);
}
