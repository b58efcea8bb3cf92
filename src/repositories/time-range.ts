import { sql, type RawBuilder } from 'kysely';

/** Times (ms) after, from, before and up to which a record's time must lie; each bound optional. */
export interface TimeRange {
  gt?: number;
  gteq?: number;
  lt?: number;
  lteq?: number;
}

/**
 * `column` within `range`, as one condition. A record without a time (null) lies in no range.
 * The empty range holds for every record that has a time.
 */
export function withinTimeRange(column: string, range: TimeRange): RawBuilder<boolean> {
  const ref = sql.ref(column);
  const bounds: RawBuilder<boolean>[] = [sql<boolean>`${ref} is not null`];
  if (range.gt !== undefined) bounds.push(sql<boolean>`${ref} > ${range.gt}`);
  if (range.gteq !== undefined) bounds.push(sql<boolean>`${ref} >= ${range.gteq}`);
  if (range.lt !== undefined) bounds.push(sql<boolean>`${ref} < ${range.lt}`);
  if (range.lteq !== undefined) bounds.push(sql<boolean>`${ref} <= ${range.lteq}`);
  return sql<boolean>`(${sql.join(bounds, sql` and `)})`;
}
