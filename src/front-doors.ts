import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server as TlsServer } from 'node:tls';
import { buildApp } from './app.js';
import type { Config } from './config/settings.js';
import type { Core } from './core.js';
import { applyConnectionSettings } from './http/connection-limits.js';
import type { ApiInstance } from './http/fastify-types.js';
import { listenOn } from './http/listen.js';
import type { MetricsExposure } from './http/metrics/register-metrics.js';
import { startMetricsListener } from './http/metrics/metrics-listener.js';
import { reloadCertificateOnHangup } from './http/tls/certificate-reload.js';
import { createHttpsRedirectServer } from './http/tls/https-redirect.js';
import { ServedHostNames } from './http/tls/served-host-names.js';
import type { ProcessStart } from './start-up.js';
import type { HostKeys } from './sftp/host-keys.js';
import { startSftpServer, type SftpServer } from './sftp/sftp-server.js';

/** The listeners of one server process: the API's port, SFTP, the HTTPS redirect and the metrics port. */
export interface FrontDoors {
  readonly app: ApiInstance;
  /** Opens every listener; once /health answers, every door is open. */
  listen(): Promise<void>;
  /** Stops accepting and finishes what is in flight, on every listener opened. */
  close(): Promise<void>;
}

export interface FrontDoorOptions {
  start: ProcessStart;
  hostKeys: HostKeys | undefined;
  metrics: MetricsExposure | undefined;
  /** The separate metrics port (ATRIUM_METRICS_PORT) is this process's to open: false in a worker, whose primary opens it. */
  openMetricsPort: boolean;
  /** Fields on every log line (a worker's number). */
  logFields?: Record<string, unknown>;
}

/** Builds the REST front door over the core and, on listen(), opens every door the settings ask for. */
export async function buildFrontDoors(core: Core, config: Config, options: FrontDoorOptions): Promise<FrontDoors> {
  const { start, hostKeys, metrics } = options;
  const sftpHostKeyFingerprints = hostKeys?.fingerprints.map((key) => `${key.type} ${key.sha256}`);
  let sftp: SftpServer | undefined;
  const app = await buildApp(core, {
    tls: start.tls,
    publicUrl: config.publicUrl,
    metrics,
    idleTimeoutMs: Math.min(config.idleTimeoutMs, config.keepAliveTimeoutMs),
    sftpHostKeyFingerprints,
    // The port is known once SFTP listens (a configured 0 picks one then); until then, none.
    sftpListener: sftpHostKeyFingerprints === undefined || config.sftpPort === undefined
      ? undefined
      : { fingerprints: sftpHostKeyFingerprints, port: () => sftp?.port },
    logFields: options.logFields,
  });
  applyConnectionSettings(app.server, config);
  let redirects: Server | undefined;
  let metricsServer: Server | undefined;
  return {
    app,
    async listen() {
      // SFTP listens first, so that once /health answers every door is open.
      if (hostKeys !== undefined && config.sftpPort !== undefined) sftp = await startSftp(core, config, hostKeys, app.log);
      await app.listen({ host: config.host, port: config.port });
      if (start.tlsFiles !== undefined && start.tls !== undefined) {
        const servedNames = new ServedHostNames(start.tls.cert, config.host);
        // With tls, Fastify made a node:https server; the app's type still says HTTP (see app.ts).
        reloadCertificateOnHangup(app.server as unknown as TlsServer, start.tlsFiles, app.log, (reloaded) => servedNames.certificateChanged(reloaded.cert));
        if (config.httpRedirectPort !== undefined) redirects = await startRedirects(config, (app.server.address() as AddressInfo).port, servedNames, app.log);
      }
      if (options.openMetricsPort && metrics !== undefined && config.metricsPort !== undefined) {
        metricsServer = await startMetricsListener(metrics.scrape, config.metricsPort, config.metricsToken, app.log);
      }
    },
    async close() {
      redirects?.close();
      metricsServer?.close();
      await sftp?.close();
      await app.close();
    },
  };
}

/** The optional plain HTTP port (ATRIUM_HTTP_REDIRECT_PORT) that only points clients to HTTPS. */
async function startRedirects(config: Config, httpsPort: number, servedNames: ServedHostNames, log: { info(message: string): void }): Promise<Server> {
  const server = createHttpsRedirectServer({ httpsPort, publicUrl: config.publicUrl, isServedHost: (host) => servedNames.includes(host) });
  // Plain HTTP is as open to stalled and piled-up connections as the main port.
  applyConnectionSettings(server, config);
  const address = await listenOn(server, config.host, config.httpRedirectPort as number);
  log.info(`HTTP redirect to HTTPS listening at http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`);
  return server;
}

/** The SFTP front door (ATRIUM_SFTP_PORT), on the API's address; its host key fingerprints are logged for clients' known_hosts. */
async function startSftp(core: Core, config: Config, hostKeys: HostKeys, log: { info(message: string): void; warn(message: string): void }): Promise<SftpServer> {
  const server = await startSftpServer(
    { db: core.database.db, clock: core.clock, files: core.files, passwords: core.passwords, hostKeys, onError: (error) => log.warn(`SFTP: ${error.message}`) },
    { host: config.host, port: config.sftpPort as number },
  );
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  log.info(`SFTP listening at sftp://${host}:${server.port}, host keys: ${hostKeys.fingerprints.map((key) => `${key.type} ${key.sha256}`).join(', ')}`);
  return server;
}
