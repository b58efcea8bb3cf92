import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Db } from '../../../db/database.js';
import { errors } from '../../../errors/catalogue.js';
import { searchCursorKey, type SubtreePosition } from '../../../files/index.js';
import { decodeCursor, encodeCursor } from '../../../lib/cursor.js';
import { listingName } from './cursor.js';

/**
 * A search_all cursor: the search it belongs to (its folder and match, in the clear, as a listing
 * cursor names them) and where it stands, sealed with AES-256-GCM under a server secret. The
 * position is the last entry the search looked at, which may be one the caller cannot see (a page
 * ends when it has looked at enough, whether or not it found anything): sealed, it tells the
 * caller nothing, and it cannot be edited to start anywhere else. A cursor that does not open
 * (edited, of another search, of another site) is `invalid-cursor`.
 */
export async function encodeSubtreeCursor(db: Db, now: number, folderKey: string, matchKey: string, position: SubtreePosition): Promise<string> {
  const listing = listingName('search', folderKey, matchKey);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await searchCursorKey(db, now), iv);
  cipher.setAAD(Buffer.from(listing, 'utf8'));
  const plain = JSON.stringify([position.parentKey, position.type === 'directory' ? 'd' : 'f', position.pathKey]);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return encodeCursor(listing, Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url'));
}

export async function decodeSubtreeCursor(db: Db, now: number, folderKey: string, matchKey: string, cursor: string | undefined): Promise<SubtreePosition | undefined> {
  if (cursor === undefined || cursor === '') return undefined;
  const listing = listingName('search', folderKey, matchKey);
  const value = decodeCursor(listing, cursor);
  if (typeof value !== 'string' || value.length > 8192) throw errors.invalidCursor();
  const bytes = Buffer.from(value, 'base64url');
  if (bytes.length < 29) throw errors.invalidCursor();
  let plain: unknown;
  try {
    const decipher = createDecipheriv('aes-256-gcm', await searchCursorKey(db, now), bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(listing, 'utf8'));
    decipher.setAuthTag(bytes.subarray(12, 28));
    plain = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8'));
  } catch {
    throw errors.invalidCursor();
  }
  if (!Array.isArray(plain) || plain.length !== 3 || !plain.every((part) => typeof part === 'string') || (plain[1] !== 'd' && plain[1] !== 'f')) throw errors.invalidCursor();
  const [parentKey, type, pathKey] = plain as [string, string, string];
  return { parentKey, type: type === 'd' ? 'directory' : 'file', pathKey };
}
