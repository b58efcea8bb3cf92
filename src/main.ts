import { pino } from 'pino';
import { ConfigError } from './config/config-error.js';
import { loadConfig } from './config/load-config.js';
import type { Config } from './config/settings.js';
import { createCore, type Core } from './core.js';
import type { FrontDoors, FrontDoorOptions } from './front-doors.js';
import { brandHeaders } from './http/brand-headers.js';
import { primaryScrape, workerScrape } from './http/metrics/cluster-metrics.js';
import { metricsExposureFor } from './http/metrics/register-metrics.js';
import { startMetricsListener } from './http/metrics/metrics-listener.js';
import { logOptions } from './http/log-options.js';
import { boundHeapGrowth } from './lib/heap-growth.js';
import { systemClock } from './lib/time.js';
import { systemTimer } from './lib/timer.js';
import { openDatabase, prepareSite, reportBootstrap, sftpHostKeys, showingCredentialsIfItFails, startProcess } from './start-up.js';
import { superviseWorkers } from './workers/supervisor.js';
import { isWorker, reportReady, workerId } from './workers/worker-messages.js';
import { workerCountFor } from './workers/worker-count.js';

const SHUTDOWN_GRACE_MS = 10_000;

/**
 * The front doors are loaded only by the processes that serve: a primary of several workers never
 * loads the HTTP, WebDAV, SCIM and SFTP code, and stays small.
 */
async function buildFrontDoors(core: Core, config: Config, options: FrontDoorOptions): Promise<FrontDoors> {
  return (await import('./front-doors.js')).buildFrontDoors(core, config, options);
}

/**
 * One process serves everything (ATRIUM_WORKERS=1, the default); with more, a primary prepares
 * the site, then starts that many workers which share the ports, and keeps them running.
 */
async function main(): Promise<void> {
  boundHeapGrowth();
  const config = loadConfig(process.env, process.argv.slice(2));
  if (isWorker()) return serveAsWorker(config);
  const workers = workerCountFor(config.workers);
  return workers === 1 ? serveAlone(config) : superviseAsPrimary(config, workers);
}

/** The whole server in this one process. */
async function serveAlone(config: Config): Promise<void> {
  const start = startProcess(config);
  const { database, bootstrap } = await prepareSite(config);
  await showingCredentialsIfItFails(bootstrap, async () => {
    const core = createCore({ database, clock: systemClock, timer: systemTimer, config });
    await core.start({ onHousekeepingError: reportHousekeepingError, onJobsError: reportJobsError });
    // SFTP's host keys are read (or made, on the first start) before anything listens: GET /site shows their fingerprints.
    const hostKeys = await sftpHostKeys(config);
    const doors = await buildFrontDoors(core, config, { start, hostKeys, metrics: metricsExposureFor(config, database), openMetricsPort: true });
    closeGracefullyOnSignals(async () => {
      await core.stop();
      await doors.close();
      await database.close();
    }, (message) => doors.app.log.info(message));
    await doors.listen();
    reportBootstrap(bootstrap, doors.app.log);
  });
}

/**
 * A worker: the site is prepared (migrated, bootstrapped, host keys made) by the primary before
 * it starts any, so a worker only opens the database and its listeners. Housekeeping (History
 * retention, stale temporary files) is the primary's.
 */
async function serveAsWorker(config: Config): Promise<void> {
  const start = startProcess(config);
  const database = openDatabase(config);
  const core = createCore({ database, clock: systemClock, timer: systemTimer, config });
  const hostKeys = await sftpHostKeys(config);
  const exposure = metricsExposureFor(config, database);
  const metrics = exposure === undefined ? undefined : { ...exposure, scrape: workerScrape(exposure.metrics.registry) };
  const doors = await buildFrontDoors(core, config, { start, hostKeys, metrics, openMetricsPort: false, logFields: { worker: workerId() } });
  // The signal may come twice, from the primary and from the service manager (systemd signals the
  // whole control group) or the terminal (Ctrl-C reaches the process group): the second is ignored.
  closeGracefullyOnSignals(async () => {
    await doors.close();
    await database.close();
  }, (message) => doors.app.log.info(message), 'ignore-repeats');
  await doors.listen();
  reportReady();
}

/**
 * The primary of several workers: the start-up work done once (data dir, migrations, first
 * administrator, SFTP host keys), the housekeeping, the metrics port (every worker's counts
 * together), then the workers, restarted if one dies. It serves no request itself.
 */
async function superviseAsPrimary(config: Config, workers: number): Promise<void> {
  const start = startProcess(config);
  const log = pino(logOptions(config.logLevel, brandHeaders(config.headerBrands)) as pino.LoggerOptions);
  const { database, bootstrap } = await prepareSite(config);
  await showingCredentialsIfItFails(bootstrap, async () => {
    await sftpHostKeys(config);
    const core = createCore({ database, clock: systemClock, timer: systemTimer, config });
    await core.start({ onHousekeepingError: reportHousekeepingError, onJobsError: reportJobsError });
    const metricsOn = metricsExposureFor(config, database) !== undefined;
    const scrape = metricsOn ? primaryScrape() : undefined;
    const metricsServer = scrape !== undefined && config.metricsPort !== undefined
      ? await startMetricsListener(scrape, config.metricsPort, config.metricsToken, log)
      : undefined;
    const supervisor = superviseWorkers(workers, log);
    const shutDown = async (): Promise<boolean> => {
      const clean = await supervisor.stop();
      await core.stop();
      metricsServer?.close();
      await database.close();
      return clean;
    };
    closeGracefullyOnSignals(async () => {
      if (!(await shutDown())) throw new Error('a worker did not stop cleanly');
    }, (message) => log.info(message), 'ignore-repeats');
    // A renewed certificate is read by each worker, where the HTTPS listeners are.
    if (start.tlsFiles !== undefined) process.on('SIGHUP', () => supervisor.signalAll('SIGHUP'));
    try {
      await supervisor.ready;
    } catch (error) {
      await shutDown().catch(() => undefined);
      throw error;
    }
    log.info(`${workers} workers serving`);
    reportBootstrap(bootstrap, log);
  });
}

function reportHousekeepingError(error: unknown): void {
  process.stderr.write(`atrium: History retention failed, will try again within the hour: ${(error as Error).message}\n`);
}

function reportJobsError(error: unknown): void {
  process.stderr.write(`atrium: the background jobs could not be run, will try again at the next poll: ${(error as Error).message}\n`);
}

/**
 * SIGTERM or SIGINT: stop accepting, finish requests in flight, close the database, exit 0. A
 * second signal ends a lone process at once (a second Ctrl-C), unless repeats are to be ignored.
 */
function closeGracefullyOnSignals(close: () => Promise<void>, log: (message: string) => void, repeats: 'end-at-once' | 'ignore-repeats' = 'end-at-once'): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    log(`${signal} received, shutting down`);
    const force = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS);
    force.unref();
    close().then(() => process.exit(0), () => process.exit(1));
  };
  const listen = repeats === 'ignore-repeats' ? process.on.bind(process) : process.once.bind(process);
  listen('SIGTERM', onSignal);
  listen('SIGINT', onSignal);
}

main().catch((error: unknown) => {
  // One clear line for a bad setting or an unreachable database; no stack trace.
  const message = error instanceof ConfigError ? `configuration error: ${error.message}` : `start-up failed: ${(error as Error).message}`;
  process.stderr.write(`atrium: ${message}\n`);
  process.exit(1);
});
