import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { adminRows, adminStatements, postgresServerReachable, POSTGRES_TEST_URL, vacuumTestDatabase } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresMode: 'server' | 'pglite';
    /** Begins the name of every schema this run's test databases make (databases.ts), so that its end finds them. */
    schemaTag: string;
  }
}

/**
 * Decides once per run where the PostgreSQL half of the suite runs: on the real server when it
 * answers, else on PGlite in-process. With ATRIUM_TEST_REQUIRE_POSTGRES=1 (CI) an unreachable
 * server fails the run instead of falling back. On the server, what earlier runs left behind is
 * vacuumed first (vacuumTestDatabase says why), and the schemas its test databases leave (a worker
 * keeps some to reuse: reusable-schemas.ts) are dropped at its end.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const reachable = await postgresServerReachable();
  if (!reachable && process.env.ATRIUM_TEST_REQUIRE_POSTGRES === '1') {
    throw new Error(`PostgreSQL is required but not reachable at ${POSTGRES_TEST_URL}`);
  }
  if (!reachable) {
    process.stderr.write(`\nPostgreSQL not reachable at ${POSTGRES_TEST_URL}: running the PostgreSQL suite on PGlite.\n\n`);
  }
  if (reachable) await vacuumTestDatabase();
  project.provide('postgresMode', reachable ? 'server' : 'pglite');
  const tag = `atrium_test_${randomBytes(3).toString('hex')}_`;
  project.provide('schemaTag', tag);
  if (!reachable) return undefined;
  return async () => {
    const left = (await adminRows(`select nspname from pg_namespace where starts_with(nspname, '${tag}')`)).map(({ nspname }) => `"${String(nspname)}"`);
    // A few schemas a statement: each of a schema's objects takes a lock until its transaction
    // ends, and the server's lock table (max_locks_per_transaction × connections) does not hold
    // a whole run's schemas at once.
    const perStatement = 8;
    const statements: string[] = [];
    for (let start = 0; start < left.length; start += perStatement) {
      statements.push(`drop schema if exists ${left.slice(start, start + perStatement).join(', ')} cascade`);
    }
    await adminStatements(statements);
  };
}
