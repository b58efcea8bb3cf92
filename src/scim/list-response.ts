import { scimErrors } from './scim-error.js';

export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const MAX_RESULTS = 1000;

/** `startIndex` (1-based) and `count` (RFC 7644 §3.4.2.4): values below 1 are read as 1 and 0. */
export function pageOf(query: { startIndex?: string; count?: string }): { startIndex: number; count: number } {
  const startIndex = integer('startIndex', query.startIndex, 1);
  const count = integer('count', query.count, 100);
  return { startIndex: Math.max(1, startIndex), count: Math.min(MAX_RESULTS, Math.max(0, count)) };
}

function integer(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d{1,9}$/.test(raw)) throw scimErrors.invalidValue(`"${name}" must be an integer.`);
  return Number(raw);
}

export function listResponse(all: readonly object[], page: { startIndex: number; count: number }) {
  const resources = all.slice(page.startIndex - 1, page.startIndex - 1 + page.count);
  return { schemas: [LIST_SCHEMA], totalResults: all.length, startIndex: page.startIndex, itemsPerPage: resources.length, Resources: resources };
}
