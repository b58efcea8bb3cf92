import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database.js';
import { errors } from '../errors/catalogue.js';
import { HISTORY_INTERFACES } from '../history/index.js';
import type { Interface } from '../lib/origin.js';
import { parseRecordId } from '../lib/record-id.js';
import type { Clock } from '../lib/time.js';
import { sharedSecret } from '../repositories/server-secrets.js';

/** How long a signed upload or download URL works. Checked when a transfer starts, not during it. */
export const TRANSFER_LINK_SECONDS = 15 * 60;

const SECRET_NAME = 'transfer-link-signing-key';
const TOKEN = /^([ud])\.([1-9][0-9]{0,9})\.([0-9]{1,5}|[0-9]{1,10}-[0-9]{1,10}-[a-z]{1,8})\.([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/;

/**
 * Whose authority a download link carries, so that the download is recorded in History as theirs
 * (downloads.ts): the user and the stored API key (0 for none) and the front door it was issued
 * through. The address is the downloader's own, taken when the bytes are fetched.
 */
export interface LinkHolder {
  userId: number | null;
  apiKeyId: number | null;
  interface: Interface;
}

/** What a transfer URL names: one part of one upload, or one version of one file for its holder. */
export type TransferTarget =
  | { kind: 'upload'; uploadId: number; part: number }
  | { kind: 'download'; entryId: number; holder: LinkHolder };

export interface ParsedTransferToken {
  target: TransferTarget;
  expiresAt: number;
  mac: string;
}

/**
 * Signed transfer URLs (docs/files.md): `<kind>.<id>.<part>.<expiry>.<HMAC-SHA256>`, where a
 * download's third field names its holder (`<user id>-<key id>-<interface>`). The MAC also
 * covers a binding that is not in the token: an upload's random `ref`, or a file's storage key. So
 * a link reaches exactly one upload part, or exactly the version of a file it was made for (a file
 * replaced or deleted since makes the link dead), and ids cannot be walked. The key is a server
 * secret kept in the database, so every node signs and checks alike.
 */
export class TransferLinks {
  private secret: Promise<Buffer> | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async sign(target: TransferTarget, binding: string): Promise<{ token: string; expiresAt: number }> {
    const expiresAt = Math.floor(this.clock.now() / 1000) + TRANSFER_LINK_SECONDS;
    const body = tokenBody(target, expiresAt);
    return { token: `${body}.${await this.mac(body, binding)}`, expiresAt: expiresAt * 1000 };
  }

  /** The token's claims, unverified; a malformed token is plain `not-found`. */
  parse(token: string): ParsedTransferToken {
    const match = TOKEN.exec(token);
    if (match === null) throw errors.notFound();
    const [, kind, id, part, expiry, mac] = match as unknown as [string, string, string, string, string, string];
    if (parseRecordId(id) === undefined) throw errors.notFound();
    const target: TransferTarget = kind === 'u' ? { kind: 'upload', uploadId: Number(id), part: Number(part) } : { kind: 'download', entryId: Number(id), holder: holderOf(part) };
    if (target.kind === 'upload' && part.includes('-')) throw errors.notFound();
    return { target, expiresAt: Number(expiry), mac };
  }

  /**
   * Checks a parsed token against the binding of the row it names. The signature is checked before
   * the expiry, so only the holder of a genuine link learns that it has expired.
   */
  async verify(parsed: ParsedTransferToken, binding: string): Promise<void> {
    const expected = Buffer.from(await this.mac(tokenBody(parsed.target, parsed.expiresAt), binding));
    const given = Buffer.from(parsed.mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw errors.notFound();
    if (parsed.expiresAt * 1000 <= this.clock.now()) throw errors.transferLinkExpired();
  }

  private async mac(body: string, binding: string): Promise<string> {
    this.secret ??= sharedSecret(this.db, SECRET_NAME, this.clock.now()).catch((error: unknown) => {
      this.secret = undefined;
      throw error;
    });
    return createHmac('sha256', await this.secret).update(`atrium-transfer-v1\n${body}\n${binding}`).digest('base64url');
  }
}

function tokenBody(target: TransferTarget, expiresAtSeconds: number): string {
  if (target.kind === 'upload') return `u.${target.uploadId}.${target.part}.${expiresAtSeconds}`;
  const { userId, apiKeyId, interface: door } = target.holder;
  return `d.${target.entryId}.${userId ?? 0}-${apiKeyId ?? 0}-${door}.${expiresAtSeconds}`;
}

/** A download token's holder field (`<user id>-<key id>-<interface>`, 0 for none); anything else names nothing. */
function holderOf(field: string): LinkHolder {
  const [userId, apiKeyId, door] = field.split('-') as [string, string | undefined, string | undefined];
  const known = HISTORY_INTERFACES.find((name) => name === door);
  if (apiKeyId === undefined || known === undefined || parseRecordId(userId) === undefined || parseRecordId(apiKeyId) === undefined) throw errors.notFound();
  return { userId: Number(userId) === 0 ? null : Number(userId), apiKeyId: Number(apiKeyId) === 0 ? null : Number(apiKeyId), interface: known };
}
