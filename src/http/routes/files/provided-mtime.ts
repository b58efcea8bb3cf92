import { errors } from '../../../errors/catalogue.js';
import { parseIsoTimeInput } from '../../../lib/iso-time-input.js';

/**
 * `provided_mtime` as the Files.com clients send it (folder creation, an upload's end, PATCH
 * /files): an ISO-8601 time with a zone, kept to the millisecond and answered to the second.
 * Absent (or empty, as some clients send an unset field) is no time; anything else that is not
 * such a time is refused by name.
 */
export function providedMtimeOf(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const time = parseIsoTimeInput(value);
  if (time === undefined) throw errors.paramsInvalid({ provided_mtime: ['must be an ISO-8601 time with a zone, such as 2026-01-02T03:04:05Z'] });
  return time;
}
