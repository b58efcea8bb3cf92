import type { RangeRequest } from '../../../files/index.js';

/**
 * One `bytes=` range of a Range header (`a-b`, `a-`, `-n`). Anything else (several ranges, other
 * units) is no range at all: the whole file is served, as RFC 9110 allows.
 */
export function rangeRequestOf(header: string | undefined): RangeRequest | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match === null) return undefined;
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return undefined;
  if (first === '') return { suffixLength: Number(last) };
  return last === '' ? { start: Number(first) } : { start: Number(first), end: Number(last) };
}
