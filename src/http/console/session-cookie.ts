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
/**
 * A partial session (a password given, its second factor not yet; identity/partial-sessions.ts)
 * travels the same way: the console's scripts never hold it. It lives for minutes; the cookie is
 * a session cookie and is cleared once the sign-in completes.
 */
export const PARTIAL_SESSION_COOKIE = 'atrium_partial_session';

// Session ids are hex, so the cookie's value needs no encoding; anything else is not ours.
const SESSION_VALUE = /^[0-9A-Za-z_-]{1,256}$/;

export function isConsoleRequest(headers: IncomingHttpHeaders): boolean {
  return headers[CONSOLE_HEADER.toLowerCase()] === '1';
}

/** The session id from the console's cookie, only when the request also carries the console header. */
export function consoleSessionId(headers: IncomingHttpHeaders): string | undefined {
  return consoleCookie(headers, SESSION_COOKIE);
}

/** The partial session id from the console's cookie, on the same terms as the session's. */
export function consolePartialSessionId(headers: IncomingHttpHeaders): string | undefined {
  return consoleCookie(headers, PARTIAL_SESSION_COOKIE);
}

function consoleCookie(headers: IncomingHttpHeaders, name: string): string | undefined {
  if (!isConsoleRequest(headers) || headers.cookie === undefined) return undefined;
  const value = parseCookie(headers.cookie)[name];
  return value !== undefined && SESSION_VALUE.test(value) ? value : undefined;
}

function cookie(value: string, secure: boolean, expired: boolean, name = SESSION_COOKIE): string {
  return stringifySetCookie({
    name,
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

/** The Set-Cookie value that hands a partial session to the console. */
export function partialSessionCookie(secret: string, secure: boolean): string {
  return cookie(secret, secure, false, PARTIAL_SESSION_COOKIE);
}

/** The Set-Cookie value that removes the partial session once the sign-in is complete (or abandoned). */
export function clearedPartialSessionCookie(secure: boolean): string {
  return cookie('', secure, true, PARTIAL_SESSION_COOKIE);
}
