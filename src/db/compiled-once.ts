import { CompiledQuery, type Compilable, type QueryResult } from 'kysely';
import type { Db } from './db.js';

/** Where each parameter of the compiled SQL comes from: an argument's index, or a constant of the query. */
type ParameterSource = { argument: number } | { constant: unknown };

interface Compiled {
  sql: string;
  sources: ParameterSource[];
}

/**
 * A statement built and compiled by Kysely once per dialect, then run with new arguments.
 *
 * For the few statements so frequent that building and compiling the query costs more than the
 * database's own work: on SQLite, Kysely's builders and compiler were about half of a History
 * record's cost. `build` receives one placeholder per argument, to put where the value goes; the
 * compiled SQL is kept per dialect (the placeholders' syntax differs), and each run binds the
 * arguments where their placeholders landed, whatever order the SQL puts them in.
 */
export function compiledOnce<Args extends readonly unknown[]>(
  argumentCount: Args['length'],
  build: (db: Db, placeholders: Args) => Compilable,
): <Row = unknown>(db: Db, ...args: Args) => Promise<QueryResult<Row>> {
  const byDialect = new Map<unknown, Compiled>();
  return async <Row>(db: Db, ...args: Args) => {
    // The adapter's class tells the dialect, and is shared by a database and its transactions.
    const dialect = db.getExecutor().adapter.constructor;
    let compiled = byDialect.get(dialect);
    if (compiled === undefined) {
      compiled = compile(db, argumentCount, build);
      byDialect.set(dialect, compiled);
    }
    const parameters = compiled.sources.map((source) => ('argument' in source ? args[source.argument] : source.constant));
    return db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, parameters));
  };
}

function compile<Args extends readonly unknown[]>(db: Db, count: number, build: (db: Db, placeholders: Args) => Compilable): Compiled {
  // Each placeholder is a string no real value is: where it shows up among the compiled
  // parameters, that argument goes.
  const placeholders = Array.from({ length: count }, (_, i) => `\u0000argument ${i}\u0000`);
  const query = build(db, placeholders as unknown as Args).compile();
  const sources = query.parameters.map((value): ParameterSource => {
    const index = placeholders.indexOf(value as string);
    return index === -1 ? { constant: value } : { argument: index };
  });
  const unused = placeholders.filter((_, i) => !sources.some((source) => 'argument' in source && source.argument === i));
  if (unused.length > 0) throw new Error(`compiledOnce: ${unused.length} argument(s) not bound by the query`);
  return { sql: query.sql, sources };
}
