import { sql, type RawBuilder } from 'kysely';
import { escapeLike } from '../lib/name-glob.js';

/**
 * `column LIKE '<prefix>%'` with the prefix's own `%`, `_` and `\` escaped: paths such as
 * `_/workspaces/3` contain `_`, which LIKE would otherwise read as "any character". A range
 * comparison would not do: PostgreSQL compares text by the locale's collation, not by bytes.
 */
export function startsWith(column: string, prefix: string): RawBuilder<boolean> {
  // PostgreSQL refuses a text parameter holding NUL, which no stored text holds.
  if (prefix.includes('\u0000')) return sql<boolean>`1 = 0`;
  return sql<boolean>`${sql.ref(column)} like ${`${escapeLike(prefix)}%`} escape '\\'`;
}

/** `column LIKE '%<text>%'`, the text escaped as startsWith's prefix is. */
export function containsText(column: string, text: string): RawBuilder<boolean> {
  if (text.includes('\u0000')) return sql<boolean>`1 = 0`;
  return sql<boolean>`${sql.ref(column)} like ${`%${escapeLike(text)}%`} escape '\\'`;
}
