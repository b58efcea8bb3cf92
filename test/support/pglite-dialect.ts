import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler,
  type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult, type TransactionSettings,
} from 'kysely';

/**
 * A Kysely dialect over PGlite (PostgreSQL compiled to WebAssembly, in-process), so a machine
 * without a PostgreSQL server still runs the suite in the PostgreSQL dialect. One connection,
 * held by one user at a time, like Kysely's own SQLite driver.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createAdapter() { return new PostgresAdapter(); }
  createDriver(): Driver { return new PGliteDriver(this.pglite); }
  createIntrospector(db: Kysely<unknown>) { return new PostgresIntrospector(db); }
  createQueryCompiler() { return new PostgresQueryCompiler(); }
}

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: DatabaseConnection;

  constructor(private readonly pglite: PGlite) {
    this.connection = {
      executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        const result = await this.pglite.query<R>(query.sql, [...query.parameters]);
        const affected = result.affectedRows === undefined ? undefined : BigInt(result.affectedRows);
        return { rows: result.rows, ...(affected === undefined ? {} : { numAffectedRows: affected }) };
      },
      streamQuery: () => { throw new Error('streaming is not supported on PGlite'); },
    };
  }

  async init(): Promise<void> { await this.pglite.waitReady; }

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const previous = this.queue;
    this.queue = new Promise<void>((resolve) => { release = resolve; });
    await previous;
    this.releaseNext = release;
    return this.connection;
  }

  private releaseNext: () => void = () => undefined;

  async releaseConnection(): Promise<void> { this.releaseNext(); }
  async beginTransaction(c: DatabaseConnection, _settings: TransactionSettings) { await c.executeQuery(CompiledQuery.raw('begin')); }
  async commitTransaction(c: DatabaseConnection) { await c.executeQuery(CompiledQuery.raw('commit')); }
  async rollbackTransaction(c: DatabaseConnection) { await c.executeQuery(CompiledQuery.raw('rollback')); }
  async destroy(): Promise<void> { await this.pglite.close(); }
}
