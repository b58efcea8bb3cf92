/**
 * The ids of Atrium's records (users, groups, Workspaces, keys, grants, memberships, uploads, ...)
 * are 32-bit integers in the database: PostgreSQL's `integer` columns refuse to even compare with a
 * larger number, where SQLite would just find nothing. Every id a request carries, in a path, a
 * query, a header, a body, a SCIM resource or a signed link, is read here first, so that one
 * bound holds everywhere and an id beyond it is refused the same way before it reaches a query.
 * (History records are numbered separately, by 64-bit integers, and are not read here.)
 */
export const MAX_RECORD_ID = 2_147_483_647;

/** Whether `value` is a whole number 0 to MAX_RECORD_ID: an id a record could have. */
export function isRecordId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_RECORD_ID;
}

/**
 * An id written as text (a list item, a header, a SCIM `value`, a path segment): plain decimal
 * digits, 0 to MAX_RECORD_ID; anything else (a sign, a fraction, an exponent, spaces, letters, a
 * larger number) is undefined, for the caller to refuse in its protocol's words.
 */
export function parseRecordId(text: string): number | undefined {
  if (!/^[0-9]{1,10}$/.test(text)) return undefined;
  const id = Number(text);
  return id <= MAX_RECORD_ID ? id : undefined;
}

/** A SCIM-style id that may come as a JSON number or as a string of digits (`"value": "42"` or `42`). */
export function recordIdOf(value: unknown): number | undefined {
  if (typeof value === 'string') return parseRecordId(value);
  return isRecordId(value) ? value : undefined;
}
