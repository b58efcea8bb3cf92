import { buildApp } from './app.js';
import { ConfigError } from './config/config-error.js';
import { createOwnerOnlyFromNowOn, prepareDataDir } from './db/data-dir.js';
import { loadConfig } from './config/load-config.js';
import type { Config } from './config/settings.js';
import { createCore, type Core } from './core.js';
import { openConfiguredDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { withStartupLock } from './db/startup-lock.js';
import { systemClock } from './lib/time.js';
import { bootstrapFirstStart, type BootstrapResult } from './identity/index.js';
import { applyConnectionSettings } from './http/connection-limits.js';
import { metricsAreOn, metricsExposureFor } from './http/metrics/register-metrics.js';
import { startMetricsListener } from './http/metrics/metrics-listener.js';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server as TlsServer } from 'node:tls';
import { reloadCertificateOnHangup } from './http/tls/certificate-reload.js';
import { createHttpsRedirectServer } from './http/tls/https-redirect.js';
import { listenOn } from './http/listen.js';
import { readTlsCredentials, type TlsFiles } from './http/tls/tls-credentials.js';
import { loadHostKeys, type HostKeys } from './sftp/host-keys.js';
import { startSftpServer, type SftpServer } from './sftp/sftp-server.js';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig(process.env, process.argv.slice(2));
  // Checked before anything opens, so a bad certificate stops start-up at once.
  const tlsFiles = tlsFilesOf(config);
  const tls = tlsFiles === undefined ? undefined : readTlsCredentials(tlsFiles);
  createOwnerOnlyFromNowOn();
  for (const warning of prepareDataDir(config.dataDir)) process.stderr.write(`atrium: warning: ${warning}\n`);
  // Statements are timed only for metrics, which are off unless asked for.
  const database = openConfiguredDatabase(config, { timeQueries: metricsAreOn(config) });
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
  await core.start({ onHousekeepingError: (error) => process.stderr.write(`atrium: History retention failed, will try again within the hour: ${(error as Error).message}\n`) });
  const metrics = metricsExposureFor(config, database);
  // SFTP's host keys are read (or made, on the first start) before anything listens: GET /site shows their fingerprints.
  const hostKeys = config.sftpPort === undefined ? undefined : await loadHostKeys({ dataDir: config.dataDir, files: config.sftpHostKeyFiles });
  const sftpHostKeyFingerprints = hostKeys?.fingerprints.map((key) => `${key.type} ${key.sha256}`);
  const app = await buildApp(core, { tls, publicUrl: config.publicUrl, metrics, idleTimeoutMs: Math.min(config.idleTimeoutMs, config.keepAliveTimeoutMs), sftpHostKeyFingerprints });
  applyConnectionSettings(app.server, config);
  let redirects: Server | undefined;
  let metricsServer: Server | undefined;
  let sftp: SftpServer | undefined;
  closeGracefullyOnSignals(async () => {
    core.stop();
    redirects?.close();
    metricsServer?.close();
    await sftp?.close();
    await app.close();
    await database.close();
  }, (message) => app.log.info(message));
  // SFTP listens first, so that once /health answers every door is open.
  if (hostKeys !== undefined && config.sftpPort !== undefined) sftp = await startSftp(core, config, hostKeys, app.log);
  await app.listen({ host: config.host, port: config.port });
  if (tlsFiles !== undefined) {
    // With tls, Fastify made a node:https server; the app's type still says HTTP (see app.ts).
    reloadCertificateOnHangup(app.server as unknown as TlsServer, tlsFiles, app.log);
    if (config.httpRedirectPort !== undefined) redirects = await startRedirects(config, (app.server.address() as AddressInfo).port, app.log);
  }
  if (metrics !== undefined && config.metricsPort !== undefined) {
    metricsServer = await startMetricsListener(metrics.metrics, config.metricsPort, config.metricsToken, app.log);
  }
  if (bootstrap.generated !== undefined) printGeneratedCredentials(bootstrap.generated);
  if (bootstrap.ignoredSettings !== undefined) {
    app.log.warn(`${bootstrap.ignoredSettings.join(', ')} ignored: bootstrap settings apply only to an empty database. `
      + 'To reset a password, run `npx atrium user set-password <username>` (see "Lost the administrator password?" in README.md)');
  }
}

function tlsFilesOf(config: Config): TlsFiles | undefined {
  if (config.tlsCertFile === undefined || config.tlsKeyFile === undefined) return undefined;
  return { certFile: config.tlsCertFile, keyFile: config.tlsKeyFile };
}

/** The optional plain HTTP port (ATRIUM_HTTP_REDIRECT_PORT) that only points clients to HTTPS. */
async function startRedirects(config: Config, httpsPort: number, log: { info(message: string): void }): Promise<Server> {
  const fallbackHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  const server = createHttpsRedirectServer({ httpsPort, publicUrl: config.publicUrl, fallbackHost });
  // Plain HTTP is as open to stalled and piled-up connections as the main port.
  applyConnectionSettings(server, config);
  const address = await listenOn(server, config.host, config.httpRedirectPort as number);
  log.info(`HTTP redirect to HTTPS listening at http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`);
  return server;
}

/** The SFTP front door (ATRIUM_SFTP_PORT), on the API's address; its host key fingerprints are logged for clients' known_hosts. */
async function startSftp(core: Core, config: Config, hostKeys: HostKeys, log: { info(message: string): void; warn(message: string): void }): Promise<SftpServer> {
  const server = await startSftpServer(
    { db: core.database.db, clock: core.clock, files: core.files, hostKeys, onError: (error) => log.warn(`SFTP: ${error.message}`) },
    { host: config.host, port: config.sftpPort as number },
  );
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  log.info(`SFTP listening at sftp://${host}:${server.port}, host keys: ${hostKeys.fingerprints.map((key) => `${key.type} ${key.sha256}`).join(', ')}`);
  return server;
}

/**
 * Printed once, to standard error and not through the logger: standard output carries the JSON log
 * lines a collector parses and keeps, and these secrets belong in neither.
 */
function printGeneratedCredentials(generated: NonNullable<BootstrapResult['generated']>): void {
  process.stderr.write(
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
