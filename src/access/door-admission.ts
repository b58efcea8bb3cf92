import { BlockList, isIP } from 'node:net';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { anyGroupAllows, groupAddressListsOf } from '../repositories/groups.js';
import { partnerAddressList } from '../repositories/partners.js';
import { readStoredSettings } from '../repositories/site-settings.js';
import type { User } from '../repositories/users.js';
import type { Caller } from './caller.js';

/** The doors a user's own settings can close: the REST API (and everything built on it), SFTP, WebDAV. */
export type Door = 'rest' | 'sftp' | 'dav';

/** Where a credential is being used from, as the door saw the connection. */
export interface DoorConnection {
  /** The client's address (`request.ip`: X-Forwarded-For only from a trusted proxy). */
  ip: string;
  /**
   * Whether the client's connection is encrypted: HTTPS (Fastify's `request.protocol`, which takes
   * a trusted proxy's X-Forwarded-Proto), and always for SSH.
   */
  encrypted: boolean;
}

const DOOR_FLAG = { rest: 'restapi_permission', sftp: 'sftp_permission', dav: 'dav_permission' } as const;
const OWN_FLAG = { rest: 'restapiPermission', sftp: 'sftpPermission', dav: 'davPermission' } as const;
const DOOR_NAME = { rest: 'the REST API', sftp: 'SFTP', dav: 'WebDAV' } as const;

/**
 * Whether the account can be used at all at `now`: not disabled, and not past its
 * `authenticate_until`. The one rule every sign-in and every credential check asks.
 */
export function accountActive(user: User, now: number): boolean {
  if (user.disabled) return false;
  const until = user.profile.authenticateUntil;
  return until === null || now < until;
}

/**
 * The account's own settings at a door, after its credential was recognised, for every kind of
 * credential (session, API key, password, public key):
 * - an account past its `authenticate_until` is refused as a disabled one is (the credential is
 *   not valid any more);
 * - a client address outside every address list that applies is refused (assertAddressAdmits);
 * - an account with `ssl_required: always_require` is refused over a connection that is not
 *   encrypted (plain HTTP to the server, or a trusted proxy saying the client used http). The
 *   other values leave it to the server's own TLS setting, as Files.com's site setting does;
 * - a door whose protocol flag is false is refused, unless a group of the user's own Workspace it
 *   belongs to has that flag true (a group's flag only ever allows, as Files.com documents it; a
 *   group of another Workspace's administrators may not open a door for a user they do not
 *   administer).
 * A site-wide key has no user and no such settings: only the site's address list applies to it.
 */
export async function assertDoorAdmits(db: Db, caller: Caller, door: Door, from: DoorConnection, now: number): Promise<void> {
  const user = caller.user;
  if (user !== null && !accountActive(user, now)) {
    const kind = caller.credential.kind;
    throw kind === 'session' ? errors.invalidSession() : kind === 'api_key' ? errors.invalidCredentials() : errors.invalidUsernameOrPassword();
  }
  await assertAddressAdmits(db, user, from.ip);
  if (user === null) return;
  if (user.profile.sslRequired === 'always_require' && !from.encrypted) throw errors.sslRequired();
  if (!user.profile[OWN_FLAG[door]] && !(await anyGroupAllows(db, user, DOOR_FLAG[door]))) throw errors.protocolNotPermitted(DOOR_NAME[door]);
}

/**
 * The address lists (`allowed_ips`): the site's applies to everyone (a site-wide key too), the
 * user's own, those of its groups and its Partner's to the user. They add up, as Files.com's do
 * ("the IP matches the Partner, User or Site list"): an address in any list that applies is
 * admitted, and only when none applies is every address. As for the protocol flags, only groups
 * of the user's own Workspace count. `clientIp` is `request.ip` as the server sees it
 * (X-Forwarded-For only from a trusted proxy, ATRIUM_TRUST_PROXY). The site's list is read from
 * the cached site settings and a user's own list comes with the user, so a request without
 * groups' lists costs no query; a Partner user (who is in no group) costs one, its Partner's list.
 */
export async function assertAddressAdmits(db: Db, user: User | null, clientIp: string): Promise<void> {
  const own = user === null ? [] : [
    user.profile.allowedIps,
    ...(user.partnerId === null ? await groupAddressListsOf(db, user) : [await partnerAddressList(db, user.partnerId)]),
  ];
  const lists = [await siteAddressList(db), ...own].filter((list) => list !== '');
  if (lists.length > 0 && !lists.some((list) => addressAllowed(list, clientIp))) throw errors.addressNotAllowed();
}

/**
 * Refuses an address list the caller sets for what governs its own requests (the site's list, or
 * its own user's) when the list leaves out the address the request comes from: saving it would
 * lock the caller out on its next request. Literal on purpose: another list that admits the
 * caller today (a group's, its own) may be changed tomorrow by someone else. `clientIp` null is
 * the command line, which no list governs.
 */
export function assertListKeepsCaller(list: string, clientIp: string | null): void {
  if (clientIp === null || list === '' || addressAllowed(list, clientIp)) return;
  throw errors.modelSaveError({ allowed_ips: [`does not include ${clientIp}, the address this request comes from: saving it would lock you out`] });
}

/** The site setting `allowed_ips` (identity/site-settings.ts stores it); empty when unset. */
async function siteAddressList(db: Db): Promise<string> {
  const stored = (await readStoredSettings(db)).get('allowed_ips');
  return typeof stored === 'string' ? stored : '';
}

/** Whether `clientIp` is one of the newline-separated addresses and CIDR ranges; an empty list allows any address. */
export function addressAllowed(allowedIps: string, clientIp: string): boolean {
  if (allowedIps === '') return true;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(clientIp);
  const address = mapped === null ? clientIp : (mapped[1] as string);
  const family = isIP(address);
  if (family === 0) return false;
  const list = new BlockList();
  for (const entry of allowedIps.split('\n')) {
    const [base, prefix] = entry.split('/') as [string, string | undefined];
    const type = isIP(base) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(base, type);
    else list.addSubnet(base, Number(prefix), type);
  }
  return list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}
