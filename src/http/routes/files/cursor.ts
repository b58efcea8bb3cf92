import { createHash } from 'node:crypto';
import { errors } from '../../../errors/catalogue.js';
import { decodeCursor, encodeCursor } from '../../../lib/cursor.js';
import type { ChildPosition, ListingSort } from '../../../files/index.js';

/**
 * Listing cursors name their folder and what the listing matched (search, filter, type, time),
 * by a hash, so a cursor stays short whatever the path: a cursor of another folder, or of the same
 * folder with another search, is `invalid-cursor`. They hold the sort they were made in and the
 * last entry of the page, by type, value in the sort and name (`size.desc/f/2048/report.pdf`; a
 * name never holds a `/`): a cursor used with another sort is `invalid-cursor-type-for-sort`.
 * A plain listing's cursor names its folder alone, as it always has.
 */
export function listingName(kind: 'folder' | 'search', folderKey: string, matchKey: string): string {
  const named = matchKey === '' ? folderKey : `${folderKey}\u0000${matchKey}`;
  return `${kind}:${createHash('sha256').update(named).digest('base64url').slice(0, 16)}`;
}

function sortName(sort: ListingSort): string {
  return `${sort.field}.${sort.direction}`;
}

export function encodeFolderCursor(folderKey: string, matchKey: string, sort: ListingSort, position: ChildPosition): string {
  const name = folderKey === '' ? position.pathKey : position.pathKey.slice(folderKey.length + 1);
  const type = position.type === 'directory' ? 'd' : 'f';
  return encodeCursor(listingName('folder', folderKey, matchKey), `${sortName(sort)}/${type}/${position.value ?? ''}/${name}`);
}

// A forged cursor must not smuggle what no name holds (control characters: PostgreSQL refuses NUL).
// eslint-disable-next-line no-control-regex
const CURSOR_VALUE = /^([a-z_]+\.(?:asc|desc))\/([df])\/(-?\d{1,16})?\/([^/\u0000-\u001f\u007f-\u009f]{1,1024})$/;

export function decodeFolderCursor(folderKey: string, matchKey: string, sort: ListingSort, cursor: string | undefined): ChildPosition | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const value = decodeCursor(listingName('folder', folderKey, matchKey), cursor);
  const match = typeof value === 'string' ? CURSOR_VALUE.exec(value) : null;
  if (match === null) throw errors.invalidCursor();
  const [, madeIn, type, sortValue, name] = match as unknown as [string, string, string, string | undefined, string];
  if (madeIn !== sortName(sort)) throw errors.invalidCursorTypeForSort();
  const position: ChildPosition = {
    type: type === 'd' ? 'directory' : 'file',
    value: sortValue === undefined ? null : Number(sortValue),
    pathKey: folderKey === '' ? name : `${folderKey}/${name}`,
  };
  if (!Number.isSafeInteger(position.value ?? 0)) throw errors.invalidCursor();
  return position;
}
