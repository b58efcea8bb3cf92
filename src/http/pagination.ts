import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { errors } from '../errors/catalogue.js';
import { decodeCursor, encodeCursor } from '../lib/cursor.js';
import { DEFAULT_PER_PAGE, type PageRequest } from '../lib/paging.js';
import { isRecordId } from '../lib/record-id.js';
import type { BrandHeaders } from './brand-headers.js';

export { DEFAULT_PER_PAGE, idPageQuery, type PageRequest } from '../lib/paging.js';

const MAX_PER_PAGE = 10_000;

/** Query parameters every list endpoint takes (contract 1.3); `page` is accepted and ignored. */
export const paginationQuery = {
  cursor: Type.Optional(Type.String({ maxLength: 2048 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE })),
};


/**
 * The page a list request asks for. `keyType` is the type of the listing's sort key: `id` for a
 * record id (a cursor is the client's to send back, so one edited past the ids records can have
 * is refused like any other cursor this server did not make), `number` for History's own ids.
 */
export function readPage<K extends number | string>(
  listing: string,
  query: { cursor?: string; per_page?: number },
  keyType: 'id' | 'number' | 'string',
): PageRequest<K> {
  const limit = query.per_page ?? DEFAULT_PER_PAGE;
  if (query.cursor === undefined || query.cursor === '') return { limit, after: undefined };
  const after = decodeCursor(listing, query.cursor);
  if (keyType === 'id' ? !isRecordId(after) : typeof after !== keyType) throw errors.invalidCursor();
  return { limit, after: after as K };
}

/**
 * Given up to `limit + 1` rows (one more than the page, to learn whether another page exists),
 * returns the page and sets the cursor headers only when another page exists: clients follow
 * `X-<Brand>-Cursor` until it is absent, so it must never appear on the last page.
 */
export function sendPage<T, K extends number | string>(
  reply: FastifyReply,
  headers: BrandHeaders,
  listing: string,
  rows: readonly T[],
  limit: number,
  sortKey: (row: T) => K,
): readonly T[] {
  const page = pageOf(listing, rows, limit, sortKey);
  if (page.cursor !== undefined) setCursorHeaders(reply, headers, page.cursor);
  return page.rows;
}

/** sendPage's page without a reply: the rows to send, and the cursor when another page exists. */
export function pageOf<T, K extends number | string>(listing: string, rows: readonly T[], limit: number, sortKey: (row: T) => K): { rows: readonly T[]; cursor: string | undefined } {
  if (rows.length <= limit) return { rows, cursor: undefined };
  const page = rows.slice(0, limit);
  return { rows: page, cursor: encodeCursor(listing, sortKey(page[page.length - 1] as T)) };
}

/** `X-<Brand>-Cursor` and `X-<Brand>-Cursor-Next` for every brand: sent only when another page exists. */
export function setCursorHeaders(reply: FastifyReply, headers: BrandHeaders, cursor: string): void {
  for (const name of headers.cursor) reply.header(name, cursor);
  for (const name of headers.cursorNext) reply.header(name, cursor);
}
