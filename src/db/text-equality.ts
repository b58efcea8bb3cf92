import { sql, type RawBuilder } from 'kysely';

/**
 * `column = value` for a text a client sent. PostgreSQL keeps no NUL character in text and refuses
 * a statement whose text parameter holds one, where SQLite just finds nothing: no stored value
 * equals such a text on either database, so the comparison is answered false without sending it.
 */
export function equalsText(column: string, value: string): RawBuilder<boolean> {
  return value.includes('\u0000') ? sql<boolean>`1 = 0` : sql<boolean>`${sql.ref(column)} = ${value}`;
}
