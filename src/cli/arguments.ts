import { InvalidArgumentError } from 'commander';

/** Commander parser for ids (Workspace ids): a whole number, 0 or more. */
export function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
}
