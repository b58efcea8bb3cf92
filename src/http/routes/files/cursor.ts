import { createHash } from 'node:crypto';
import { errors } from '../../../errors/catalogue.js';
import { decodeCursor, encodeCursor } from '../../../lib/cursor.js';
import type { ChildPosition } from '../../../files/index.js';

/**
 * Listing cursors name their folder (by a hash, so a cursor stays short whatever the path) and
 * the last entry of the page, by type and name: a cursor of another folder is `invalid-cursor`.
 */
function listingName(folderKey: string): string {
  return `folder:${createHash('sha256').update(folderKey).digest('base64url').slice(0, 16)}`;
}

export function encodeFolderCursor(folderKey: string, position: ChildPosition): string {
  const name = folderKey === '' ? position.pathKey : position.pathKey.slice(folderKey.length + 1);
  return encodeCursor(listingName(folderKey), `${position.type === 'directory' ? 'd' : 'f'}:${name}`);
}

export function decodeFolderCursor(folderKey: string, cursor: string | undefined): ChildPosition | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const value = decodeCursor(listingName(folderKey), cursor);
  // A forged cursor must not smuggle what no name holds (control characters: PostgreSQL refuses NUL).
  // eslint-disable-next-line no-control-regex
  const match = typeof value === 'string' ? /^([df]):([^/\u0000-\u001f\u007f-\u009f]{1,1024})$/.exec(value) : null;
  if (match === null) throw errors.invalidCursor();
  const [, type, name] = match as unknown as [string, string, string];
  return { type: type === 'd' ? 'directory' : 'file', pathKey: folderKey === '' ? name : `${folderKey}/${name}` };
}
