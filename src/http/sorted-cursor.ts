import { errors } from '../errors/catalogue.js';
import { decodeCursor, encodeCursor } from '../lib/cursor.js';
import { isRecordId } from '../lib/record-id.js';
import type { SortDirection, SortedPageRequest, SortValue } from '../lib/sorted-page.js';
import type { ListParameters } from './list-parameters.js';
import { DEFAULT_PER_PAGE } from './pagination.js';

/**
 * Cursors of record listings that take `sort_by`. In the listing's own order (by id) a cursor
 * holds the last id, as every other listing's does; in another order it holds the order it was
 * made in, the last row's value in it and its id. A cursor sent with another order than its own
 * is `invalid-cursor-type-for-sort`, so a client never gets a page of one order continued in another.
 */
export interface ListingOrder<F extends string> {
  field: F;
  direction: SortDirection;
}

const orderName = (order: ListingOrder<string>) => `${order.field}.${order.direction}`;

/**
 * The order `sort_by` asks for (as readListParameters read it), in the listing's field names;
 * undefined for the listing's own order, by id. `site_id` is that order too: every record is of
 * the one site.
 */
export function requestedOrder<F extends string>(sort: ListParameters['sort']): ListingOrder<F> | undefined {
  if (sort === undefined) return undefined;
  return { field: (sort.field === 'site_id' ? 'id' : sort.field) as F, direction: sort.direction };
}

/** The page a listing with `sort_by` is asked for: in `requested` order, or by id when undefined. */
export function readSortedPage<F extends string>(
  listing: string,
  query: { cursor?: string; per_page?: number },
  requested: ListingOrder<F> | undefined,
): SortedPageRequest<F | 'id'> {
  const limit = query.per_page ?? DEFAULT_PER_PAGE;
  const sort: ListingOrder<F | 'id'> = requested ?? { field: 'id', direction: 'asc' };
  if (query.cursor === undefined || query.cursor === '') return { sort, after: undefined, limit };
  const after = decodeCursor(listing, query.cursor);
  if (requested === undefined) {
    if (typeof after === 'string') throw errors.invalidCursorTypeForSort();
    if (!isRecordId(after)) throw errors.invalidCursor();
    return { sort, after: { value: after, id: after }, limit };
  }
  if (typeof after !== 'string') throw errors.invalidCursorTypeForSort();
  const [madeIn, value, id] = parsePosition(after);
  if (madeIn !== orderName(sort)) throw errors.invalidCursorTypeForSort();
  return { sort, after: { value, id }, limit };
}

function parsePosition(text: string): [string, SortValue, number] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw errors.invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw errors.invalidCursor();
  const [madeIn, value, id] = parsed as [unknown, unknown, unknown];
  const valueFits = value === null || (typeof value === 'string' && value.length <= 4096 && !value.includes('\u0000')) || (typeof value === 'number' && Number.isSafeInteger(value));
  if (typeof madeIn !== 'string' || !valueFits || !isRecordId(id)) throw errors.invalidCursor();
  return [madeIn, value as SortValue, id as number];
}

/**
 * The page out of up to `limit + 1` rows, and the cursor of the next page when there is one
 * (never on the last page: clients follow the cursor until it is absent).
 */
export function sortedPageOf<T>(
  listing: string,
  rows: readonly T[],
  request: SortedPageRequest<string>,
  byId: boolean,
  position: (row: T) => { value: SortValue; id: number },
): { rows: readonly T[]; cursor: string | undefined } {
  if (rows.length <= request.limit) return { rows, cursor: undefined };
  const page = rows.slice(0, request.limit);
  const last = position(page[page.length - 1] as T);
  const cursor = byId ? encodeCursor(listing, last.id) : encodeCursor(listing, JSON.stringify([orderName(request.sort), last.value, last.id]));
  return { rows: page, cursor };
}
