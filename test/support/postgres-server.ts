import pg from 'pg';

export const POSTGRES_TEST_URL = process.env.ATRIUM_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** True when a PostgreSQL server answers at the test URL. */
export async function postgresServerReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_TEST_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Vacuums the test database, catalogs included. Each run creates and drops several hundred
 * schemas (one per test database), and every dropped table leaves dead rows in pg_attribute,
 * pg_class, pg_depend and pg_type. Where autovacuum is off (as on a server tuned for tests, this
 * machine's among them) nothing reclaims them: after five runs pg_attribute held 66 MB, 429,000
 * dead rows and no live one of the suite's, and it grows by a run's worth each time. A plain
 * VACUUM took 0.9 s then, blocks no other session, and only warns (as PostgreSQL does) for
 * catalogs a non-superuser test role may not vacuum.
 */
export async function vacuumTestDatabase(): Promise<void> {
  await adminQuery('vacuum');
}

/** Runs one statement on the test server outside any Atrium database (schema set-up and clean-up). */
export async function adminQuery(text: string): Promise<void> {
  await adminRows(text);
}

/** Runs statements one after another on one connection to the test server, each in its own transaction. */
export async function adminStatements(statements: readonly string[]): Promise<void> {
  if (statements.length === 0) return;
  await withAdminClient(async (client) => {
    for (const statement of statements) await client.query(statement);
  });
}

/** The rows of one query on the test server, outside any Atrium database: a look behind Atrium's back. */
export async function adminRows(text: string): Promise<Record<string, unknown>[]> {
  return withAdminClient(async (client) => (await client.query(text)).rows as Record<string, unknown>[]);
}

/** A connection of its own to the test server for `work`, closed after it. */
async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_TEST_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
