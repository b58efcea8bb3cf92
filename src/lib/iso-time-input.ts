/**
 * Reads an ISO-8601 time from a request: a date (`2026-01-02`, midnight UTC) or a date and time
 * with a zone (`2026-01-02T03:04:05Z`, `...+01:00`, fractions allowed). A time without a zone
 * is refused rather than read in the server's local time. Undefined when not such a time.
 */
export function parseIsoTimeInput(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/i.exec(text.trim());
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second, zone] = match;
  if (hour !== undefined && zone === undefined) return undefined;
  // Date.parse rolls 2026-02-30 over to March; a date that does not exist is refused instead.
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (date.getUTCFullYear() !== Number(year) || date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day)) {
    return undefined;
  }
  if (Number(hour ?? 0) > 23 || Number(minute ?? 0) > 59 || Number(second ?? 0) > 59) return undefined;
  const normalised = zone !== undefined && /^[+-]\d{4}$/.test(zone) ? text.trim().replace(/(\d{2})(\d{2})$/, '$1:$2') : text.trim();
  const epochMs = Date.parse(hour === undefined ? `${normalised}T00:00:00Z` : normalised);
  return Number.isNaN(epochMs) ? undefined : epochMs;
}
