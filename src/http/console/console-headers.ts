import type { FastifyReply } from 'fastify';
import { PAGE_CONTENT_SECURITY_POLICY, setPageSecurityHeaders } from '../security-headers.js';

/** The console's pages carry the same policy as every page Atrium serves (security-headers.ts). */
export const CONSOLE_CONTENT_SECURITY_POLICY = PAGE_CONTENT_SECURITY_POLICY;

export function setConsoleHeaders(reply: FastifyReply): void {
  setPageSecurityHeaders(reply);
}
