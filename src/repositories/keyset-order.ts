import { sql, type RawBuilder } from 'kysely';
import type { SortDirection, SortValue } from '../lib/sorted-page.js';

/**
 * Rows after `after` in an order by `sortBy` and then by `id`, both in `direction`: the
 * keyset condition of a sorted listing's next page. `sortBy` must never be null (a nullable
 * column is sorted through `coalesce`): SQLite and PostgreSQL place nulls at opposite ends,
 * and `null > x` holds for no row.
 */
export function afterInOrder(sortBy: RawBuilder<unknown>, id: RawBuilder<unknown>, direction: SortDirection, after: { value: SortValue; id: number }): RawBuilder<boolean> {
  const beyond = direction === 'asc' ? sql.raw('>') : sql.raw('<');
  return sql<boolean>`(${sortBy} ${beyond} ${after.value} or (${sortBy} = ${after.value} and ${id} ${beyond} ${after.id}))`;
}

/** A 0/1 for a flag column, which SQLite keeps as an integer and PostgreSQL as a boolean. */
export function flagAsNumber(column: string): RawBuilder<number> {
  return sql<number>`(case when ${sql.ref(column)} then 1 else 0 end)`;
}

