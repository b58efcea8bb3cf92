import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE, PostgresDialect, sql, type DatabaseIntrospector, type Kysely, type SchemaMetadata, type TableMetadata } from 'kysely';

interface ColumnRow {
  table: string;
  table_type: string;
  column: string;
  type: string;
  type_schema: string;
  not_null: boolean;
  has_default: boolean;
  auto_incrementing: string | null;
  column_description: string | null;
}

/**
 * Kysely's PostgreSQL introspector lists the columns of every table in every schema of the server
 * and asks `pg_get_serial_sequence` about each. On a server that holds other schemas (other sites,
 * or the test runs' schemas) that reads everyone's catalog, grows with them, and fails when another
 * connection alters or drops one of their tables meanwhile (`42703`, `42P01`, `3F000`). Atrium's
 * tables, and the migrator's bookkeeping, live in the connection's current schema only, so this
 * introspector reads that schema alone.
 */
export class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const result = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return result.rows;
  }

  async getTables(options: { withInternalKyselyTables: boolean } = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const result = await sql<ColumnRow & { schema: string }>`
      select c.relname as table, c.relkind as table_type, ns.nspname as schema,
             a.attname as column, typ.typname as type, dtns.nspname as type_schema,
             a.attnotnull as not_null, a.atthasdef as has_default,
             pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) as auto_incrementing,
             col_description(a.attrelid, a.attnum) as column_description
        from pg_catalog.pg_class c
        join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
        join pg_catalog.pg_attribute a on a.attrelid = c.oid
        join pg_catalog.pg_type typ on typ.oid = a.atttypid
        join pg_catalog.pg_namespace dtns on dtns.oid = typ.typnamespace
       where ns.nspname = current_schema()
         and c.relkind in ('r', 'v', 'p')
         and a.attnum >= 0 and not a.attisdropped
       order by c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
    for (const row of result.rows) {
      if (!options.withInternalKyselyTables && (row.table === DEFAULT_MIGRATION_TABLE || row.table === DEFAULT_MIGRATION_LOCK_TABLE)) continue;
      let table = tables.get(row.table);
      if (table === undefined) {
        table = { name: row.table, schema: row.schema, isView: row.table_type === 'v', columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.auto_incrementing !== null,
        ...(row.column_description !== null ? { comment: row.column_description } : {}),
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: { withInternalKyselyTables: boolean }): Promise<{ tables: TableMetadata[] }> {
    return { tables: await this.getTables(options) };
  }
}

/** PostgreSQL as Kysely speaks it, with the introspector above. */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
