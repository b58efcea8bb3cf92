import { inject, it } from 'vitest';

/** The databases a console file runs on: PostgreSQL too wherever the test server answers. */
export const CONSOLE_DATABASES = inject('postgresMode') === 'server' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

/**
 * `it` for a console flow that runs on SQLite alone (shown as skipped in the PostgreSQL run). The
 * console reads nothing but the REST API, whose own suites run on both databases: a flow that only
 * shows what the API answers runs once. A flow whose answers come from code that differs by
 * database (sessions, transfers, the order and paging of names, reach and grants, background runs)
 * uses plain `it` and runs on both. A Chromium flow costs about ten times an API test, most of it
 * the browser's, and running every flow twice had made the console's files a third of the suite.
 */
export function itOnSqliteAlone(database: 'sqlite' | 'postgres'): typeof it | typeof it.skip {
  return database === 'sqlite' ? it : it.skip;
}
