import type { IncomingHttpHeaders } from 'node:http';

/**
 * Header names that carry the brand (contract 1.2), for every configured brand. Request headers
 * are read in the first configured brand that is present; response headers are sent in all of them.
 */
export interface BrandHeaders {
  /** The configured brands, first one first (ATRIUM_HEADER_BRANDS). */
  brands: readonly string[];
  apiKey: string[];
  session: string[];
  workspace: string[];
  reauthentication: string[];
  cursor: string[];
  cursorNext: string[];
  errorClass: string[];
}

export function brandHeaders(brands: readonly string[]): BrandHeaders {
  const each = (make: (brand: string) => string) => brands.map(make);
  return {
    brands: [...brands],
    apiKey: each((b) => `X-${b}API-Key`),
    session: each((b) => `X-${b}API-Auth`),
    workspace: each((b) => `X-${b}-Workspace-Id`),
    reauthentication: each((b) => `X-${b}-Reauthentication`),
    cursor: each((b) => `X-${b}-Cursor`),
    cursorNext: each((b) => `X-${b}-Cursor-Next`),
    errorClass: each((b) => `X-${b}-Error-Class`),
  };
}

/** The value of the first of `names` present on the request (Node lower-cases header names). */
export function readHeader(headers: IncomingHttpHeaders, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = headers[name.toLowerCase()];
    const text = Array.isArray(value) ? value[0] : value;
    if (text !== undefined && text !== '') return text;
  }
  return undefined;
}

/** `A`, `A or B`, `A, B or C`: header names as a message names them. */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1] as string}`;
}
