import type { TestProject } from 'vitest/node';
import { postgresServerReachable, POSTGRES_TEST_URL, vacuumTestDatabase } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresMode: 'server' | 'pglite';
  }
}

/**
 * Decides once per run where the PostgreSQL half of the suite runs: on the real server when it
 * answers, else on PGlite in-process. With ATRIUM_TEST_REQUIRE_POSTGRES=1 (CI) an unreachable
 * server fails the run instead of falling back. On the server, what earlier runs left behind is
 * vacuumed first (vacuumTestDatabase says why).
 */
export default async function setup(project: TestProject): Promise<void> {
  const reachable = await postgresServerReachable();
  if (!reachable && process.env.ATRIUM_TEST_REQUIRE_POSTGRES === '1') {
    throw new Error(`PostgreSQL is required but not reachable at ${POSTGRES_TEST_URL}`);
  }
  if (!reachable) {
    process.stderr.write(`\nPostgreSQL not reachable at ${POSTGRES_TEST_URL}: running the PostgreSQL suite on PGlite.\n\n`);
  }
  if (reachable) await vacuumTestDatabase();
  project.provide('postgresMode', reachable ? 'server' : 'pglite');
}
