import type { ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * The few column types that differ between SQLite and PostgreSQL, in one place so the
 * migrations themselves stay dialect-free.
 */
export function columnTypes(dialect: DialectName) {
  const sqlite = dialect === 'sqlite';
  return {
    /** Epoch milliseconds overflow PostgreSQL's 32-bit integer. */
    time: sqlite ? ('integer' as const) : ('bigint' as const),
    /** Ids that may pass 2^31 over a site's life (History records). */
    bigInteger: sqlite ? ('integer' as const) : ('bigint' as const),
    flag: sqlite ? ('integer' as const) : ('boolean' as const),
    falseValue: sqlite ? 0 : false,
    /** Adds an auto-increment integer primary key named `id`. */
    withId<T extends string>(table: CreateTableBuilder<T, never>) {
      return table.addColumn('id', 'integer', (column: ColumnDefinitionBuilder) =>
        sqlite ? column.primaryKey().autoIncrement() : column.primaryKey().generatedByDefaultAsIdentity(),
      );
    },
  };
}
