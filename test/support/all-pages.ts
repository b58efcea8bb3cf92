import type { ApiResponse } from './http-client.js';

/**
 * Every row of a listing, page by page: `query` is sent, then sent again with each page's
 * `X-Service-Cursor` as `cursor`, until a page comes without one. A listing that never stops
 * handing out cursors fails the test instead of looping.
 */
export async function allPages<T>(get: (query: string) => Promise<ApiResponse<T[]>>, query: string, maxPages = 20): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < maxPages; pages += 1) {
    const response = await get(cursor === undefined ? query : `${query}&cursor=${encodeURIComponent(cursor)}`);
    if (response.status !== 200) throw new Error(`page ${pages + 1} of ${query} answered ${response.status}: ${response.text}`);
    rows.push(...response.body);
    cursor = response.headers.get('x-service-cursor') ?? undefined;
    if (cursor === undefined) return rows;
  }
  throw new Error(`${query} was still handing out cursors after ${maxPages} pages`);
}
