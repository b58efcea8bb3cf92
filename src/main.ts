import { buildApp } from './app.js';
import { ConfigError } from './config/config-error.js';
import { createOwnerOnlyFromNowOn, prepareDataDir, SQLITE_FILE } from './config/data-dir.js';
import { loadConfig } from './config/load-config.js';
import type { Config } from './config/settings.js';
import { createCore } from './core.js';
import { openPostgres, openSqlite, type Database } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { withStartupLock } from './db/startup-lock.js';
import { systemClock } from './lib/time.js';
import { bootstrapFirstStart, type BootstrapResult } from './identity/index.js';
import path from 'node:path';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig(process.env, process.argv.slice(2));
  createOwnerOnlyFromNowOn();
  for (const warning of prepareDataDir(config.dataDir)) process.stderr.write(`atrium: warning: ${warning}\n`);
  const database = openDatabase(config);
  let bootstrap: BootstrapResult;
  try {
    bootstrap = await withStartupLock(database, async () => {
      await migrateToLatest(database);
      return bootstrapFirstStart(database.db, systemClock, config);
    });
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }

  const core = createCore({ database, clock: systemClock, config });
  await core.start();
  const app = await buildApp(core);
  closeGracefullyOnSignals(async () => {
    await app.close();
    await database.close();
  }, (message) => app.log.info(message));
  await app.listen({ host: config.host, port: config.port });
  if (bootstrap.generated !== undefined) printGeneratedCredentials(bootstrap.generated);
}

function openDatabase(config: Config): Database {
  if (config.databaseUrl !== undefined) return openPostgres(config.databaseUrl);
  return openSqlite(path.join(config.dataDir, SQLITE_FILE));
}

/** Printed once, to the terminal and not through the logger, so no log file keeps these secrets. */
function printGeneratedCredentials(generated: NonNullable<BootstrapResult['generated']>): void {
  process.stdout.write(
    [
      '',
      'Atrium created its first Site Administrator. These secrets are shown only now:',
      `  username: ${generated.username}`,
      `  password: ${generated.password}`,
      `  API key:  ${generated.apiKey}`,
      '',
    ].join('\n') + '\n',
  );
}

/** SIGTERM or SIGINT: stop accepting, finish requests in flight, close the database, exit 0. */
function closeGracefullyOnSignals(close: () => Promise<void>, log: (message: string) => void): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    log(`${signal} received, shutting down`);
    const force = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS);
    force.unref();
    close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

main().catch((error: unknown) => {
  // One clear line for a bad setting or an unreachable database; no stack trace.
  const message = error instanceof ConfigError ? `configuration error: ${error.message}` : `start-up failed: ${(error as Error).message}`;
  process.stderr.write(`atrium: ${message}\n`);
  process.exit(1);
});
