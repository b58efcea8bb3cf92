import { adminQuery, adminRows } from './postgres-server.js';

/**
 * PostgreSQL schemas made once from a template and handed out again and again, each time holding
 * exactly the template's rows. Creating a schema (some forty tables with their indexes, triggers
 * and sequences) and dropping it again cost the server about half a second of processor time for
 * every test app, more than most test files spend in their tests; emptying the tables of a
 * schema the last test is done with and copying the template's rows back costs a few
 * milliseconds. A schema is handed back only after its app has closed every connection to it.
 */
export class ReusableSchemas {
  private readonly free: string[] = [];

  private constructor(
    private readonly create: () => Promise<string>,
    private readonly resetScript: (schema: string) => string,
  ) {}

  /**
   * `template` is a schema that stays as it is for the life of this process (the source of every
   * reset); `create` makes a new schema like it and gives its name.
   */
  static async of(template: string, create: () => Promise<string>): Promise<ReusableSchemas> {
    const tables = (await adminRows(`select tablename from pg_tables where schemaname = '${template}' order by tablename`)).map((row) => String(row.tablename));
    const sequences = await adminRows(`select sequencename, start_value, last_value from pg_sequences where schemaname = '${template}' order by sequencename`);
    // What a reset checks first: that the schema is still built as the template (same columns and
    // indexes), so a test that changed it never hands its changes on.
    const shape = (schema: string) =>
      `select count(*) from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace where n.nspname = '${schema}' and a.attnum > 0 and not a.attisdropped`;
    const count = Number((await adminRows(shape(template)))[0]?.count);
    const script = (schema: string) =>
      [
        `do $$ begin if (${shape(schema)}) <> ${String(count)} then raise exception 'schema % changed', '${schema}'; end if; end $$`,
        // The tables are emptied and filled in any order, and nothing of Atrium's own (its write
        // counter's triggers) runs meanwhile: a reset is no write of the site's.
        'begin',
        'set local session_replication_role = replica',
        ...tables.map((table) => `delete from "${schema}"."${table}"`),
        ...tables.map((table) => `insert into "${schema}"."${table}" overriding system value select * from "${template}"."${table}"`),
        ...sequences.map((row) =>
          row.last_value === null
            ? `select setval('"${schema}"."${String(row.sequencename)}"', ${String(row.start_value)}, false)`
            : `select setval('"${schema}"."${String(row.sequencename)}"', ${String(row.last_value)}, true)`,
        ),
        'commit',
      ].join(';\n');
    return new ReusableSchemas(create, script);
  }

  /** A schema holding the template's rows: one handed back earlier, or a new one. */
  async take(): Promise<string> {
    return this.free.pop() ?? (await this.create());
  }

  /**
   * Takes back a schema no connection uses any more. One whose reset fails (a test changed its
   * tables themselves) is dropped instead.
   */
  async giveBack(schema: string): Promise<void> {
    try {
      await adminQuery(this.resetScript(schema));
      this.free.push(schema);
    } catch {
      await adminQuery(`drop schema if exists "${schema}" cascade`);
    }
  }
}
