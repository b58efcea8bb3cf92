import { errors } from '../errors/catalogue.js';

/**
 * Opaque cursors (contract 1.3). A cursor names the listing it belongs to and the last sort key
 * of the page it ends, so a cursor from another listing is refused instead of misread.
 */
type SortKey = number | string;

export function encodeCursor(listing: string, after: SortKey): string {
  return Buffer.from(JSON.stringify([listing, after]), 'utf8').toString('base64url');
}

export function decodeCursor(listing: string, cursor: string): SortKey {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw errors.invalidCursor();
  }
  if (!Array.isArray(decoded) || decoded.length !== 2 || decoded[0] !== listing) throw errors.invalidCursor();
  const after: unknown = decoded[1];
  if (typeof after === 'string' || (typeof after === 'number' && Number.isSafeInteger(after))) return after;
  throw errors.invalidCursor();
}
