import { createHash } from 'node:crypto';
import { errors } from '../../../errors/catalogue.js';
import { decodeCursor, encodeCursor } from '../../../lib/cursor.js';
import type { ChildPosition, ListingSort, SubtreePosition } from '../../../files/index.js';

/**
 * Listing cursors name their folder and what the listing matched (search, filter, type, time),
 * by a hash, so a cursor stays short whatever the path: a cursor of another folder, or of the same
 * folder with another search, is `invalid-cursor`. They hold the sort they were made in and the
 * last entry of the page, by type, value in the sort and name (`size.desc/f/2048/report.pdf`; a
 * name never holds a `/`): a cursor used with another sort is `invalid-cursor-type-for-sort`.
 * A plain listing's cursor names its folder alone, as it always has.
 */
function listingName(kind: 'folder' | 'search', folderKey: string, matchKey: string): string {
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

/**
 * A search_all cursor: where the walk of the subtree stands, by a path below the searched folder
 * (`in/f/reports/q3.pdf`: in `reports`, after its file `q3.pdf`; `in/-/reports`: at the start of
 * `reports`; `past/-/reports`: past `reports` and all below it). It holds only names the caller's
 * listings showed.
 */
export function encodeSubtreeCursor(folderKey: string, matchKey: string, position: SubtreePosition): string {
  const below = (key: string) => (folderKey === '' ? key : key.slice(folderKey.length + 1));
  let value: string;
  if (position.kind === 'past') value = `past/-/${below(position.folderKey)}`;
  else if (position.after === undefined) value = `in/-/${below(position.folderKey)}`;
  else value = `in/${position.after.type === 'directory' ? 'd' : 'f'}/${below(position.after.pathKey)}`;
  return encodeCursor(listingName('search', folderKey, matchKey), value);
}

// eslint-disable-next-line no-control-regex
const SUBTREE_CURSOR_VALUE = /^(in|past)\/([df-])\/([^\u0000-\u001f\u007f-\u009f]{1,4096})$/;

export function decodeSubtreeCursor(folderKey: string, matchKey: string, cursor: string | undefined): SubtreePosition | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const value = decodeCursor(listingName('search', folderKey, matchKey), cursor);
  const match = typeof value === 'string' ? SUBTREE_CURSOR_VALUE.exec(value) : null;
  if (match === null) throw errors.invalidCursor();
  const [, kind, type, below] = match as unknown as [string, 'in' | 'past', string, string];
  if (below.split('/').some((segment) => segment === '')) throw errors.invalidCursor();
  const key = folderKey === '' ? below : `${folderKey}/${below}`;
  if (type === '-') return kind === 'past' ? { kind, folderKey: key } : { kind, folderKey: key, after: undefined };
  if (kind === 'past') throw errors.invalidCursor();
  const parent = key.slice(0, key.lastIndexOf('/') === -1 ? 0 : key.lastIndexOf('/'));
  return { kind, folderKey: parent, after: { type: type === 'd' ? 'directory' : 'file', value: null, pathKey: key } };
}
