import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { ApiInstance } from '../../src/http/fastify-types.js';
import { bootstrapFirstStart } from '../../src/identity/index.js';
import type { TestDatabaseTarget } from './databases.js';
import { ApiClient } from './http-client.js';
import { TestClock } from './test-clock.js';

export const BOOTSTRAP_KEY = 'test-bootstrap-key-0123456789abcdef-0123456789';
export const ADMIN_USERNAME = 'root-admin';
export const ADMIN_PASSWORD = 'correct horse battery staple';

export interface TestApp {
  app: ApiInstance;
  database: Database;
  /** PostgreSQL URL of this test's schema (undefined on SQLite and PGlite). */
  databaseUrl: string | undefined;
  clock: TestClock;
  api: ApiClient;
  baseUrl: string;
  /** The app's own data directory (file contents live under `files/`), removed on close. */
  dataDir: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  brands?: string[];
  trustProxy?: boolean | string[];
  maxUploadBytes?: number;
  /** Routes a test adds before the app starts (for example one that throws). */
  extend?: (app: ApiInstance) => void;
}

/**
 * A real Atrium on a fresh database, listening on a random loopback port, bootstrapped like a
 * first start with a site-wide key and a Site Administrator.
 */
export async function startTestApp(target: TestDatabaseTarget, options: TestAppOptions = {}): Promise<TestApp> {
  const { database, url, drop } = await target.open();
  const clock = new TestClock();
  await migrateToLatest(database);
  await bootstrapFirstStart(database.db, clock, {
    adminUsername: ADMIN_USERNAME,
    adminPassword: ADMIN_PASSWORD,
    bootstrapApiKey: BOOTSTRAP_KEY,
  });
  const brands = options.brands ?? ['Service'];
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'atrium-test-'));
  const app = await buildApp({
    database,
    config: { headerBrands: brands, logLevel: 'silent', accessLog: false, trustProxy: options.trustProxy ?? false, dataDir, maxUploadBytes: options.maxUploadBytes },
    clock,
  });
  options.extend?.(app);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    database,
    databaseUrl: url,
    clock,
    api: new ApiClient(address, brands[0]),
    baseUrl: address,
    dataDir,
    async close() {
      try {
        await app.close();
        // A test may have closed the database itself (the health check when it is gone).
        await database.close().catch(() => undefined);
      } finally {
        await drop();
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}
