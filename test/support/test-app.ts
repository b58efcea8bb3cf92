import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.js';
import { DEFAULT_MAX_UPLOAD_BYTES } from '../../src/config/load-config.js';
import { createCore, type Core, type CoreConfig } from '../../src/core.js';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { ApiInstance } from '../../src/http/fastify-types.js';
import { bootstrapFirstStart } from '../../src/identity/index.js';
import type { Clock } from '../../src/lib/time.js';
import type { ProviderFetch } from '../../src/sso/index.js';
import type { TestDatabaseTarget } from './databases.js';
import { ApiClient } from './http-client.js';
import { ManualTimer } from './manual-timer.js';
import { openPrepared } from './prepared-databases.js';
import { TestClock } from './test-clock.js';

export const BOOTSTRAP_KEY = 'test-bootstrap-key-0123456789abcdef-0123456789';
export const ADMIN_USERNAME = 'root-admin';
export const ADMIN_PASSWORD = 'correct horse battery staple';

export interface TestApp {
  app: ApiInstance;
  /** What the app is built over: the file operations of its front door, for tests that call them directly. */
  core: Core;
  database: Database;
  /** PostgreSQL URL of this test's schema (undefined on SQLite and PGlite). */
  databaseUrl: string | undefined;
  clock: TestClock;
  /** Waits of the app's background jobs (polls, heartbeats): they happen only when a test fires it. */
  timer: ManualTimer;
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
  /** How the app reaches identity providers: a test's fetch that trusts its own certificate authority. */
  identityProviderFetch?: ProviderFetch;
  /** ATRIUM_PUBLIC_URL. */
  publicUrl?: string;
}

/**
 * A real Atrium on a fresh database, listening on a random loopback port, bootstrapped like a
 * first start with a site-wide key and a Site Administrator.
 */
export async function startTestApp(target: TestDatabaseTarget, options: TestAppOptions = {}): Promise<TestApp> {
  // The site as a first start leaves it, at the clock's first moment.
  const clock = new TestClock();
  const { database, url, drop } = await openPrepared(target, 'bootstrapped', async (fresh) => {
    await migrateToLatest(fresh);
    await bootstrapFirstStart(fresh.db, new TestClock(), {
      adminUsername: ADMIN_USERNAME,
      adminPassword: ADMIN_PASSWORD,
      bootstrapApiKey: BOOTSTRAP_KEY,
    });
  });
  const brands = options.brands ?? ['Service'];
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'atrium-test-'));
  const timer = new ManualTimer();
  const core = createCore({
    database,
    clock,
    timer,
    config: { headerBrands: brands, logLevel: 'silent', accessLog: false, trustProxy: options.trustProxy ?? false, dataDir, maxUploadBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES },
    ...(options.identityProviderFetch === undefined ? {} : { identityProviderFetch: options.identityProviderFetch }),
  });
  await core.start();
  const app = await buildApp(core, { publicUrl: options.publicUrl });
  options.extend?.(app);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    core,
    database,
    databaseUrl: url,
    clock,
    timer,
    api: new ApiClient(address, brands[0]),
    baseUrl: address,
    dataDir,
    async close() {
      try {
        await core.stop();
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

/**
 * Another node over a test's database (an app that does not listen until told to), its core made
 * as main.ts makes it. Without a data directory it gets an empty one of its own, removed on close.
 */
export async function buildAppOn(parts: { database: Database; clock: Clock; config: Pick<CoreConfig, 'headerBrands' | 'logLevel' | 'accessLog'> & Partial<CoreConfig> }): Promise<ApiInstance> {
  const ownDataDir = parts.config.dataDir === undefined ? await fs.mkdtemp(path.join(os.tmpdir(), 'atrium-node-')) : undefined;
  const core = createCore({
    database: parts.database,
    clock: parts.clock,
    timer: new ManualTimer(),
    config: { trustProxy: false, maxUploadBytes: DEFAULT_MAX_UPLOAD_BYTES, ...parts.config, dataDir: parts.config.dataDir ?? (ownDataDir as string) },
  });
  await core.start();
  const app = await buildApp(core);
  app.addHook('onClose', async () => core.stop());
  if (ownDataDir !== undefined) app.addHook('onClose', () => fs.rm(ownDataDir, { recursive: true, force: true }));
  return app;
}
