import type { FastifyRequest } from 'fastify';
import type { Caller } from '../access/index.js';
import type { Db } from '../db/database.js';
import { AtriumError } from '../errors/atrium-error.js';
import { errors } from '../errors/catalogue.js';
import { admitAtDoor, authenticate, noteActivity, type PasswordDoor } from '../identity/index.js';
import type { Clock } from '../lib/time.js';

/** Generated API keys (identity/secrets.ts): `atr_` and 43 base64url characters. */
const API_KEY_SHAPE = /^atr_[A-Za-z0-9_-]{43}$/;

export interface BasicCredentials {
  user: string;
  password: string;
}

/**
 * HTTP Basic for WebDAV clients, which send the same credentials with every request:
 * - an API key as the user name (the password is ignored), as the REST API accepts it: one of the
 *   generated shape is only a key; any other user name is tried as a key before as a username;
 * - otherwise a username and password, through the process's one PasswordDoor (the core's, which
 *   SFTP shares): a full sign-in (login protection, lockout, History with interface `dav`) the
 *   first time at either door, then recognised by a keyed hash for a few minutes, rechecked
 *   against the user on every request.
 * No credential is `not-authenticated`, answered 401 with the Basic challenge. The Authorization
 * header is never logged (http/log-options.ts redacts it for the whole listener).
 */
export class DavAuthenticator {
  constructor(private readonly db: Db, private readonly clock: Clock, private readonly passwords: PasswordDoor) {}

  async callerOf(request: FastifyRequest): Promise<Caller> {
    const caller = await this.recognise(request);
    // The account's own settings (an end date, allowed addresses, HTTPS, the WebDAV flag): access/ decides.
    const now = this.clock.now();
    await admitAtDoor(this.db, caller, 'dav', { ip: request.ip, encrypted: request.protocol === 'https', interface: 'dav' }, now);
    // WebDAV clients sign in with every request: recorded at most once a minute per user.
    await noteActivity(this.db, caller, 'dav-login', now);
    return caller;
  }

  private async recognise(request: FastifyRequest): Promise<Caller> {
    const basic = basicCredentials(request.headers.authorization);
    if (basic === undefined) throw errors.authenticationRequired();
    const asKey = () => authenticate(this.db, this.clock, { sessionId: undefined, apiKey: basic.user });
    if (API_KEY_SHAPE.test(basic.user)) return asKey();
    if (basic.user === '') throw errors.invalidUsernameOrPassword();
    // A key of another shape (the bootstrap key is whatever was configured) is tried as a key
    // first. A generated key is never taken for a username, so it never lands in History's failed
    // sign-ins; another shape, once revoked, is then a username that does not exist.
    try {
      return await asKey();
    } catch (error) {
      if (!(error instanceof AtriumError && error.type === 'not-authenticated/invalid-credentials')) throw error;
    }
    if (basic.password === '') throw errors.invalidUsernameOrPassword();
    return this.passwords.signIn(this.clock.now(), { username: basic.user, password: basic.password, clientIp: request.ip, interface: 'dav' });
  }
}

/** The user name and password of an `Authorization: Basic` header (RFC 7617), UTF-8. */
export function basicCredentials(authorization: string | undefined): BasicCredentials | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(authorization);
  if (match === null) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? { user: decoded, password: '' } : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
