import type { IncomingHttpHeaders } from 'node:http';
import { parseCookie, stringifySetCookie } from 'cookie';
import { API_ROOT } from '../api-paths.js';

/**
 * The web console keeps its session in an HttpOnly cookie that page scripts cannot read. The
 * server honours the cookie only on requests that also carry CONSOLE_HEADER: a cross-site form or
 * link cannot add a custom header, and a cross-site script that tries is stopped by the browser's
 * preflight, which Atrium never approves. SameSite=Strict keeps the cookie off cross-site requests
 * as a second wall.
 */
export const CONSOLE_HEADER = 'X-Atrium-Console';
export const SESSION_COOKIE = 'atrium_session';

// Session ids are hex, so the cookie's value needs no encoding; anything else is not ours.
const SESSION_VALUE = /^[0-9A-Za-z_-]{1,256}$/;

export function isConsoleRequest(headers: IncomingHttpHeaders): boolean {
  return headers[CONSOLE_HEADER.toLowerCase()] === '1';
}

/** The session id from the console's cookie, only when the request also carries the console header. */
export function consoleSessionId(headers: IncomingHttpHeaders): string | undefined {
  if (!isConsoleRequest(headers) || headers.cookie === undefined) return undefined;
  const value = parseCookie(headers.cookie)[SESSION_COOKIE];
  return value !== undefined && SESSION_VALUE.test(value) ? value : undefined;
}

function cookie(value: string, secure: boolean, expired: boolean): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value,
    path: API_ROOT,
    httpOnly: true,
    sameSite: 'strict',
    secure,
    ...(expired ? { maxAge: 0, expires: new Date(0) } : {}),
  });
}

/** The Set-Cookie value that hands a new session to the console (Secure when reached over HTTPS). */
export function sessionCookie(sessionId: string, secure: boolean): string {
  return cookie(sessionId, secure, false);
}

/** The Set-Cookie value that removes the console's cookie at sign-out. */
export function clearedSessionCookie(secure: boolean): string {
  return cookie('', secure, true);
}
