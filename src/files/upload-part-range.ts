import { errors } from '../errors/catalogue.js';

/** Parts an upload may have (as Files.com); part numbers run from 1 to this. */
export const MAX_PARTS = 10_000;

/** Parts offered in one answer: `count` parts, numbered from `first` on. */
export interface PartRange {
  readonly first: number;
  readonly count: number;
}

/**
 * The parts a client asks for at once (`part`, `parts`), or the refusal that names what is wrong:
 * a count outside 1 to MAX_PARTS, or a first part below 1, is a parameter that cannot be used;
 * a range that runs past MAX_PARTS asks for parts no upload may have (`part-number-too-large`).
 * Checked before anything is looked up or recorded, so a refused request changes nothing.
 */
export function partRange(first: number, count: number): PartRange {
  if (!Number.isInteger(count) || count < 1 || count > MAX_PARTS) throw errors.paramsInvalid({ parts: [`must be a whole number from 1 to ${MAX_PARTS}`] });
  if (!Number.isInteger(first) || first < 1) throw errors.paramsInvalid({ part: ['must be a whole number, 1 or more'] });
  if (first > MAX_PARTS - count + 1) throw errors.partNumberTooLarge(first + count - 1, MAX_PARTS);
  return { first, count };
}
