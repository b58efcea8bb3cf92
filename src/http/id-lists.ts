import { Type } from 'typebox';
import { errors } from '../errors/catalogue.js';
import { parseRecordId } from '../lib/record-id.js';
import { RecordId } from './schemas.js';

/** Ids as an array of integers or a comma-separated string (the Files.com SDK sends strings). */
export const IdList = Type.Union([Type.String({ maxLength: 100_000 }), Type.Array(RecordId({ minimum: 1 }), { maxItems: 10_000 })]);

/**
 * An IdList field (`group_ids`, `user_ids`, ...) or the `ids` filter as distinct positive ids. A
 * string's items are read by the same rule as every other id, so `2147483648` or `1e3` in a list is
 * refused exactly as it would be alone.
 */
export function parseIdList(field: string, value: string | readonly number[] | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const parts = typeof value === 'string' ? value.split(',').map((p) => p.trim()).filter((p) => p !== '') : value.map(String);
  const ids = parts.map(parseRecordId);
  if (ids.some((id) => id === undefined || id < 1)) throw errors.paramsInvalid({ [field]: ['must be a list of positive integer ids'] });
  return [...new Set(ids as number[])];
}
